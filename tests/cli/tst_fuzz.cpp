// Hostile scenario files through `retrylab run`: every mutated preset is either refused with exit 2
// and short, clean error lines that name a field or the file, or runs to completion with exit 0.
//
// Budget per case, enforced here: a 10 s timeout (the process is killed and the case fails), and
// without AddressSanitizer a 2 GiB address-space limit (RLIMIT_AS) in the child, so a run that tries
// to allocate without bound dies instead of swapping; the test also checks that the largest child's
// peak resident memory stayed under 1 GiB (getrusage RUSAGE_CHILDREN). Cases run two at a time.
#include "fuzzsupport.h"
#include "scenario.h"
#include "testpaths.h"

#include <QDir>
#include <QFileInfo>
#include <QMap>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStringDecoder>
#include <QStringEncoder>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <random>

#include <sys/resource.h>

using namespace retrylab;

namespace {

constexpr std::uint64_t FuzzSeed = 0x5eed0007c0ffee11ULL;
constexpr int CaseCount = 320;
constexpr int CaseTimeoutMs = fuzz::CaseTimeoutMs;
constexpr long PeakRssLimitKb = fuzz::PeakRssLimitKb;


// Fields whose in-range extremes multiply the work of a run (orders x attempts): mutations give them
// only invalid values, so no valid case asks for millions of attempts. The work budget refuses those.
const char *const WorkFields[] = {"workload.orders", "workload.clients", "client.business.maxAttempts",
                                  "client.wrapper.maxAttempts", "client.transport.total"};

struct Case
{
    QString kind;
    QByteArray bytes;
};

class Mutator
{
public:
    explicit Mutator(std::uint64_t seed) : m_rng(seed) {}

    int below(int n) { return int(m_rng() % std::uint64_t(n)); }
    bool coin() { return below(2) == 0; }
    template<typename T>
    const T &pick(const QList<T> &list) { return list.at(below(int(list.size()))); }

    // Every leaf path of a JSON tree, as (path, keys/indexes) lists.
    static void leaves(const QJsonValue &v, const QStringList &path, QList<QStringList> *out)
    {
        if (v.isObject()) {
            const QJsonObject o = v.toObject();
            for (auto it = o.constBegin(); it != o.constEnd(); ++it)
                leaves(it.value(), path + QStringList{it.key()}, out);
        } else if (v.isArray() && !v.toArray().isEmpty()) {
            const QJsonArray a = v.toArray();
            for (int i = 0; i < a.size(); ++i)
                leaves(a.at(i), path + QStringList{QStringLiteral("#%1").arg(i)}, out);
        } else {
            out->append(path);
        }
    }

    static QJsonValue replaced(const QJsonValue &node, const QStringList &path, int i, const QJsonValue &value)
    {
        if (i == path.size())
            return value;
        if (path.at(i).startsWith(QLatin1Char('#'))) {
            QJsonArray a = node.toArray();
            const int index = path.at(i).mid(1).toInt();
            a.replace(index, replaced(a.at(index), path, i + 1, value));
            return a;
        }
        QJsonObject o = node.toObject();
        o.insert(path.at(i), replaced(o.value(path.at(i)), path, i + 1, value));
        return o;
    }

    static QJsonValue valueAt(const QJsonObject &root, const QStringList &path)
    {
        QJsonValue v = root;
        for (const QString &p : path)
            v = p.startsWith(QLatin1Char('#')) ? v.toArray().at(p.mid(1).toInt()) : v.toObject().value(p);
        return v;
    }

    static bool isWorkField(const QStringList &path)
    {
        const QString dotted = path.join(QLatin1Char('.'));
        for (const char *f : WorkFields) {
            if (dotted == QLatin1String(f))
                return true;
        }
        return false;
    }

    QJsonValue wrongType(const QJsonValue &current)
    {
        QList<QJsonValue> options{QJsonValue(QStringLiteral("three")), QJsonValue(true), QJsonValue(QJsonValue::Null),
                                  QJsonArray{1, 2}, QJsonObject{{QStringLiteral("x"), 1}}, QJsonValue(3)};
        QJsonValue v;
        do {
            v = pick(options);
        } while (v.type() == current.type());
        return v;
    }

    QJsonValue extremeNumber(bool workField)
    {
        static const QList<double> invalid{-1, -2147483649.0, 2147483648.0, 1e308, -1e308, 1e20, 2.5, 1000001,
                                           9007199254740993.0, 1e-300, -0.0001};
        static const QList<double> any{0, 1, 100, 3600000, 86400, 0.5, 1, 1e6};
        if (workField || coin())
            return pick(invalid);
        return pick(any);
    }

    QString hugeOrEmptyString()
    {
        switch (below(4)) {
        case 0:
            return QString();
        case 1:
            return QString(100000, QLatin1Char('x'));
        case 2:
            return QStringLiteral("\u001b[31m\u001b]0;title\u0007red\u202e");
        default:
            return QString(below(300), QChar(0x00e9));
        }
    }

    QByteArray nested(int depth, bool arrays)
    {
        QByteArray open, close;
        for (int i = 0; i < depth; ++i) {
            open += arrays ? "[" : "{\"a\":";
            close += arrays ? "]" : "}";
        }
        return open + "1" + close;
    }

    QJsonObject scriptEntry()
    {
        QJsonObject e;
        static const QList<QJsonValue> ops{QJsonValue(QStringLiteral("*")), 1, 2, 20, 21, 999999, 0, -1, 1.5,
                                           QJsonValue(QStringLiteral("1"))};
        static const QList<QString> attempts{QStringLiteral("*/*/*"),     QStringLiteral("b1/w1/t1"),
                                             QStringLiteral("b2/*/t1"),   QStringLiteral("b9999/w9999/t9999"),
                                             QStringLiteral("*/w3/*"),    QStringLiteral("b1/w1"),
                                             QStringLiteral("b0/w1/t1"),  QStringLiteral("")};
        static const QList<QString> faults{QStringLiteral("connectFailure"), QStringLiteral("responseLost"),
                                           QStringLiteral("requestLost"), QStringLiteral("throttle429"),
                                           QStringLiteral("server5xxAfterCommit"), QStringLiteral("meteor")};
        if (below(4) != 0)
            e.insert(QStringLiteral("op"), pick(ops));
        if (below(4) != 0)
            e.insert(QStringLiteral("attempt"), pick(attempts));
        if (below(5) != 0)
            e.insert(QStringLiteral("fault"), pick(faults));
        return e;
    }

    QByteArray compact(const QJsonObject &o) { return QJsonDocument(o).toJson(QJsonDocument::Compact); }
    QByteArray indented(const QJsonObject &o) { return QJsonDocument(o).toJson(QJsonDocument::Indented); }

    Case mutate(const QJsonObject &preset, const QByteArray &text, int kind)
    {
        QList<QStringList> paths, numeric;
        leaves(preset, {}, &paths);
        for (const QStringList &p : std::as_const(paths)) {
            if (valueAt(preset, p).isDouble())
                numeric << p;
        }
        // Extreme numbers go to numeric fields, where they can pass or fail validation.
        const QStringList path = kind == 1 && !numeric.isEmpty() ? pick(numeric) : pick(paths);
        const QJsonObject root = preset;
        switch (kind) {
        case 0: {
            return {QStringLiteral("wrong-type"),
                    indented(replaced(root, path, 0, wrongType(valueAt(root, path))).toObject())};
        }
        case 1:
            return {QStringLiteral("extreme-number"),
                    indented(replaced(root, path, 0, extremeNumber(isWorkField(path))).toObject())};
        case 2:
            return {QStringLiteral("string"), indented(replaced(root, path, 0, hugeOrEmptyString()).toObject())};
        case 3: {
            // Deep nesting at a leaf, as raw text (QJsonDocument would refuse to build it).
            const QByteArray marker("\"@@NEST@@\"");
            QByteArray out = indented(replaced(root, path, 0, QStringLiteral("@@NEST@@")).toObject());
            out.replace(marker, nested(1 + below(3000), coin()));
            return {QStringLiteral("deep-nesting"), out};
        }
        case 4: {
            QJsonObject o = root;
            QJsonObject network = o.value(QLatin1String("network")).toObject();
            QJsonObject client = o.value(QLatin1String("client")).toObject();
            QJsonObject transport = client.value(QLatin1String("transport")).toObject();
            const int n = QList<int>{0, 1, 16, 17, 64, 65, 1000, 1001, 5000}.at(below(9));
            QJsonArray array;
            const int which = below(3);
            for (int i = 0; i < n; ++i) {
                if (which == 0)
                    array.append(QJsonObject{{QStringLiteral("op"), QStringLiteral("*")},
                                             {QStringLiteral("attempt"), QStringLiteral("*/*/*")},
                                             {QStringLiteral("fault"), QStringLiteral("latencySpike")}});
                else if (which == 1)
                    array.append(500 + below(100));
                else
                    array.append(QStringLiteral("GET"));
            }
            if (which == 0)
                network.insert(QStringLiteral("script"), array);
            else
                transport.insert(which == 1 ? QStringLiteral("statusForcelist") : QStringLiteral("allowedMethods"), array);
            client.insert(QStringLiteral("transport"), transport);
            o.insert(QStringLiteral("client"), client);
            o.insert(QStringLiteral("network"), network);
            return {QStringLiteral("big-array"), compact(o)};
        }
        case 5: {
            QJsonObject o = root;
            QJsonObject network = o.value(QLatin1String("network")).toObject();
            QJsonArray script;
            for (int i = below(4); i >= 0; --i)
                script.append(scriptEntry());
            network.insert(QStringLiteral("script"), script);
            o.insert(QStringLiteral("network"), network);
            return {QStringLiteral("script-entry"), indented(o)};
        }
        case 6: {
            QJsonObject o = root;
            static const QList<QString> keys{QString(),
                                             QStringLiteral(" workload"),
                                             QStringLiteral("\u001b[2Jseed"),
                                             QStringLiteral("seeds"),
                                             QString(70000, QLatin1Char('k')),
                                             QStringLiteral("w\u0000rkload")};
            const int count = coin() ? 1 + below(3) : 20000;
            for (int i = 0; i < count; ++i)
                o.insert(count > 3 ? QStringLiteral("k%1").arg(i) : pick(keys), i);
            return {QStringLiteral("unknown-keys"), compact(o)};
        }
        case 7:
            return {QStringLiteral("truncated"), text.left(below(int(text.size())))};
        case 8: {
            // The same key twice, at the top or inside the first object that holds the chosen leaf.
            QByteArray out = text;
            const QString key = path.size() > 1 && !path.at(1).startsWith(QLatin1Char('#')) ? path.at(1) : path.at(0);
            const QByteArray needle = "\"" + key.toUtf8() + "\":";
            const qsizetype at = out.indexOf(needle);
            if (at >= 0)
                out.insert(at, needle + " 1, ");
            return {QStringLiteral("duplicate-key"), out};
        }
        case 9: {
            QByteArray out = text;
            static const QList<QByteArray> bytes{QByteArray("\x1b"), QByteArray("\x00", 1), QByteArray("\x07"),
                                                 QByteArray("\xff"), QByteArray("\xc3"), QByteArray("\xed\xa0\x80"),
                                                 QByteArray("\xf8\x88\x80\x80\x80"), QByteArray("\r"), QByteArray("\x7f")};
            for (int i = 1 + below(3); i > 0; --i)
                out.insert(below(int(out.size())), pick(bytes));
            return {QStringLiteral("control-bytes"), out};
        }
        case 10: {
            const QString s = QString::fromUtf8(text);
            switch (below(5)) {
            case 0: {
                QStringEncoder encoder(QStringEncoder::Utf16LE, QStringEncoder::Flag::WriteBom);
                return {QStringLiteral("utf16le"), encoder(s)};
            }
            case 1: {
                QStringEncoder encoder(QStringEncoder::Utf16BE);
                return {QStringLiteral("utf16be"), encoder(s)};
            }
            case 2: {
                QStringEncoder encoder(QStringEncoder::Utf32LE, QStringEncoder::Flag::WriteBom);
                return {QStringLiteral("utf32"), encoder(s)};
            }
            case 3: {
                QByteArray out = text;
                out.replace("\"title\": \"", "\"title\": \"caf\xe9 ");
                return {QStringLiteral("latin1"), out};
            }
            default:
                return {QStringLiteral("utf8-bom"), "\xef\xbb\xbf" + text};
            }
        }
        case 11: {
            QByteArray out = text;
            for (int i = 1 + below(5); i > 0; --i)
                out[below(int(out.size()))] = char(below(256));
            return {QStringLiteral("byte-flips"), out};
        }
        default: {
            // A number written the way other languages allow.
            static const QList<QByteArray> numbers{"0x10", "007", "+1", ".5", "1.", "NaN", "Infinity", "-", "1e",
                                                   "1_000", "10ms", "1e999", "-1e999", "00"};
            QByteArray out = text;
            static const QRegularExpression number(QStringLiteral(":\\s*(-?[0-9][0-9.eE+-]*)"));
            const QString s = QString::fromUtf8(out);
            QList<QRegularExpressionMatch> matches;
            auto it = number.globalMatch(s);
            while (it.hasNext())
                matches << it.next();
            if (!matches.isEmpty()) {
                const QRegularExpressionMatch m = matches.at(below(int(matches.size())));
                QString replacedText = s;
                replacedText.replace(m.capturedStart(1), m.capturedLength(1), QString::fromLatin1(pick(numbers)));
                out = replacedText.toUtf8();
            }
            return {QStringLiteral("number-syntax"), out};
        }
        }
    }

private:
    std::mt19937_64 m_rng;
};

constexpr int KindCount = 13;

QStringList fieldPaths()
{
    QStringList paths;
    const QList<FieldInfo> fields = scenario::fields();
    for (const FieldInfo &f : fields)
        paths << f.path.section(QLatin1Char('['), 0, 0);
    return paths;
}

} // namespace

class TestFuzz : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void mutatedScenariosAreRefusedOrRun();
    void hostileArgumentsAreRefusedOrRun();
};

void TestFuzz::mutatedScenariosAreRefusedOrRun()
{
    const QDir presets(retrylab::test::sourcePath(QStringLiteral("resources/scenarios")));
    const QStringList names = presets.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    QVERIFY2(names.size() >= 10, qPrintable(presets.path()));
    QList<QJsonObject> objects;
    QList<QByteArray> texts;
    for (const QString &name : names) {
        QFile file(presets.filePath(name));
        QVERIFY(file.open(QIODevice::ReadOnly));
        texts << file.readAll();
        objects << QJsonDocument::fromJson(texts.last()).object();
        QVERIFY(!objects.last().isEmpty());
    }

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // RETRYLAB_FUZZ_KEEP=1 keeps the generated files for a look at what each case does.
    if (qEnvironmentVariableIntValue("RETRYLAB_FUZZ_KEEP") == 1) {
        dir.setAutoRemove(false);
        qInfo("cases in %s", qPrintable(dir.path()));
    }
    Mutator mutator(FuzzSeed);
    QList<QPair<QString, QString>> cases; // file, kind
    for (int i = 0; i < CaseCount; ++i) {
        const int preset = mutator.below(int(objects.size()));
        const Case c = mutator.mutate(objects.at(preset), texts.at(preset), i % KindCount);
        const QString fileName = dir.filePath(QStringLiteral("case-%1-%2.json").arg(i, 3, 10, QLatin1Char('0')).arg(c.kind));
        QFile file(fileName);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(c.bytes), c.bytes.size());
        file.close();
        cases.append({fileName, c.kind});
    }

    const QStringList paths = fieldPaths();
    static const QRegularExpression unsafe(QStringLiteral("[\\x00-\\x08\\x0b-\\x1f\\x7f]"));
    int refused = 0, ran = 0;
    QStringList failures;
    QMap<QString, QPair<int, int>> byKind; // kind -> (refused, ran)

    const auto check = [&](QProcess *process, const QString &fileName, const QString &kind) {
        const QByteArray out = process->readAllStandardOutput();
        const QByteArray err = process->readAllStandardError();
        const QString name = QFileInfo(fileName).fileName();
        if (process->state() != QProcess::NotRunning) {
            process->kill();
            process->waitForFinished();
            failures << name + QStringLiteral(": still running after %1 ms").arg(CaseTimeoutMs);
            return;
        }
        if (process->exitStatus() != QProcess::NormalExit) {
            failures << name + QStringLiteral(": crashed: ") + QString::fromUtf8(err.right(400));
            return;
        }
        if (process->exitCode() == 0) {
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(out, &error);
            if (error.error != QJsonParseError::NoError || !doc.object().contains(QLatin1String("metrics")))
                failures << name + QStringLiteral(": exit 0 without a JSON result");
            else if (!err.isEmpty())
                failures << name + QStringLiteral(": exit 0 with stderr: ") + QString::fromUtf8(err.left(200));
            ++ran;
            ++byKind[kind].second;
            return;
        }
        if (process->exitCode() != 2) {
            failures << name + QStringLiteral(": exit %1: ").arg(process->exitCode()) + QString::fromUtf8(err.left(400));
            return;
        }
        ++refused;
        ++byKind[kind].first;
        const QString text = QString::fromUtf8(err);
        QStringList lines = text.split(QLatin1Char('\n'));
        if (lines.last().isEmpty())
            lines.removeLast();
        if (lines.isEmpty() || lines.size() > scenario::MaxReportedErrors + 1)
            failures << name + QStringLiteral(": %1 error lines").arg(lines.size());
        if (!out.isEmpty())
            failures << name + QStringLiteral(": output on stdout despite exit 2");
        for (const QString &line : std::as_const(lines)) {
            const bool namesFile = line.contains(fileName);
            const bool namesField = std::any_of(paths.cbegin(), paths.cend(),
                                                [&](const QString &p) { return line.contains(p); });
            if (!line.startsWith(QLatin1String("retrylab: ")) || (!namesFile && !namesField))
                failures << name + QStringLiteral(": error line names neither the file nor a field: ") + line.left(300);
            else if (line.size() > 600)
                failures << name + QStringLiteral(": error line of %1 characters").arg(line.size());
            else if (line.contains(unsafe) || line.contains(QChar(0xfffd)))
                failures << name + QStringLiteral(": raw control character in: ") + line.left(300);
        }
    };

    QElapsedTimer total;
    total.start();
    fuzz::runInBatches(
            int(cases.size()), CaseTimeoutMs, QProcessEnvironment::systemEnvironment(),
            [&](int i) {
                return QStringList{QStringLiteral("run"), QStringLiteral("--scenario"), cases.at(i).first,
                                   QStringLiteral("--format"), QStringLiteral("json")};
            },
            [&](int i, QProcess *process) { check(process, cases.at(i).first, cases.at(i).second); });

    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    QStringList kinds;
    for (auto it = byKind.cbegin(); it != byKind.cend(); ++it)
        kinds << QStringLiteral("%1 %2/%3").arg(it.key()).arg(it.value().first).arg(it.value().second);
    qInfo("%d cases: %d refused with exit 2, %d ran to completion, in %lld ms; largest peak RSS of a case %ld KiB",
          int(cases.size()), refused, ran, total.elapsed(), long(usage.ru_maxrss));
    qInfo("refused/ran by mutation: %s", qPrintable(kinds.join(QStringLiteral(", "))));
    if (!failures.isEmpty()) {
        dir.setAutoRemove(false); // keep the files to reproduce
        QFAIL(qPrintable(QStringLiteral("%1 of %2 cases broke the contract (files kept in %3):\n")
                             .arg(failures.size())
                             .arg(cases.size())
                             .arg(dir.path())
                         + failures.mid(0, 30).join(QLatin1Char('\n'))));
    }
    QCOMPARE(refused + ran, int(cases.size()));
    QVERIFY2(refused > 0 && ran > 0, "the mutations should produce both refusals and runs");
    QVERIFY2(usage.ru_maxrss < PeakRssLimitKb, qPrintable(QString::number(usage.ru_maxrss)));
}

namespace {

// One command line of the argument fuzz: the arguments, and whether it starts the window.
struct ArgCase
{
    QString name;
    QStringList args;
    bool window = false;
};

// What a user can type that a careless echo or open() mishandles: a terminal's title escape, a
// bidi override, a 5,000-character value, a FIFO, /dev/stdin, a directory, nothing at all.
QList<QPair<QString, QString>> hostileValues(const QString &fifo, const QString &dir)
{
    return {{QStringLiteral("osc-title"), QStringLiteral("\x1b]0;pwned\x07")},
            {QStringLiteral("bidi"), QStringLiteral("a\u202eb\u2066c")},
            {QStringLiteral("c1-controls"), QStringLiteral("\u0085x\u009b2J")},
            {QStringLiteral("long"), QString(5000, QLatin1Char('v'))},
            {QStringLiteral("fifo"), fifo},
            {QStringLiteral("stdin"), QStringLiteral("/dev/stdin")},
            {QStringLiteral("directory"), dir},
            {QStringLiteral("empty"), QString()}};
}

// Every flag of the CLI's commands and of the window that takes a value, each given every hostile
// value on top of an otherwise valid command line, plus the words that are not flags at all.
QList<ArgCase> argumentCases(const QString &fifo, const QString &dir, const QString &shot)
{
    const QStringList run{QStringLiteral("run"), QStringLiteral("--scenario"), QStringLiteral("stable-key"), QStringLiteral("--format"),
                          QStringLiteral("json")};
    const QStringList sweep{QStringLiteral("sweep"), QStringLiteral("--scenario"), QStringLiteral("stable-key"), QStringLiteral("--param"),
                            QStringLiteral("network.responseLoss"), QStringLiteral("--from"), QStringLiteral("0"), QStringLiteral("--to"),
                            QStringLiteral("0.1"), QStringLiteral("--steps"), QStringLiteral("2"), QStringLiteral("--seeds"),
                            QStringLiteral("1")};
    const QStringList window{QStringLiteral("--scenario"), QStringLiteral("stable-key"), QStringLiteral("--screenshot"), shot};
    const QList<QPair<QStringList, QStringList>> flags{
        {run, {QStringLiteral("--scenario"), QStringLiteral("--seed"), QStringLiteral("--set"), QStringLiteral("--format"),
               QStringLiteral("--max-attempts")}},
        {sweep, {QStringLiteral("--scenario"), QStringLiteral("--param"), QStringLiteral("--values"), QStringLiteral("--from"),
                 QStringLiteral("--steps"), QStringLiteral("--seeds"), QStringLiteral("--metrics"), QStringLiteral("--shard"),
                 QStringLiteral("--format"), QStringLiteral("--labels"), QStringLiteral("--max-attempts"), QStringLiteral("--set")}},
        {{QStringLiteral("sweep"), QStringLiteral("--merge")}, {QString()}},
        {{QStringLiteral("compare")}, {QStringLiteral("--scenario"), QStringLiteral("--format")}},
        {{QStringLiteral("list")}, {QStringLiteral("--format")}},
        {{QStringLiteral("lessons")}, {QStringLiteral("--format"), QStringLiteral("--lesson")}},
        {{QStringLiteral("fields")}, {QString()}},
        {{}, {QStringLiteral("--lang")}},
    };
    const QList<QPair<QStringList, QStringList>> windowFlags{
        {window, {QStringLiteral("--scenario"), QStringLiteral("--lesson"), QStringLiteral("--page"), QStringLiteral("--seed"),
                  QStringLiteral("--operation"), QStringLiteral("--screenshot")}},
        {{QStringLiteral("--lesson"), QStringLiteral("timeout-is-not-failure"), QStringLiteral("--screenshot"), shot},
         {QStringLiteral("--step")}},
    };
    // Two that must run: the rule is not met by refusing everything.
    QList<ArgCase> cases{{QStringLiteral("baseline run"), run, false}, {QStringLiteral("baseline window"), window, true}};
    for (const auto &[value, text] : hostileValues(fifo, dir)) {
        for (const auto &[base, names] : flags) {
            for (const QString &flag : names) {
                // An empty flag name: the value is a positional argument.
                QStringList args = base;
                if (!flag.isEmpty())
                    args << flag;
                args << text;
                cases.append({QStringLiteral("%1 %2 %3").arg(base.value(0, QStringLiteral("-")), flag, value), args, false});
            }
        }
        for (const auto &[base, names] : windowFlags) {
            for (const QString &flag : names)
                cases.append({QStringLiteral("window %1 %2").arg(flag, value), base + QStringList{flag, text}, true});
        }
        // A command word and an option name made of the value itself.
        if (!text.isEmpty() && !text.startsWith(QLatin1Char('/'))) {
            cases.append({QStringLiteral("command %1").arg(value), {text}, false});
            cases.append({QStringLiteral("option %1").arg(value), {QStringLiteral("list"), QStringLiteral("--") + text}, false});
            cases.append({QStringLiteral("window-option %1").arg(value), {QStringLiteral("--") + text}, true});
        }
    }
    return cases;
}

} // namespace

void TestFuzz::hostileArgumentsAreRefusedOrRun()
{
    // The same rule as for files: exit 2 with short escaped lines, or exit 0 with a clean stderr,
    // in bounded time (a FIFO opened for reading would block for ever) and memory.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fifo = dir.filePath(QStringLiteral("fifo.json"));
    QCOMPARE(QProcess::execute(QStringLiteral("mkfifo"), {fifo}), 0);
    const QList<ArgCase> cases = argumentCases(fifo, dir.path(), dir.filePath(QStringLiteral("shot.png")));
    QVERIFY2(cases.size() > 200, qPrintable(QString::number(cases.size())));
    static const QRegularExpression unsafe(QStringLiteral("[\\x00-\\x08\\x0b-\\x1f\\x7f\\x{80}-\\x{9f}\\x{202a}-\\x{202e}\\x{2066}-\\x{2069}]"));
    QStringList failures;
    int refused = 0, ran = 0;
    const auto check = [&](QProcess *process, const ArgCase &c) {
        const QByteArray err = process->readAllStandardError();
        if (process->state() != QProcess::NotRunning) {
            process->kill();
            process->waitForFinished();
            failures << c.name + QStringLiteral(": still running after %1 ms").arg(2 * CaseTimeoutMs);
            return;
        }
        if (process->exitStatus() != QProcess::NormalExit) {
            failures << c.name + QStringLiteral(": crashed: ") + QString::fromUtf8(err.right(300));
            return;
        }
        if (process->exitCode() == 0) {
            ++ran;
            if (!err.isEmpty())
                failures << c.name + QStringLiteral(": exit 0 with stderr: ") + QString::fromUtf8(err.left(200)).toHtmlEscaped();
            return;
        }
        if (process->exitCode() != 2) {
            failures << c.name + QStringLiteral(": exit %1: ").arg(process->exitCode()) + QString::fromUtf8(err.left(300));
            return;
        }
        ++refused;
        QStringList lines = QString::fromUtf8(err).split(QLatin1Char('\n'));
        if (lines.last().isEmpty())
            lines.removeLast();
        if (lines.isEmpty() || lines.size() > 5)
            failures << c.name + QStringLiteral(": %1 error lines").arg(lines.size());
        for (const QString &line : std::as_const(lines)) {
            if (!line.startsWith(QLatin1String("retrylab: ")))
                failures << c.name + QStringLiteral(": a line not of ours: ") + line.left(200).toHtmlEscaped();
            else if (line.size() > 600)
                failures << c.name + QStringLiteral(": error line of %1 characters").arg(line.size());
            else if (line.contains(unsafe))
                failures << c.name + QStringLiteral(": raw control or bidi character in: ") + QString::fromLatin1(line.left(200).toUtf8().toPercentEncoding());
        }
    };
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("HOME"), dir.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    fuzz::runInBatches(
            int(cases.size()), 2 * CaseTimeoutMs, env, [&](int i) { return cases.at(i).args; },
            [&](int i, QProcess *process) { check(process, cases.at(i)); });
    qInfo("%d argument cases: %d refused with exit 2, %d ran", int(cases.size()), refused, ran);
    if (!failures.isEmpty())
        QFAIL(qPrintable(QStringLiteral("%1 of %2 cases broke the contract:\n").arg(failures.size()).arg(cases.size())
                         + failures.mid(0, 30).join(QLatin1Char('\n'))));
    QVERIFY2(refused > 0 && ran > 0, "the cases should produce both refusals and runs");
}

QTEST_GUILESS_MAIN(TestFuzz)
#include "tst_fuzz.moc"
