#include "sweep.h"
#include "scenario/schema.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QJsonValue>
#include <QRegularExpression>
#include <QVariant>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <cmath>
#include <limits>

namespace retrylab {

namespace {

// Whether a swept path takes whole numbers: the field table says (a list entry's "[2]" read as its
// "[N]"). Not the value's JSON type: a real field at a whole value (0.0) reads back as an integer,
// which once swept network.responseLoss 0..0.5 as 0, 0, 0, 0, 0, 1. A path the table does not know
// (the validation refuses it elsewhere) falls back to that type.
bool isIntegerField(const Scenario &base, const QString &param)
{
    static const QRegularExpression index(QStringLiteral("\\[\\d+\\]"));
    QString pattern = param.trimmed();
    pattern.replace(index, QStringLiteral("[N]"));
    if (const scenario::FieldSpec *spec = scenario::fieldSpec(pattern))
        return spec->type == scenario::FieldType::Integer;
    const int type = scenario::valueAt(base, param).toVariant().metaType().id();
    return type == QMetaType::LongLong || type == QMetaType::Int || type == QMetaType::ULongLong;
}

double pointValue(double from, double to, int steps, int i, bool integer)
{
    double v = steps <= 1 ? from : from + (to - from) * double(i) / double(steps - 1);
    if (i == steps - 1 && steps > 1)
        v = to; // no rounding drift at the end of the range
    return integer ? double(std::llround(v)) : v;
}

QJsonValue jsonValue(double v, bool integer)
{
    return integer ? QJsonValue(qint64(v)) : QJsonValue(v);
}

// Integer fields travel as JSON integers: beyond 2^53 a double no longer holds every integer,
// and beyond 2^63 the conversion would wrap into values nobody typed.
constexpr double MaxExactInteger = 9007199254740992.0;

// The flags of one of the two parameters, for error messages.
struct Flags
{
    const char *param;
    const char *values;
    const char *from;
    const char *to;
    const char *steps;
};
constexpr Flags Flags1{"--param", "--values", "--from", "--to", "--steps"};
constexpr Flags Flags2{"--param2", "--values2", "--from2", "--to2", "--steps2"};

// The values one parameter takes, in order.
struct Axis
{
    QString param;
    bool list = false; // from --values (else a range)
    QList<QJsonValue> json;
    QList<double> numbers; // the number, or the index for a value that is not one
    QStringList labels;
};

QString numberLabel(double v)
{
    return QString::number(v, 'g', 12);
}

Axis axisOf(const Scenario &base, const QString &param, double from, double to, int steps, const QStringList &values,
           const QStringList &names)
{
    Axis axis;
    axis.param = param.trimmed();
    axis.list = !values.isEmpty();
    if (axis.list) {
        for (qsizetype i = 0; i < values.size(); ++i) {
            const QString text = values.at(i).trimmed();
            const QJsonValue v = sweep::valueFromText(text);
            axis.json << v;
            axis.numbers << (v.isDouble() ? v.toDouble() : double(i));
            axis.labels << (i < names.size() ? names.at(i).trimmed() : sweep::valueLabel(text, v));
        }
        return axis;
    }
    const bool integer = isIntegerField(base, axis.param);
    for (int i = 0; i < steps; ++i) {
        const double v = pointValue(from, to, steps, i, integer);
        axis.json << jsonValue(v, integer);
        axis.numbers << v;
        axis.labels << numberLabel(v);
    }
    return axis;
}

Axis firstAxis(const Scenario &base, const SweepSpec &spec)
{
    return axisOf(base, spec.param, spec.from, spec.to, spec.steps, spec.values, spec.labels);
}

Axis secondAxis(const Scenario &base, const SweepSpec &spec)
{
    if (!spec.twoD()) {
        Axis none;
        none.json << QJsonValue();
        none.numbers << 0;
        none.labels << QString();
        return none;
    }
    return axisOf(base, spec.param2, spec.from2, spec.to2, spec.steps2, spec.values2, spec.labels2);
}

// "--values client.keyPlacement=body" or "--param network.responseLoss=0.25".
QString valueName(const Flags &flags, const Axis &axis, int i)
{
    return QStringLiteral("%1 %2=%3")
            .arg(QLatin1String(axis.list ? flags.values : flags.param), axis.param, axis.labels.at(i));
}

// Checks one parameter's path and range or list; true when its values can be tried.
bool checkParam(const Scenario &base, const Flags &flags, const QString &rawParam, double from, double to, int steps,
                const QStringList &values, QStringList *errors)
{
    const int before = int(errors->size());
    const QString param = rawParam.trimmed();
    const bool list = !values.isEmpty();
    if (param.isEmpty()) {
        *errors << QCoreApplication::translate("sweep", "%1: expected a scenario field path, e.g. network.responseLoss").arg(QLatin1String(flags.param));
    } else {
        const QJsonValue current = scenario::valueAt(base, param);
        if (param == QLatin1String("seed"))
            *errors << QCoreApplication::translate("sweep", "%1: the seed is varied by --seed and --seeds, not swept").arg(QLatin1String(flags.param));
        else if (current.isUndefined())
            *errors << QCoreApplication::translate("sweep", "%1: unknown scenario field \"%2\"").arg(QLatin1String(flags.param), param);
        else if (current.isObject()
                 && !(list && std::all_of(values.begin(), values.end(), [](const QString &v) {
                          return sweep::valueFromText(v.trimmed()).isObject();
                      })))
            // A group takes partial objects only: --param2 client.business.backoff --values2 '{"jitter":"full"},...'
            *errors << QCoreApplication::translate("sweep", "%1: \"%2\" is a group of fields, not one field (a group's values must be JSON "
                                      "objects, e.g. {\"jitter\":\"full\"})")
                               .arg(QLatin1String(flags.param), param);
        else if (!list && !current.isDouble())
            *errors << QCoreApplication::translate("sweep", "%1: \"%2\" is not a numeric field; give its values with %3, e.g. %3 a,b")
                               .arg(QLatin1String(flags.param), param, QLatin1String(flags.values));
    }
    if (list) {
        if (values.size() > sweep::MaxValues)
            *errors << QCoreApplication::translate("sweep", "%1: at most %2 values, got %3")
                               .arg(QLatin1String(flags.values))
                               .arg(sweep::MaxValues)
                               .arg(values.size());
        for (const QString &value : values) {
            if (value.trimmed().isEmpty()) {
                *errors << QCoreApplication::translate("sweep", "%1: an empty value (two commas in a row, or one at an end)")
                                   .arg(QLatin1String(flags.values));
                break;
            }
        }
        return int(errors->size()) == before;
    }
    if (!std::isfinite(from))
        *errors << QCoreApplication::translate("sweep", "%1: expected a finite number").arg(QLatin1String(flags.from));
    if (!std::isfinite(to))
        *errors << QCoreApplication::translate("sweep", "%1: expected a finite number").arg(QLatin1String(flags.to));
    if (std::isfinite(from) && std::isfinite(to) && !std::isfinite(to - from))
        *errors << QCoreApplication::translate("sweep", "%1/%2: the range from %3 to %4 is too wide to divide into steps")
                           .arg(QLatin1String(flags.from), QLatin1String(flags.to),
                                QString::number(from, 'g', 6), QString::number(to, 'g', 6));
    if (steps < 1 || steps > sweep::MaxValues)
        *errors << QCoreApplication::translate("sweep", "%1: expected an integer from 1 to %2, got %3")
                           .arg(QLatin1String(flags.steps))
                           .arg(sweep::MaxValues)
                           .arg(steps);
    if (int(errors->size()) != before)
        return false;
    if (isIntegerField(base, param)) {
        for (const auto &[flag, v] : {std::pair{flags.from, from}, std::pair{flags.to, to}}) {
            if (std::fabs(v) > MaxExactInteger)
                *errors << QCoreApplication::translate("sweep", "%1: %2 is out of range for the integer field %3 (beyond 2^53 either side of 0)")
                                   .arg(QLatin1String(flag), QString::number(v, 'g', 6), param);
        }
    }
    return int(errors->size()) == before;
}

// Every value of one axis applied alone to the base; each distinct complaint once, at most 5.
void checkValues(const Scenario &base, const Flags &flags, const Axis &axis, QStringList *errors)
{
    for (int i = 0; i < axis.json.size() && errors->size() < 5; ++i) {
        const ScenarioParse parsed = scenario::withValue(base, axis.param, axis.json.at(i));
        for (const QString &error : parsed.errors) {
            const QString line = QStringLiteral("%1: %2").arg(valueName(flags, axis, i), error);
            if (!errors->contains(line))
                *errors << line;
        }
    }
}

// Per metric of one run, in Metrics::flat() order; a free function so QtConcurrent can call it.
struct Outcome
{
    std::shared_ptr<const SweepCell> cell;
    Metrics metrics;
};

Outcome runOutcome(const SweepJob &job)
{
    return Outcome{job.cell, sweep::runJob(job)};
}

void fold(SweepAccumulator &accumulator, const Outcome &outcome)
{
    if (outcome.cell)
        accumulator.add(*outcome.cell, outcome.metrics);
}

// A run of startInto(): its job's place, and whether a cancel cut it short.
struct IndexedOutcome
{
    std::shared_ptr<const SweepCell> cell;
    Metrics metrics;
    qint64 index = -1;
    bool cancelled = false;
};

// The requests a run makes that the work budget counts: POST attempts and status queries.
qint64 requestsOf(const Metrics &m)
{
    return m.httpAttempts + m.queryAttempts;
}

// The pilot of a cell: its scenario with at most PilotOperations operations, and how many
// times more operations the cell has. False when the operations cannot be cut (load phases
// bring their own; more closed clients than the pilot's operations).
bool pilotScenario(const Scenario &cell, Scenario *out, double *scale)
{
    Scenario s = cell;
    const int ops = s.workload.operations();
    *scale = 1;
    if (ops > sweep::PilotOperations) {
        if (s.workload.mode == WorkloadMode::Closed && s.workload.clients <= sweep::PilotOperations)
            s.workload.opsPerClient = qMax(1, sweep::PilotOperations / qMax(1, s.workload.clients));
        else if (s.workload.mode != WorkloadMode::Closed && s.workload.phases.isEmpty())
            s.workload.orders = sweep::PilotOperations;
        else
            return false;
        *scale = double(ops) / double(qMax(1, s.workload.operations()));
    }
    *out = s;
    return true;
}

qint64 saturatedSum(qint64 a, qint64 b)
{
    return a > std::numeric_limits<qint64>::max() - b ? std::numeric_limits<qint64>::max() : a + b;
}

} // namespace

SweepStat SweepPoint::stat(const QString &metric) const
{
    for (const auto &entry : stats) {
        if (entry.first == metric)
            return entry.second;
    }
    return SweepStat{};
}

Scenario SweepJob::scenario() const
{
    Scenario s = cell ? cell->scenario : Scenario();
    s.seed = seed;
    return s;
}

void SweepAccumulator::add(const SweepCell &cell, const Metrics &metrics)
{
    const auto flat = metrics.flat();
    if (cell.point < 0)
        return;
    while (m_index.size() <= cell.point)
        m_index.append(-1);
    int &slot = m_index[cell.point];
    if (slot < 0) {
        slot = int(m_cells.size());
        Cell c;
        c.point.value = cell.value;
        c.point.label = cell.label;
        c.point.value2 = cell.value2;
        c.point.label2 = cell.label2;
        for (const auto &entry : flat)
            c.point.stats.append({entry.first, SweepStat{0, entry.second, entry.second, 0}});
        c.sums = QList<double>(flat.size(), 0.0);
        c.m2 = QList<double>(flat.size(), 0.0);
        c.means = QList<double>(flat.size(), 0.0);
        m_cells << c;
    }
    Cell &c = m_cells[slot];
    ++c.count;
    ++m_runs;
    for (qsizetype m = 0; m < flat.size() && m < c.sums.size(); ++m) {
        const double v = flat.at(m).second;
        SweepStat &stat = c.point.stats[m].second;
        c.sums[m] += v;
        stat.min = std::min(stat.min, v);
        stat.max = std::max(stat.max, v);
        // Welford: a running mean and sum of squared deviations, stable for large counts.
        const double delta = v - c.means.at(m);
        c.means[m] += delta / c.count;
        c.m2[m] += delta * (v - c.means.at(m));
    }
}

QList<SweepPoint> SweepAccumulator::completePoints(int seeds) const
{
    QList<SweepPoint> all = points();
    QList<SweepPoint> complete;
    int slot = 0;
    for (const int position : m_index) {
        if (position < 0)
            continue;
        if (m_cells.at(position).count >= seeds)
            complete << all.at(slot);
        ++slot;
    }
    return complete;
}

QList<SweepPoint> SweepAccumulator::points() const
{
    QList<SweepPoint> points;
    for (const int slot : m_index) {
        if (slot < 0)
            continue;
        const Cell &c = m_cells.at(slot);
        SweepPoint point = c.point;
        for (qsizetype m = 0; m < c.sums.size(); ++m) {
            SweepStat &stat = point.stats[m].second;
            stat.mean = c.sums.at(m) / c.count;
            stat.sd = c.count > 1 ? std::sqrt(std::max(0.0, c.m2.at(m)) / (c.count - 1)) : 0.0;
        }
        points << point;
    }
    return points;
}

namespace sweep {

SweepSpec awsFigureSpec(int seeds)
{
    SweepSpec spec;
    spec.param = QStringLiteral("workload.clients");
    spec.from = 10;
    spec.to = 190;
    spec.steps = 19;
    spec.param2 = QStringLiteral("client.business.backoff");
    spec.values2 = splitValues(QStringLiteral("{\"kind\":\"constant\",\"initialMs\":0},{\"jitter\":\"none\"},"
                                              "{\"jitter\":\"full\"},{\"jitter\":\"equal\"},{\"jitter\":\"decorrelated\"}"));
    spec.seeds = seeds;
    return spec;
}

QStringList splitValues(const QString &text)
{
    QStringList out;
    int depth = 0;
    bool inString = false;
    qsizetype start = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (inString) {
            if (c == QLatin1Char('\\'))
                ++i; // the escaped character
            else if (c == QLatin1Char('"'))
                inString = false;
        } else if (c == QLatin1Char('"')) {
            inString = true;
        } else if (c == QLatin1Char('{') || c == QLatin1Char('[')) {
            ++depth;
        } else if ((c == QLatin1Char('}') || c == QLatin1Char(']')) && depth > 0) {
            --depth;
        } else if (c == QLatin1Char(',') && depth == 0) {
            out << text.mid(start, i - start);
            start = i + 1;
        }
    }
    out << text.mid(start);
    return out;
}

QString valueLabel(const QString &text, const QJsonValue &value)
{
    if (!value.isObject())
        return text;
    QStringList parts;
    const QJsonObject o = value.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QJsonValue v = it.value();
        const QString shown = v.isString() ? v.toString()
            : v.isDouble()                 ? QString::number(v.toDouble(), 'g', 12)
            : v.isBool()                   ? (v.toBool() ? QStringLiteral("true") : QStringLiteral("false"))
                                           : QString::fromUtf8(QJsonDocument(v.isArray() ? QJsonDocument(v.toArray())
                                                                                          : QJsonDocument(v.toObject()))
                                                                   .toJson(QJsonDocument::Compact));
        parts << QStringLiteral("%1 %2").arg(it.key(), shown);
    }
    return parts.join(QStringLiteral(", "));
}

QJsonValue valueFromText(const QString &text)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray("[") + text.toUtf8() + QByteArray("]"), &parseError);
    if (parseError.error == QJsonParseError::NoError && doc.isArray() && doc.array().size() == 1)
        return doc.array().at(0);
    return QJsonValue(text);
}

QStringList validate(const Scenario &base, const SweepSpec &spec)
{
    QStringList errors;
    const bool ok1 = checkParam(base, Flags1, spec.param, spec.from, spec.to, spec.steps, spec.values, &errors);
    bool ok2 = true;
    if (spec.twoD()) {
        ok2 = checkParam(base, Flags2, spec.param2, spec.from2, spec.to2, spec.steps2, spec.values2, &errors);
        if (spec.param2.trimmed() == spec.param.trimmed()) {
            errors << QCoreApplication::translate("sweep", "--param2: \"%1\" is already --param; name another field").arg(spec.param2.trimmed());
            ok2 = false;
        }
    }
    // Seeds are base seed + i: they must not pass 2^64 - 1 and wrap around to 0.
    if (spec.seeds >= 1 && base.seed > std::numeric_limits<quint64>::max() - quint64(spec.seeds - 1))
        errors << QCoreApplication::translate("sweep", "--seed/--seeds: --seed %1 with --seeds %2 would go past the largest seed, "
                                 "18446744073709551615 (2^64 - 1), and wrap around to 0; use --seed %3 or lower")
                          .arg(base.seed)
                          .arg(spec.seeds)
                          .arg(std::numeric_limits<quint64>::max() - quint64(spec.seeds - 1));
    if (spec.seeds < 1 || spec.seeds > 10000)
        errors << QCoreApplication::translate("sweep", "--seeds: expected an integer from 1 to 10000, got %1").arg(spec.seeds);
    if (!errors.isEmpty() || !ok1 || !ok2)
        return errors;

    const QString count1 = QLatin1String(spec.values.isEmpty() ? "--steps" : "--values");
    const QString count2 = QLatin1String(spec.values2.isEmpty() ? "--steps2" : "--values2");
    const qint64 cellCount = qint64(spec.count()) * spec.count2();
    if (cellCount > MaxCells)
        errors << QCoreApplication::translate("sweep", "%1 x %2: at most %3 cells per sweep, got %4 x %5")
                          .arg(count1, count2)
                          .arg(MaxCells)
                          .arg(spec.count())
                          .arg(spec.count2());
    else if (cellCount * spec.seeds > MaxRuns)
        errors << (spec.twoD() ? QCoreApplication::translate("sweep", "%1 x %2 x --seeds: at most %3 runs per sweep, got %4 x %5 x %6 = %7; "
                                                "lower --seeds or the number of values")
                                         .arg(count1, count2)
                                         .arg(MaxRuns)
                                         .arg(spec.count())
                                         .arg(spec.count2())
                                         .arg(spec.seeds)
                                         .arg(cellCount * spec.seeds)
                               : QCoreApplication::translate("sweep", "%1 x --seeds: at most %2 runs per sweep, got %3 x %4 = %5; "
                                                "lower --seeds or %1")
                                         .arg(count1)
                                         .arg(MaxRuns)
                                         .arg(spec.count())
                                         .arg(spec.seeds)
                                         .arg(cellCount * spec.seeds));
    if (!errors.isEmpty())
        return errors;

    // Every value must make a valid scenario, alone and with every value of the other parameter.
    const Axis a1 = firstAxis(base, spec);
    checkValues(base, Flags1, a1, &errors);
    if (!spec.twoD() || !errors.isEmpty())
        return errors;
    const Axis a2 = secondAxis(base, spec);
    checkValues(base, Flags2, a2, &errors);
    if (!errors.isEmpty())
        return errors;
    for (int i = 0; i < a1.json.size() && errors.size() < 5; ++i) {
        const Scenario s1 = scenario::withValue(base, a1.param, a1.json.at(i)).scenario;
        for (int j = 0; j < a2.json.size() && errors.size() < 5; ++j) {
            const ScenarioParse parsed = scenario::withValue(s1, a2.param, a2.json.at(j));
            for (const QString &error : parsed.errors) {
                const QString line = QStringLiteral("%1 with %2: %3")
                                             .arg(valueName(Flags1, a1, i), valueName(Flags2, a2, j), error);
                if (!errors.contains(line))
                    errors << line;
            }
        }
    }
    return errors;
}

QList<SweepCell> cells(const Scenario &base, const SweepSpec &spec)
{
    QList<SweepCell> result;
    if (spec.count() < 1 || spec.count2() < 1)
        return result;
    const Axis a1 = firstAxis(base, spec);
    const Axis a2 = secondAxis(base, spec);
    result.reserve(a1.json.size() * a2.json.size());
    for (int i = 0; i < a1.json.size(); ++i) {
        // validate() has rejected bad values; if a caller skipped it, the scenario keeps its base value.
        const ScenarioParse p1 = scenario::withValue(base, a1.param, a1.json.at(i));
        const Scenario s1 = p1.ok() ? p1.scenario : base;
        for (int j = 0; j < a2.json.size(); ++j) {
            SweepCell cell;
            cell.point = int(result.size());
            cell.value = a1.numbers.at(i);
            cell.label = a1.labels.at(i);
            if (spec.twoD()) {
                cell.value2 = a2.numbers.at(j);
                cell.label2 = a2.labels.at(j);
                const ScenarioParse p2 = scenario::withValue(s1, a2.param, a2.json.at(j));
                cell.scenario = p2.ok() ? p2.scenario : s1;
            } else {
                cell.scenario = s1;
            }
            cell.scenario.seed = base.seed;
            result << cell;
        }
    }
    return result;
}

QList<SweepJob> jobs(const Scenario &base, const SweepSpec &spec, const SweepShard &shard)
{
    QList<SweepJob> result;
    if (spec.seeds < 1)
        return result;
    const QList<SweepCell> all = cells(base, spec);
    result.reserve(shard.pointsOf(int(all.size())) * spec.seeds);
    for (const SweepCell &cell : all) {
        if (!shard.contains(cell.point))
            continue;
        const auto shared = std::make_shared<const SweepCell>(cell);
        for (int i = 0; i < spec.seeds; ++i)
            result << SweepJob{shared, base.seed + quint64(i), result.size()};
    }
    return result;
}

SweepCost cost(const Scenario &base, const SweepSpec &spec, const QList<SweepJob> &jobs)
{
    Q_UNUSED(spec);
    SweepCost c;
    c.runs = jobs.size();
    // The distinct cells in job order (jobs are cell-major), and each job's cell.
    QList<const SweepCell *> cellList;
    QList<int> jobCell;
    jobCell.reserve(jobs.size());
    for (const SweepJob &job : jobs) {
        if (cellList.isEmpty() || cellList.constLast() != job.cell.get())
            cellList << job.cell.get();
        jobCell << int(cellList.size()) - 1;
    }
    const int n = int(cellList.size());
    // Requests per operation of the piloted cells (NaN: not piloted, the worst case stands).
    QList<int> piloted;
    QList<double> perOp;
    QList<qint64> exact; // the whole run's requests when the pilot was the whole run, else -1
    for (int i = 0; i < std::min(n, MaxPilotCells); ++i) {
        const int at = n <= MaxPilotCells ? i : int(std::llround(double(i) * (n - 1) / (MaxPilotCells - 1)));
        Scenario pilot;
        double scale = 1;
        piloted << at;
        if (!cellList.at(at) || !pilotScenario(cellList.at(at)->scenario, &pilot, &scale)) {
            perOp << std::numeric_limits<double>::quiet_NaN();
            exact << -1;
            continue;
        }
        pilot.seed = base.seed;
        RunOptions options;
        options.trace = false;
        const qint64 requests = requestsOf(simulate(pilot, options).metrics);
        c.pilotAttempts += requests;
        ++c.pilotRuns;
        perOp << double(requests) / double(qMax(1, pilot.workload.operations()));
        exact << (scale == 1 ? requests : -1);
    }
    // Each cell: its own pilot, else the nearest one's rate times its operations, capped by its worst case.
    QList<qint64> perCell(n, 0);
    for (int i = 0; i < n; ++i) {
        if (!cellList.at(i))
            continue;
        int nearest = 0;
        for (int p = 1; p < piloted.size(); ++p) {
            if (std::abs(piloted.at(p) - i) < std::abs(piloted.at(nearest) - i))
                nearest = p;
        }
        const qint64 worst = work::estimate(cellList.at(i)->scenario).attempts;
        const double rate = perOp.isEmpty() ? std::numeric_limits<double>::quiet_NaN() : perOp.at(nearest);
        if (!piloted.isEmpty() && piloted.at(nearest) == i && exact.at(nearest) >= 0)
            perCell[i] = exact.at(nearest);
        else if (std::isnan(rate))
            perCell[i] = worst;
        else
            perCell[i] = std::min<qint64>(worst, std::llround(rate * cellList.at(i)->scenario.workload.operations()));
    }
    c.perJob.reserve(jobs.size());
    for (const int cell : jobCell) {
        c.perJob << perCell.at(cell);
        c.expectedAttempts = saturatedSum(c.expectedAttempts, perCell.at(cell));
    }
    return c;
}

QString durationText(double seconds)
{
    if (seconds < 1)
        return QCoreApplication::translate("sweep", "under a second");
    if (seconds < 90)
        return QCoreApplication::translate("sweep", "about %1 s").arg(std::llround(seconds));
    if (seconds < 90 * 60)
        return QCoreApplication::translate("sweep", "about %1 min").arg(std::llround(seconds / 60));
    if (seconds < 48 * 3600)
        return QCoreApplication::translate("sweep", "about %1 h").arg(std::llround(seconds / 3600));
    return QCoreApplication::translate("sweep", "about %1 days").arg(std::llround(seconds / 86400));
}

QString countAtLeast(qint64 n)
{
    if (n < 1000000)
        return QString::number(n);
    // Two significant digits, rounded up so that the number given allows what it names.
    qint64 unit = 1;
    while (n / unit >= 100)
        unit *= 10;
    const qint64 mantissa = (n + unit - 1) / unit; // 10..100
    qint64 exponent = 0;
    for (qint64 u = unit; u > 1; u /= 10)
        ++exponent;
    QString digits = QString::number(mantissa);
    if (digits.size() == 3) { // 100: one more power of ten
        digits = QStringLiteral("1");
        exponent += 2;
    } else if (digits.endsWith(QLatin1Char('0'))) {
        digits.chop(1);
        exponent += 1;
    } else {
        digits.insert(1, QLatin1Char('.'));
        exponent += 1;
    }
    return QStringLiteral("%1e%2").arg(digits).arg(exponent);
}

QString costRefusal(const SweepCost &cost, qint64 limit, double attemptsPerSecond)
{
    const qint64 perRun = cost.runs > 0 ? cost.expectedAttempts / cost.runs : 0;
    QString text = QCoreApplication::translate("sweep", "this sweep is expected to make about %1 HTTP requests (%2 runs, about %3 each)")
                           .arg(work::formatCount(cost.expectedAttempts), QString::number(cost.runs), work::formatCount(perRun));
    if (attemptsPerSecond > 0)
        text += QCoreApplication::translate("sweep", ", %1 at this machine's measured rate (%2 requests/s)")
                        .arg(durationText(double(cost.expectedAttempts) / attemptsPerSecond),
                             work::formatCount(std::llround(attemptsPerSecond)));
    return text + QCoreApplication::translate("sweep", "; over the limit of %1: --max-attempts %2 to allow")
                          .arg(work::formatCount(limit), countAtLeast(cost.expectedAttempts));
}

QString progressText(qint64 done, qint64 total, double elapsedS, double doneWork, double totalWork)
{
    const int percent = total > 0 ? int(100 * done / total) : 100;
    QString text = QCoreApplication::translate("sweep", "sweep: %1/%2 runs (%3%)").arg(done).arg(total).arg(percent);
    if (doneWork > 0 && totalWork > doneWork && elapsedS > 0)
        text += QCoreApplication::translate("sweep", ", %1 left").arg(durationText(elapsedS * (totalWork - doneWork) / doneWork));
    return text;
}

bool parseShard(const QString &text, SweepShard *shard, QString *error)
{
    static const QRegularExpression form(QStringLiteral("^\\s*(\\d{1,9})\\s*/\\s*(\\d{1,9})\\s*$"));
    const QRegularExpressionMatch m = form.match(text);
    const int k = m.hasMatch() ? m.captured(1).toInt() : 0;
    const int n = m.hasMatch() ? m.captured(2).toInt() : 0;
    if (!m.hasMatch() || n < 1 || n > MaxCells || k < 1 || k > n) {
        if (error)
            *error = QCoreApplication::translate("sweep", "--shard: expected K/N, the K-th of N slices, with 1 <= K <= N <= %1 "
                                                          "(e.g. 3/8), got '%2'")
                             .arg(MaxCells)
                             .arg(scenario::printable(text));
        return false;
    }
    shard->index = k;
    shard->count = n;
    return true;
}

QFuture<SweepFolded> startInto(const QList<SweepJob> &jobs, std::shared_ptr<SweepAccumulator> into,
                       std::shared_ptr<std::atomic_bool> cancel)
{
    const auto map = [cancel](const SweepJob &job) {
        RunOptions options;
        options.trace = false;
        options.cancel = cancel.get();
        IndexedOutcome outcome{job.cell, simulate(job.scenario(), options).metrics, job.index, false};
        outcome.cancelled = cancel->load();
        return outcome;
    };
    // In job order, and only the unbroken prefix: after a cancel, runs cut short are dropped and
    // so is every run after them, so the points folded are exactly those one machine finishes first.
    const auto reduce = [into](SweepFolded &, const IndexedOutcome &outcome) {
        if (outcome.cancelled || !outcome.cell || (outcome.index >= 0 && outcome.index != into->runs()))
            return;
        into->add(*outcome.cell, outcome.metrics);
    };
    return QtConcurrent::mappedReduced<SweepFolded>(jobs, map, reduce, QtConcurrent::OrderedReduce);
}

work::Estimate estimate(const Scenario &base, const SweepSpec &spec)
{
    work::Estimate worst;
    const QList<SweepCell> all = cells(base, spec);
    const SweepCell *worstCell = nullptr;
    for (const SweepCell &cell : all) {
        const work::Estimate run = work::estimate(cell.scenario);
        if (!worstCell || run.attempts > worst.attempts) {
            worst = run;
            worstCell = &cell;
        }
    }
    if (!worstCell)
        return worst;
    QString at = QStringLiteral("%1=%2").arg(spec.param.trimmed(), worstCell->label);
    if (spec.twoD())
        at += QStringLiteral(", %1=%2").arg(spec.param2.trimmed(), worstCell->label2);
    worst.drivers = QStringLiteral("at %1: %2").arg(at, worst.drivers);
    return worst;
}

Metrics runJob(const SweepJob &job)
{
    RunOptions options;
    options.trace = false;
    return simulate(job.scenario(), options).metrics;
}

QList<SweepPoint> aggregate(const QList<SweepJob> &jobs, const QList<Metrics> &results)
{
    SweepAccumulator accumulator;
    // Results may be shorter than jobs after a cancel: only finished runs count.
    const qsizetype n = std::min(jobs.size(), results.size());
    for (qsizetype i = 0; i < n; ++i) {
        if (jobs.at(i).cell)
            accumulator.add(*jobs.at(i).cell, results.at(i));
    }
    return accumulator.points();
}

QList<SweepPoint> run(const Scenario &base, const SweepSpec &spec)
{
    const QList<SweepJob> all = jobs(base, spec);
    // Folded in job order as the runs finish: no list of every run's metrics, same numbers as
    // aggregate() over the runs one by one.
    return QtConcurrent::blockingMappedReduced<SweepAccumulator>(all, runOutcome, fold, QtConcurrent::OrderedReduce)
            .points();
}

QFuture<Metrics> start(const QList<SweepJob> &jobs)
{
    return QtConcurrent::mapped(jobs, runJob);
}

QFuture<SweepAccumulator> startFolded(const QList<SweepJob> &jobs)
{
    return QtConcurrent::mappedReduced<SweepAccumulator>(jobs, runOutcome, fold, QtConcurrent::OrderedReduce);
}

} // namespace sweep

} // namespace retrylab
