#include "live/proxydialog.h"

#include "editor/editorstyle.h"
#include "scenario/schema.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QJsonValue>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace retrylab {

namespace {

// The words beside each fault field.
QString faultLabel(const QString &path)
{
    static const QList<QPair<const char *, const char *>> labels{
        {"network.connectFailure", QT_TRANSLATE_NOOP("retrylab::ProxyDialog", "Refuse the connection")},
        {"network.requestLoss", QT_TRANSLATE_NOOP("retrylab::ProxyDialog", "Lose the request")},
        {"network.responseLoss", QT_TRANSLATE_NOOP("retrylab::ProxyDialog", "Lose the answer (after the commit)")},
        {"network.resetAfterCommit", QT_TRANSLATE_NOOP("retrylab::ProxyDialog", "Reset after the answer")},
        {"network.latencySpike", QT_TRANSLATE_NOOP("retrylab::ProxyDialog", "Hold the request")},
        {"network.spikeMs", QT_TRANSLATE_NOOP("retrylab::ProxyDialog", "Held for")},
        {"server.error5xxBeforeCommit", QT_TRANSLATE_NOOP("retrylab::ProxyDialog", "5xx instead of forwarding")},
        {"server.error5xxAfterCommit", QT_TRANSLATE_NOOP("retrylab::ProxyDialog", "5xx after the upstream answered")},
        {"server.throttle429", QT_TRANSLATE_NOOP("retrylab::ProxyDialog", "429 instead of forwarding")},
        {"server.retryAfterS", QT_TRANSLATE_NOOP("retrylab::ProxyDialog", "Retry-After of a 429")},
        {"seed", QT_TRANSLATE_NOOP("retrylab::ProxyDialog", "Seed of the dice")}};
    for (const auto &l : labels) {
        if (path == QLatin1String(l.first))
            return ProxyDialog::tr(l.second);
    }
    return path;
}

QString unitSuffix(const QString &unit)
{
    if (unit == QLatin1String("ms"))
        return ProxyDialog::tr(" ms");
    if (unit == QLatin1String("s"))
        return ProxyDialog::tr(" s");
    return QString();
}

} // namespace

QStringList ProxyDialog::faultPaths()
{
    return {QStringLiteral("network.connectFailure"),     QStringLiteral("network.requestLoss"),
            QStringLiteral("network.responseLoss"),       QStringLiteral("network.resetAfterCommit"),
            QStringLiteral("network.latencySpike"),       QStringLiteral("network.spikeMs"),
            QStringLiteral("server.error5xxBeforeCommit"), QStringLiteral("server.error5xxAfterCommit"),
            QStringLiteral("server.throttle429"),         QStringLiteral("server.retryAfterS"),
            QStringLiteral("seed")};
}

QStringList ProxyDialog::faultSummary(const Scenario &scenario)
{
    // A probability strikes when above 0; the hold and Retry-After matter only with their fault.
    const QList<QPair<const char *, const char *>> detailOf{{"network.latencySpike", "network.spikeMs"},
                                                           {"server.throttle429", "server.retryAfterS"}};
    QStringList lines;
    for (const QString &path : faultPaths()) {
        const scenario::FieldSpec *spec = scenario::fieldSpec(path);
        if (!spec || !spec->editor.percent)
            continue;
        const double p = scenario::valueAt(scenario, path).toDouble();
        if (p <= 0)
            continue;
        QString line = tr("%1: %2 %").arg(faultLabel(path), QLocale().toString(p * 100, 'g', 4));
        for (const auto &d : detailOf) {
            if (path == QLatin1String(d.first)) {
                const QString detail = QLatin1String(d.second);
                const scenario::FieldSpec *unit = scenario::fieldSpec(detail);
                line += QStringLiteral(" \u00b7 %1: %2%3").arg(faultLabel(detail), QLocale().toString(scenario::valueAt(scenario, detail).toDouble()),
                                                             unitSuffix(unit ? unit->unit : QString()));
            }
        }
        lines << line;
    }
    if (!scenario.network.script.isEmpty())
        lines << tr("%n scripted fault(s)", nullptr, int(scenario.network.script.size()));
    return lines;
}

ProxyDialog::ProxyDialog(const ProxyOptions &options, const Scenario &scenario, QWidget *parent)
    : QDialog(parent)
    , m_scenario(scenario)
{
    setObjectName(QStringLiteral("proxyDialog"));
    setWindowTitle(tr("Proxy your own service"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Puts a fault proxy in front of your HTTP service: point your client at the proxy, "
                                "and every request appears on the timeline, in the records and on the duplicates "
                                "chart, with the faults below applied on the wire."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *form = new QFormLayout;
    m_upstream = new QLineEdit(options.upstream.toString(), this);
    m_upstream->setObjectName(QStringLiteral("proxyUpstream"));
    m_upstream->setPlaceholderText(QStringLiteral("http://127.0.0.1:5000"));
    m_upstream->setToolTip(tr("Your service: http://host:port"));
    form->addRow(tr("&Upstream"), m_upstream);
    m_port = new QSpinBox(this);
    m_port->setObjectName(QStringLiteral("proxyPort"));
    m_port->setRange(1, 65535);
    m_port->setValue(options.port == 0 ? ProxyOptions::DefaultPort : options.port);
    m_port->setToolTip(tr("The TCP port the proxy listens on; your client sends its requests there"));
    form->addRow(tr("&Listen on port"), m_port);
    m_orderField = new QLineEdit(options.orderField, this);
    m_orderField->setObjectName(QStringLiteral("proxyOrderField"));
    m_orderField->setPlaceholderText(tr("none: group by Idempotency-Key"));
    m_orderField->setToolTip(tr("A field of the JSON body naming the order (\"ref\"): retries with a new key "
                                "still count as one order"));
    form->addRow(tr("&Order field"), m_orderField);
    layout->addLayout(form);
    m_anyPort = new QCheckBox(tr("If this port is in use, pick a free one"), this);
    m_anyPort->setObjectName(QStringLiteral("proxyAnyPort"));
    m_anyPort->setChecked(options.anyPortIfBusy);
    layout->addWidget(m_anyPort);

    auto *faultBox = new QGroupBox(tr("Faults (of this scenario)"), this);
    auto *faultForm = new QFormLayout(faultBox);
    for (const QString &path : faultPaths()) {
        const scenario::FieldSpec *spec = scenario::fieldSpec(path);
        auto *spin = new QDoubleSpinBox(faultBox);
        spin->setObjectName(QStringLiteral("proxyFault:%1").arg(path));
        // The field table's range, step and unit; a probability as a percentage, as the editor shows it.
        const scenario::EditorRange range = spec ? scenario::editorRange(*spec) : scenario::EditorRange{0, 1e9, false};
        const double scale = spec && spec->editor.percent ? 100 : 1;
        spin->setRange(range.minimum * scale, range.maximum * scale);
        spin->setDecimals(spec ? spec->editor.decimals : 0);
        spin->setSingleStep(spec ? spec->editor.step : 1);
        spin->setSuffix(scale == 100 ? tr(" %") : unitSuffix(spec ? spec->unit : QString()));
        spin->setValue(scenario::valueAt(scenario, path).toDouble() * scale);
        spin->setAlignment(Qt::AlignRight);
        spin->setToolTip(path);
        faultForm->addRow(faultLabel(path), spin);
        m_faults.append({path, spin});
    }
    layout->addWidget(faultBox);

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("proxyError"));
    m_error->setWordWrap(true);
    paintAsWarning(m_error);
    m_error->hide();
    layout->addWidget(m_error);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Start proxy"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ProxyDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    setMinimumWidth(460);
}

QDoubleSpinBox *ProxyDialog::faultField(const QString &path) const
{
    for (const auto &f : m_faults) {
        if (f.first == path)
            return f.second;
    }
    return nullptr;
}

ProxyOptions ProxyDialog::options() const
{
    ProxyOptions o;
    o.upstream = QUrl(m_upstream->text().trimmed());
    o.port = quint16(m_port->value());
    o.anyPortIfBusy = m_anyPort->isChecked();
    o.orderField = m_orderField->text().trimmed();
    return o;
}

Scenario ProxyDialog::faults(QStringList *errors) const
{
    Scenario s = m_scenario;
    for (const auto &f : m_faults) {
        const scenario::FieldSpec *spec = scenario::fieldSpec(f.first);
        const double scale = spec && spec->editor.percent ? 100 : 1;
        const double value = f.second->value() / scale;
        const bool integral = !spec || spec->type != scenario::FieldType::Number;
        const ScenarioParse p = scenario::withValue(s, f.first, integral ? QJsonValue(qint64(std::llround(value)))
                                                                          : QJsonValue(value));
        if (!p.ok()) {
            if (errors)
                *errors << p.errors;
            continue;
        }
        s = p.scenario;
    }
    return s;
}

void ProxyDialog::accept()
{
    const QUrl upstream = options().upstream;
    if (!upstream.isValid() || upstream.scheme() != QLatin1String("http") || upstream.host().isEmpty()) {
        showError(tr("Upstream: expected http://host:port, got \"%1\"").arg(m_upstream->text().trimmed()));
        return;
    }
    QStringList errors;
    faults(&errors);
    if (!errors.isEmpty()) {
        showError(errors.join(QLatin1Char('\n')));
        return;
    }
    QDialog::accept();
}

void ProxyDialog::showError(const QString &message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

} // namespace retrylab
