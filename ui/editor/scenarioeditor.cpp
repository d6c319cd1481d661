#include "editor/scenarioeditor.h"
#include "i18n.h"

#include "editor/editorentrytable.h"
#include "editor/editorpresetlist.h"
#include "editor/editorscripttable.h"
#include "editor/editorstyle.h"
#include "scenario/schema.h"
#include "scenariovisit.h"

#include <QAbstractScrollArea>
#include <QCheckBox>
#include <QCoreApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyleOptionComboBox>
#include <QStylePainter>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QToolBox>
#include <QHBoxLayout>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <climits>
#include <functional>

namespace retrylab {

namespace {
const char *const InvalidProperty = "invalid";
const char *const HelpProperty = "helpToolTip";
const char *const NullAtMinimumProperty = "nullAtMinimum"; // an Int or Number field whose minimum means JSON null

// The value at a dotted path (no indices: the form's paths name whole lists) of a scenario's JSON;
// undefined where there is none, like scenario::valueAt.
QJsonValue valueIn(const QJsonObject &root, const QString &path)
{
    QJsonValue node = root;
    for (const QStringView key : QStringView(path).split(QLatin1Char('.'))) {
        if (!node.isObject())
            return QJsonValue(QJsonValue::Undefined);
        const QJsonObject object = node.toObject();
        const auto it = object.constFind(key);
        if (it == object.constEnd())
            return QJsonValue(QJsonValue::Undefined);
        node = it.value();
    }
    return node;
}

// A wheel turned over a form should scroll the form, not change the value under
// the pointer: values change on the wheel only once the field has focus.
class WheelGuard : public QObject
{
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() != QEvent::Wheel)
            return false;
        auto *widget = qobject_cast<QWidget *>(watched);
        if (!widget || widget->hasFocus())
            return false;
        for (QWidget *p = widget->parentWidget(); p; p = p->parentWidget()) {
            if (auto *area = qobject_cast<QAbstractScrollArea *>(p)) {
                QCoreApplication::sendEvent(area->verticalScrollBar(), event);
                break;
            }
        }
        return true;
    }
};

// Runs a callback when the watched widget loses focus (a text edit has no editingFinished).
class FocusOutFilter : public QObject
{
public:
    FocusOutFilter(QObject *parent, std::function<void()> callback)
        : QObject(parent), m_callback(std::move(callback))
    {
    }

protected:
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::FocusOut)
            m_callback();
        return false;
    }

private:
    std::function<void()> m_callback;
};

// A click on the text next to a check box toggles it, as a click on QCheckBox's own text does.
class ToggleOnClick : public QObject
{
public:
    ToggleOnClick(QObject *parent, QCheckBox *check)
        : QObject(parent), m_check(check)
    {
    }

protected:
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::MouseButtonRelease && m_check->isEnabled()) {
            m_check->setFocus(Qt::MouseFocusReason);
            m_check->toggle();
            return true;
        }
        return false;
    }

private:
    QCheckBox *m_check;
};

// A choice box as wide as its longest choice where there is room. The form moves a long one under
// its label; in a dock narrower still (a lesson beside it at 1280 pixels) it shrinks to about
// ChoiceBox::MinChars characters and ends its text with "…" rather than push the form into
// scrolling sideways. Its list still opens at full width.
class ChoiceBox : public QComboBox
{
public:
    static constexpr int MinChars = 18;
    using QComboBox::QComboBox;
    QSize minimumSizeHint() const override
    {
        QSize least = sizeHint();
        const int chars = fontMetrics().averageCharWidth() * MinChars;
        QStyleOptionComboBox opt;
        initStyleOption(&opt);
        const int frame = least.width() - style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, this).width();
        least.setWidth(qMin(least.width(), chars + qMax(0, frame)));
        return least;
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        // QComboBox's own painting, with the current text cut to the field.
        QStylePainter p(this);
        QStyleOptionComboBox opt;
        initStyleOption(&opt);
        p.drawComplexControl(QStyle::CC_ComboBox, opt);
        const QRect field = style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, this);
        const int icon = opt.currentIcon.isNull() ? 0 : opt.iconSize.width() + 4;
        opt.currentText = fontMetrics().elidedText(opt.currentText, Qt::ElideRight, qMax(0, field.width() - icon - 2));
        p.drawControl(QStyle::CE_ComboBoxLabel, opt);
    }
};

// A check box whose text wraps: the box and a word-wrapped label. Its size hint is the
// one-line size; the height for a narrower width comes from the label.
class WrappingCheckRow : public QWidget
{
public:
    WrappingCheckRow(QCheckBox *check, QLabel *label)
        : m_check(check), m_label(label)
    {
        auto *layout = new QHBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(check, 0, Qt::AlignTop);
        layout->addWidget(label, 1);
        label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
        policy.setHeightForWidth(true);
        setSizePolicy(policy);
    }

    QSize sizeHint() const override
    {
        const QSize text = m_label->fontMetrics().size(0, m_label->text());
        return QSize(gap() + text.width(), std::max(m_check->sizeHint().height(), text.height()));
    }
    QSize minimumSizeHint() const override
    {
        // About one word per line at the narrowest.
        return QSize(gap() + m_label->fontMetrics().horizontalAdvance(QLatin1Char('M')) * 8,
                     m_check->sizeHint().height());
    }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override
    {
        return std::max(m_check->sizeHint().height(), m_label->heightForWidth(std::max(1, width - gap())));
    }

private:
    int gap() const { return m_check->sizeHint().width() + layout()->spacing(); }

    QCheckBox *m_check;
    QLabel *m_label;
};

// "The ghost request: a @retry wrapper..." -> "The ghost request"
QString headline(const Scenario &s)
{
    if (s.title.isEmpty())
        return s.name;
    // Chinese titles use the full-width colon.
    const QString title = i18n::content(s.title);
    const int colon = title.indexOf(QRegularExpression(QStringLiteral("[:\uFF1A]")));
    return colon > 0 ? title.left(colon) : title;
}

// The field table's entry for a form field: its type, bounds, unit and choices.
const scenario::FieldSpec &specOf(const QString &path)
{
    const scenario::FieldSpec *spec = scenario::fieldSpec(path);
    if (!spec)
        qFatal("ScenarioEditor: %s is not a path of the field table", qPrintable(path));
    return *spec;
}

// "server.idempotency.mode: expected one of ..., got x" -> "expected one of ..., got x"
QString reasonFor(const QString &path, const QStringList &errors)
{
    QStringList reasons;
    for (const QString &e : errors) {
        if (e.startsWith(path + QLatin1Char(':')))
            reasons << e.mid(path.size() + 1).trimmed();
        else if (e.startsWith(path + QLatin1Char('[')) || e.startsWith(path + QLatin1Char('.')))
            reasons << e.mid(path.size()).trimmed();
        else
            reasons << e;
    }
    return reasons.join(QLatin1Char('\n'));
}
} // namespace

ScenarioEditor::ScenarioEditor(QWidget *parent)
    : QWidget(parent)
    , m_presets(new PresetList(this))
    , m_sections(new QToolBox(this))
    , m_tabs(new QTabWidget(this))
    , m_errorLabel(new QLabel(this))
    , m_modifiedBanner(new QLabel(this))
    , m_title(new QLineEdit(this))
    , m_description(new QPlainTextEdit(this))
    , m_textTimer(new QTimer(this))
{
    m_presets->setObjectName(QStringLiteral("presetList"));
    m_sections->setObjectName(QStringLiteral("scenarioSections"));
    connect(m_presets, &PresetList::presetActivated, this, &ScenarioEditor::presetActivated);

    addPage(buildAboutPage(), tr("Title and description"));
    addPage(buildWorkloadPage(), tr("Workload"));
    addPage(buildClientPage(), tr("Client and retry layers"));
    addPage(buildNetworkPage(), tr("Network faults"));
    addPage(buildServerPage(), tr("Server"));
    addPage(buildReconciliationPage(), tr("Reconciliation"));
    m_sections->setCurrentIndex(2); // the retry layers: where most lessons are changed

    m_errorLabel->setObjectName(QStringLiteral("editorError"));
    m_errorLabel->setWordWrap(true);
    m_errorLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_errorLabel->hide();

    m_modifiedBanner->setObjectName(QStringLiteral("scenarioModified"));
    m_modifiedBanner->setWordWrap(true);
    m_modifiedBanner->setTextFormat(Qt::RichText);
    m_modifiedBanner->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    m_modifiedBanner->setContentsMargins(4, 2, 4, 2);
    m_modifiedBanner->hide();
    connect(m_modifiedBanner, &QLabel::linkActivated, this, &ScenarioEditor::showAboutPage);

    // Two tabs rather than a splitter: at 1280x720 both the lesson list and the
    // form need the full height of the dock to be readable.
    m_tabs->setObjectName(QStringLiteral("editorTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_presets, tr("Presets"));
    m_tabs->addTab(m_sections, tr("Settings"));
    m_tabs->setTabToolTip(0, tr("Lessons: each preset sets up one experiment"));
    m_tabs->setTabToolTip(1, tr("Every key of the scenario, grouped"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_modifiedBanner);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_errorLabel);

    setScenario(Scenario());
}

void ScenarioEditor::addPage(QWidget *content, const QString &title)
{
    // Narrow margins: the dock is often only ~350 px wide and every pixel goes to the fields.
    if (content->layout())
        content->layout()->setContentsMargins(4, 4, 4, 4);
    auto *scroll = new QScrollArea(m_sections);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(content);
    // Keep the page's own background: it follows the system palette.
    scroll->viewport()->setAutoFillBackground(false);
    content->setAutoFillBackground(false);
    m_sections->addItem(scroll, title);
}

QWidget *ScenarioEditor::buildAboutPage()
{
    auto *page = new QWidget;
    auto *form = new QFormLayout(page);
    form->setRowWrapPolicy(QFormLayout::WrapAllRows);
    m_title->setObjectName(QStringLiteral("scenarioTitle"));
    m_title->setClearButtonEnabled(true);
    m_title->setToolTip(tr("Shown in the preset list, the window title, saved files and exported images."));
    m_description->setObjectName(QStringLiteral("scenarioDescription"));
    m_description->setTabChangesFocus(true);
    m_description->setMinimumHeight(fontMetrics().lineSpacing() * 8);
    m_description->setToolTip(tr("What this scenario shows. Rewrite it when the settings tell another story."));
    form->addRow(tr("&Title"), m_title);
    form->addRow(tr("&Description"), m_description);

    // Text commits after a pause in typing, on Return and when the field is left.
    m_textTimer->setSingleShot(true);
    m_textTimer->setInterval(400);
    connect(m_textTimer, &QTimer::timeout, this, &ScenarioEditor::commitText);
    connect(m_title, &QLineEdit::textEdited, m_textTimer, qOverload<>(&QTimer::start));
    connect(m_title, &QLineEdit::editingFinished, this, &ScenarioEditor::commitText);
    connect(m_description, &QPlainTextEdit::textChanged, m_textTimer, qOverload<>(&QTimer::start));
    m_descriptionFocusFilter = new FocusOutFilter(m_description, [this] { commitText(); });
    m_description->installEventFilter(m_descriptionFocusFilter);
    return page;
}

QWidget *ScenarioEditor::buildWorkloadPage()
{
    auto *page = new QWidget;
    auto *layout = new QVBoxLayout(page);
    auto *form = new QFormLayout;
    const auto open = [](const Scenario &s) { return s.workload.mode == WorkloadMode::Open; };
    const auto closed = [](const Scenario &s) { return s.workload.mode == WorkloadMode::Closed; };
    const QHash<QString, QString> modeLabels{
        {QStringLiteral("open"), tr("Open: orders arrive on a schedule")},
        {QStringLiteral("closed"), tr("Closed: clients wait for answers")},
    };
    addRow(form, tr("Load model"), choiceField(QStringLiteral("workload.mode"), modeLabels),
           tr("Open: orders arrive whatever the server does. Closed: each client sends its next operation only "
              "after the last one ended, so a slow server slows the arrivals."));
    const QHash<QString, QString> arrivalLabels{
        {QStringLiteral("fixed"), tr("Evenly spaced")},
        {QStringLiteral("poisson"), tr("Poisson: random gaps")},
    };
    QWidget *arrivals = choiceField(QStringLiteral("workload.arrivals"), arrivalLabels);
    addRow(form, tr("Arrivals"), arrivals, tr("Open load: orders evenly spaced, or a Poisson process."));
    showWhen(form, arrivals, open);
    QWidget *orders = intField(QStringLiteral("workload.orders"));
    addRow(form, tr("Orders"), orders, tr("Logical operations: orders the user means to place once each."));
    showWhen(form, orders, open);
    QWidget *between = intField(QStringLiteral("workload.interArrivalMs"));
    addRow(form, tr("Between orders"), between,
           tr("Open load: the time between two orders of one client. Closed load, clients not starting "
              "together: client i starts at i x this / clients."));
    showWhen(form, between, [](const Scenario &s) {
        return s.workload.mode == WorkloadMode::Open || !s.workload.startTogether;
    });
    addRow(form, tr("Clients"), intField(QStringLiteral("workload.clients")),
           tr("Independent clients sending orders at the same time."));
    QWidget *ops = intField(QStringLiteral("workload.opsPerClient"));
    addRow(form, tr("Orders per client"), ops, tr("Closed load: each client places this many orders, one after another."));
    showWhen(form, ops, closed);
    QWidget *think = intField(QStringLiteral("workload.thinkTimeMs"));
    addRow(form, tr("Think time"), think, tr("Closed load: the pause between an order's end and the client's next one."));
    showWhen(form, think, closed);
    QWidget *together = boolField(QStringLiteral("workload.startTogether"), tr("All clients start at 0 s"));
    addRow(form, QString(), together,
           tr("Closed load: every client starts at once (the AWS study), or they start spread out."));
    showWhen(form, together, closed);
    addRow(form, tr("Double submits"), numberField(QStringLiteral("workload.doubleSubmitRate")),
           tr("Share of orders submitted twice, e.g. a double click."));
    addRow(form, tr("Double-submit delay"),
           intField(QStringLiteral("workload.doubleSubmitDelayMs")));
    addRow(form, tr("Seed"), intField(QStringLiteral("seed")),
           tr("Same scenario and seed give the same run, event for event."));
    layout->addLayout(form);

    auto *phasesBox = new QGroupBox(tr("Load phases"), page);
    phasesBox->setObjectName(QStringLiteral("workloadPhasesBox"));
    phasesBox->setToolTip(tr("Open load that changes over time: from one second to another, orders arrive at "
                             "this rate instead. Phases must not overlap."));
    auto *phasesLayout = new QVBoxLayout(phasesBox);
    const QList<EntryColumn> phaseColumns{
        {QStringLiteral("fromS"), tr("From s"), tr("Start of the phase, in seconds"), {}, QStringLiteral("99999")},
        {QStringLiteral("toS"), tr("To s"), tr("End of the phase, in seconds (after its start)"), {},
         QStringLiteral("99999")},
        {QStringLiteral("ratePerS"), tr("Orders/s"), tr("Orders arriving per second during the phase"), {}, QString()},
    };
    phasesLayout->addWidget(entryTableField(QStringLiteral("workload.phases"), phaseColumns,
                                            {QStringLiteral("0"), QStringLiteral("10"), QStringLiteral("10")},
                                            tr("Add phase")));
    layout->addWidget(phasesBox);
    showWhen(nullptr, phasesBox, open);
    layout->addStretch(1);
    return page;
}

QGroupBox *ScenarioEditor::buildLayerGroup(const QString &layer, const QString &title, const QString &help)
{
    const QString p = QStringLiteral("client.%1.").arg(layer);
    QGroupBox *box = groupField(p + QStringLiteral("enabled"), title);
    box->setToolTip(help);
    box->setProperty(HelpProperty, help);
    auto *form = new QFormLayout(box);
    const QHash<QString, QString> kindLabels{
        {QStringLiteral("constant"), tr("Constant")},
        {QStringLiteral("linear"), tr("Linear")},
        {QStringLiteral("exponential"), tr("Exponential")},
        {QStringLiteral("awsExponential"), tr("AWS exponential: first x mult^n")},
    };
    const QHash<QString, QString> jitterLabels{
        {QStringLiteral("none"), tr("None")},
        {QStringLiteral("full"), tr("Full: U(0, wait)")},
        {QStringLiteral("equal"), tr("Equal: wait/2 + U(0, wait/2)")},
        {QStringLiteral("awsDecorrelated"), tr("Decorrelated")},
        {QStringLiteral("proportional"), tr("Proportional: wait \u00b1 x%")},
    };
    auto *attempts = qobject_cast<QSpinBox *>(intField(p + QStringLiteral("maxAttempts")));
    attempts->setSpecialValueText(tr("unlimited"));
    addRow(form, tr("Max attempts"), attempts,
           tr("Unlimited (tenacity stop_never) retries until the deadline below, which it then needs."));
    addRow(form, tr("Backoff"),
           choiceField(p + QStringLiteral("backoff.kind"), kindLabels));
    addRow(form, tr("First wait"), intField(p + QStringLiteral("backoff.initialMs")));
    addRow(form, tr("Multiplier"), numberField(p + QStringLiteral("backoff.multiplier")));
    addRow(form, tr("Max wait"), intField(p + QStringLiteral("backoff.maxMs")));
    addRow(form, tr("Jitter"), choiceField(p + QStringLiteral("backoff.jitter"), jitterLabels));
    addRow(form, tr("Jitter \u00b1"), intField(p + QStringLiteral("backoff.jitterPercent")),
           tr("With proportional jitter: each wait varies by up to this share either way."));
    addRow(form, tr("Min wait"), intField(p + QStringLiteral("backoff.minMs")),
           tr("The shortest wait, after the cap and the jitter (tenacity's min); full jitter then draws "
              "between it and the wait, as wait_random_exponential does."));
    auto *deadline = qobject_cast<QSpinBox *>(intField(p + QStringLiteral("deadlineMs")));
    deadline->setSpecialValueText(tr("none"));
    addRow(form, tr("Deadline"), deadline, tr("Overall time budget of this layer; 0 = none."));
    return box;
}

QGroupBox *ScenarioEditor::buildTransportGroup()
{
    QGroupBox *box = groupField(QStringLiteral("client.transport.enabled"), tr("Transport (urllib3 Retry)"));
    const QString help = tr("Retries inside the HTTP session: connect errors always; read timeouts and "
                            "listed statuses only for the allowed methods (POST is not allowed by default).");
    box->setToolTip(help);
    box->setProperty(HelpProperty, help);
    auto *form = new QFormLayout(box);
    // A counter spin box whose lowest value is urllib3's None: "unlimited", read back as null.
    const auto counter = [this](const QString &path) {
        auto *spin = qobject_cast<QSpinBox *>(intField(path));
        spin->setSpecialValueText(tr("unlimited"));
        return spin;
    };
    addRow(form, tr("Total retries"), counter(QStringLiteral("client.transport.total")),
           tr("urllib3 total. Unlimited (None) needs the connect, read and status counters set."));
    addRow(form, tr("Connect retries"), counter(QStringLiteral("client.transport.connect")),
           tr("urllib3 connect: retries after connection errors; each also counts against the total."));
    addRow(form, tr("Read retries"), counter(QStringLiteral("client.transport.read")),
           tr("urllib3 read: retries after read timeouts and resets (allowed methods only)."));
    addRow(form, tr("Status retries"), counter(QStringLiteral("client.transport.status")),
           tr("urllib3 status: retries after a forcelisted or Retry-After status."));
    addRow(form, tr("Other retries"), counter(QStringLiteral("client.transport.other")),
           tr("urllib3 other: other errors. The simulation raises none, so this counter never runs out."));
    addRow(form, tr("Backoff factor"), numberField(QStringLiteral("client.transport.backoffFactor")),
           tr("Wait factor x 2^(n-1) seconds; the first retry is immediate."));
    addRow(form, tr("Backoff cap"), numberField(QStringLiteral("client.transport.backoffMaxS")),
           tr("urllib3 backoff_max: no backoff wait is longer (the jitter included)."));
    addRow(form, tr("Backoff jitter"), numberField(QStringLiteral("client.transport.backoffJitter")),
           tr("urllib3 backoff_jitter: a random 0 to this many seconds added to each backoff after the first retry."));
    addRow(form, tr("Status forcelist"), statusListField(QStringLiteral("client.transport.statusForcelist")),
           tr("Comma-separated HTTP statuses to retry, e.g. 500,502,503,504."));
    addRow(form, tr("Allowed methods"), methodsField(QStringLiteral("client.transport.allowedMethods")),
           tr("None ticked means allowed_methods=None: every method, POST included."));
    addRow(form, QString(),
           boolField(QStringLiteral("client.transport.respectRetryAfter"), tr("Honour Retry-After")));
    addRow(form, tr("Retry-After cap"),
           intField(QStringLiteral("client.transport.retryAfterMaxS")),
           tr("urllib3 retry_after_max: longest Retry-After wait. A Retry-After of 0 waits the backoff instead; "
              "a negative or unreadable one counts as absent (urllib3 raises InvalidHeader there)."));
    addRow(form, QString(),
           boolField(QStringLiteral("client.transport.raiseOnStatus"),
                     tr("Raise when the status retries run out (raise_on_status)")));
    if (auto *raise = field(QStringLiteral("client.transport.raiseOnStatus")))
        raise->setToolTip(tr("On: the layer above sees MaxRetryError, without the response or its Retry-After. "
                             "Off: it gets the last response."));
    return box;
}

QWidget *ScenarioEditor::buildClientPage()
{
    auto *page = new QWidget;
    auto *layout = new QVBoxLayout(page);

    auto *general = new QFormLayout;
    const QHash<QString, QString> keyLabels{
        {QStringLiteral("none"), tr("None: no Idempotency-Key")},
        {QStringLiteral("perOperation"), tr("Per operation (before all retries)")},
        {QStringLiteral("perBusinessAttempt"), tr("Per business attempt")},
        {QStringLiteral("perWrapperAttempt"), tr("Per wrapper attempt (inside @retry)")},
    };
    addRow(general, tr("Idempotency key"),
           choiceField(QStringLiteral("client.keyPlacement"), keyLabels),
           tr("Where the client mints the Idempotency-Key. Only a key minted once per operation "
              "is carried by every retry of every layer."));
    addRow(general, tr("Timeout"), intField(QStringLiteral("client.timeoutMs")),
           tr("Read timeout per HTTP attempt. A timeout is not a failure: the server may have committed."));
    addRow(general, tr("Connection refused after"),
           intField(QStringLiteral("client.connectFailMs")),
           tr("How long the client waits before it learns that a connection was refused (the connect-failure "
              "fault). Nothing reached the server, so such an attempt is always safe to retry."));
    addRow(general, QString(), boolField(QStringLiteral("client.requestId"), tr("Send X-Request-ID")));
    addRow(general, QString(),
           boolField(QStringLiteral("client.queryBeforeRetry"), tr("Query status before retrying")));
    const QHash<QString, QString> unknownLabels{
        {QStringLiteral("fail"), tr("Fail the attempt")},
        {QStringLiteral("resend"), tr("Send again")},
    };
    addRow(general, tr("Unanswered query"),
           choiceField(QStringLiteral("client.onUnknownQuery"), unknownLabels),
           tr("When GET /orders?ref= gets no answer, even after the transport's retries, the order's fate is "
              "unknown. Failing the business attempt is safe; sending the order again may create a duplicate."));
    addRow(general, QString(),
           boolField(QStringLiteral("client.mutatePayloadOnRetry"), tr("Change the payload on retry")));
    layout->addLayout(general);

    QGroupBox *business = buildLayerGroup(
        QStringLiteral("business"), tr("Business loop"),
        tr("Hand-written retry loop in application code: retries timeouts, 5xx, 429 and 409, never 400/422."));
    auto *businessForm = qobject_cast<QFormLayout *>(business->layout());
    addRow(businessForm, QString(),
           boolField(QStringLiteral("client.businessRespectRetryAfter"), tr("Honour Retry-After")));
    layout->addWidget(business);

    QGroupBox *wrapper = buildLayerGroup(
        QStringLiteral("wrapper"), tr("Wrapper (@retry decorator)"),
        tr("A retry decorator around the whole send method, including building the request."));
    const QHash<QString, QString> retryOnLabels{
        {QStringLiteral("any"), tr("Any exception")},
        {QStringLiteral("transient"), tr("Transient errors only")},
    };
    auto *wrapperForm = qobject_cast<QFormLayout *>(wrapper->layout());
    addRow(wrapperForm, tr("Retry on"),
           choiceField(QStringLiteral("client.wrapperRetryOn"), retryOnLabels));
    layout->addWidget(wrapper);

    layout->addWidget(buildTransportGroup());

    QGroupBox *budget = groupField(QStringLiteral("client.retryBudget.enabled"), tr("Retry budget"));
    const QString budgetHelp = tr("Token bucket: each success deposits the ratio, each retry costs one token.");
    budget->setToolTip(budgetHelp);
    budget->setProperty(HelpProperty, budgetHelp);
    auto *budgetForm = new QFormLayout(budget);
    const auto budgetOn = [](const Scenario &s) { return s.client.retryBudget.enabled; };
    const QHash<QString, QString> scopeLabels{
        {QStringLiteral("perClient"), tr("Per client")},
        {QStringLiteral("global"), tr("Global: one for all clients")},
    };
    QWidget *scope = choiceField(QStringLiteral("client.retryBudget.scope"), scopeLabels);
    addRow(budgetForm, tr("Bucket"), scope,
           tr("Each client's own bucket, or one bucket that every client's retries spend (a server-side budget)."));
    QWidget *ratio = numberField(QStringLiteral("client.retryBudget.ratio"));
    addRow(budgetForm, tr("Ratio"), ratio);
    QWidget *maxTokens = numberField(QStringLiteral("client.retryBudget.maxTokens"));
    addRow(budgetForm, tr("Max tokens"), maxTokens);
    auto *initial = qobject_cast<QDoubleSpinBox *>(numberField(QStringLiteral("client.retryBudget.initialTokens")));
    initial->setSpecialValueText(tr("full"));
    addRow(budgetForm, tr("Tokens at start"), initial,
           tr("The tokens in the bucket at 0 s. Full: as many as max tokens."));
    const QHash<QString, QString> budgetKinds{
        {QStringLiteral("tokenPerRetry"), tr("A token per retry")},
        {QStringLiteral("grpcThrottling"), tr("gRPC retry throttling")},
        {QStringLiteral("percent"), tr("Percent of requests (Finagle)")},
    };
    QWidget *kind = choiceField(QStringLiteral("client.retryBudget.kind"), budgetKinds);
    addRow(budgetForm, tr("Design"), kind,
           tr("gRPC: each failure takes a token, each success adds the ratio, retries only above half of max "
              "tokens. Finagle: a share of the requests may be retried, plus a reserve per second."));
    QWidget *percent = numberField(QStringLiteral("client.retryBudget.percentCanRetry"));
    addRow(budgetForm, tr("Retryable share"), percent);
    QWidget *reserve = intField(QStringLiteral("client.retryBudget.minRetriesPerSec"));
    addRow(budgetForm, tr("Reserve per second"), reserve);
    QWidget *ttl = intField(QStringLiteral("client.retryBudget.ttlS"));
    addRow(budgetForm, tr("Window"), ttl);
    for (QWidget *row : {scope, ratio, maxTokens, static_cast<QWidget *>(initial), kind})
        showWhen(budgetForm, row, budgetOn);
    for (QWidget *row : {percent, reserve, ttl})
        showWhen(budgetForm, row, [](const Scenario &s) {
            return s.client.retryBudget.enabled && s.client.retryBudget.kind == BudgetKind::Percent;
        });
    layout->addWidget(budget);

    QGroupBox *breaker = groupField(QStringLiteral("client.circuitBreaker.enabled"), tr("Circuit breaker"));
    const QString breakerHelp = tr("Fails fast when too many attempts failed, then probes again.");
    breaker->setToolTip(breakerHelp);
    breaker->setProperty(HelpProperty, breakerHelp);
    auto *breakerForm = new QFormLayout(breaker);
    const auto breakerOn = [](const Scenario &s) { return s.client.circuitBreaker.enabled; };
    const QHash<QString, QString> breakerLabels{
        {QStringLiteral("consecutive"), tr("Failures in a row")},
        {QStringLiteral("failureRate"), tr("Failure rate in a window")},
    };
    QWidget *breakerMode = choiceField(QStringLiteral("client.circuitBreaker.mode"), breakerLabels);
    addRow(breakerForm, tr("Opens on"), breakerMode,
           tr("Failures in a row: after so many consecutive failures. Failure rate: when, of the last attempts "
              "(the window full), at least the given share failed."));
    showWhen(breakerForm, breakerMode, breakerOn);
    QWidget *threshold = intField(QStringLiteral("client.circuitBreaker.failureThreshold"));
    addRow(breakerForm, tr("Failures to open"), threshold);
    showWhen(breakerForm, threshold, [](const Scenario &s) {
        return s.client.circuitBreaker.enabled && s.client.circuitBreaker.mode == BreakerMode::Consecutive;
    });
    const auto rateMode = [](const Scenario &s) {
        return s.client.circuitBreaker.enabled && s.client.circuitBreaker.mode == BreakerMode::FailureRate;
    };
    QWidget *window = intField(QStringLiteral("client.circuitBreaker.window"));
    addRow(breakerForm, tr("Window"), window, tr("The last attempts the failure rate is measured over."));
    showWhen(breakerForm, window, rateMode);
    QWidget *rate = intField(QStringLiteral("client.circuitBreaker.failureRatePercent"));
    addRow(breakerForm, tr("Failure rate"), rate, tr("Opens when at least this share of the window failed."));
    showWhen(breakerForm, rate, rateMode);
    QWidget *openFor = intField(QStringLiteral("client.circuitBreaker.openMs"));
    addRow(breakerForm, tr("Open for"), openFor);
    showWhen(breakerForm, openFor, breakerOn);
    QWidget *retriesOnly = boolField(QStringLiteral("client.circuitBreaker.retriesOnly"),
                                     tr("Open: block retries only, let first tries through"));
    addRow(breakerForm, QString(), retriesOnly);
    showWhen(breakerForm, retriesOnly, breakerOn);
    QWidget *probes = intField(QStringLiteral("client.circuitBreaker.halfOpenCalls"));
    addRow(breakerForm, tr("Half-open calls"), probes,
           tr("Calls let through once the open time is over; their outcome closes or reopens it. "
              "0: one (Polly) for failures in a row, ten (resilience4j) for a failure rate."));
    showWhen(breakerForm, probes, breakerOn);
    layout->addWidget(breaker);
    layout->addStretch(1);
    return page;
}

QWidget *ScenarioEditor::buildNetworkPage()
{
    auto *page = new QWidget;
    auto *layout = new QVBoxLayout(page);
    auto *form = new QFormLayout;
    addDistributionRows(form, QStringLiteral("network.latencyMs"), tr("Latency"),
                        [](const Scenario &s) { return s.network.latencyMs.shape; });
    addRow(form, tr("Connect failure"), numberField(QStringLiteral("network.connectFailure")),
           tr("Refused before anything is sent: always safe to retry."));
    addRow(form, tr("Request lost"), numberField(QStringLiteral("network.requestLoss")),
           tr("The request vanishes; the server never sees it."));
    addRow(form, tr("Response lost"), numberField(QStringLiteral("network.responseLoss")),
           tr("The server committed; the response vanishes and the client times out."));
    addRow(form, tr("Reset after commit"), numberField(QStringLiteral("network.resetAfterCommit")),
           tr("The server committed; the connection is reset."));
    addRow(form, tr("Latency spike"), numberField(QStringLiteral("network.latencySpike")),
           tr("The request arrives after the client gave up: the ghost request."));
    addRow(form, tr("Spike delay"), intField(QStringLiteral("network.spikeMs")));
    layout->addLayout(form);

    auto *scriptBox = new QGroupBox(tr("Scripted faults"), page);
    scriptBox->setToolTip(tr("Force a fault on exact attempts, e.g. lose the response of op 1, attempt b1/w1/t1."));
    auto *scriptLayout = new QVBoxLayout(scriptBox);
    scriptLayout->addWidget(scriptField(QStringLiteral("network.script")));
    layout->addWidget(scriptBox);

    auto *windowsBox = new QGroupBox(tr("Fault windows"), page);
    windowsBox->setObjectName(QStringLiteral("windowsBox"));
    windowsBox->setToolTip(tr("A fault with its own probability for a period: an outage, a burst of lost responses, "
                              "a latency spike from one second to another. Windows of one fault must not overlap."));
    auto *windowsLayout = new QVBoxLayout(windowsBox);
    // The table's faults of a window: all but serverRestart, which is scheduled on the Server page.
    const QStringList windowFaults = specOf(QStringLiteral("windows[N].fault")).choices;
    const QList<EntryColumn> windowColumns{
        {QStringLiteral("fromS"), tr("From"), tr("Start of the window, in seconds"), {}, QStringLiteral("999.9")},
        {QStringLiteral("toS"), tr("To"), tr("End of the window, in seconds (after its start)"), {},
         QStringLiteral("999.9")},
        {QStringLiteral("fault"), tr("Fault"), tr("The fault whose probability the window sets; double-click to choose"),
         windowFaults, QString()},
        {QStringLiteral("probability"), tr("Prob."), tr("The fault's probability in the window, from 0 to 1"), {},
         QStringLiteral("0.25")},
    };
    windowsLayout->addWidget(entryTableField(QStringLiteral("windows"), windowColumns,
                                             {QStringLiteral("0"), QStringLiteral("10"),
                                              scenario::toString(FaultKind::ConnectFailure), QStringLiteral("1")},
                                             tr("Add window")));
    layout->addWidget(windowsBox);
    layout->addStretch(1);
    return page;
}

QWidget *ScenarioEditor::buildServerPage()
{
    auto *page = new QWidget;
    auto *layout = new QVBoxLayout(page);

    auto *modelBox = new QGroupBox(tr("Service"), page);
    auto *modelForm = new QFormLayout(modelBox);
    const QHash<QString, QString> modelLabels{
        {QStringLiteral("orders"), tr("Orders: each POST inserts")},
        {QStringLiteral("occ"), tr("OCC: versioned writes")},
    };
    addRow(modelForm, tr("Model"), choiceField(QStringLiteral("server.model"), modelLabels),
           tr("Orders: each POST creates an order (the idempotency lessons). OCC (optimistic concurrency, the AWS "
              "backoff study): each attempt reads a row's version and writes with it; a write after another "
              "client's write is a version conflict (409) for the retry layers."));
    QWidget *rows = intField(QStringLiteral("server.occ.rows"));
    addRow(modelForm, tr("Rows"), rows, tr("OCC: the rows the clients write; each operation picks one at random."));
    showWhen(modelForm, rows, [](const Scenario &s) { return s.server.model == ServerModel::Occ; });
    const QHash<QString, QString> readLabels{{QStringLiteral("business"), tr("Business loop")},
                                             {QStringLiteral("wrapper"), tr("@retry wrapper")}};
    QWidget *read = choiceField(QStringLiteral("client.occRead"), readLabels);
    addRow(modelForm, tr("Read by"), read,
           tr("OCC: the layer whose attempts re-read the version; the layers below resend the same write."));
    showWhen(modelForm, read, [](const Scenario &s) { return s.server.model == ServerModel::Occ; });
    layout->addWidget(modelBox);

    auto *idem = new QGroupBox(tr("Idempotency"), page);
    auto *idemForm = new QFormLayout(idem);
    const QHash<QString, QString> modeLabels{
        {QStringLiteral("off"), tr("Off: every POST inserts")},
        {QStringLiteral("naive"), tr("Naive: check, then insert")},
        {QStringLiteral("atomic"), tr("Atomic: reserve the key first")},
        {QStringLiteral("token"), tr("Server-issued tokens")},
    };
    addRow(idemForm, tr("Mode"),
           choiceField(QStringLiteral("server.idempotency.mode"), modeLabels),
           tr("Naive stores the key at commit, so concurrent requests with one key both pass the check."));
    addRow(idemForm, tr("Key TTL"), intField(QStringLiteral("server.idempotency.ttlS")),
           tr("After this, the key is forgotten and a late retry creates a duplicate."));
    addRow(idemForm, QString(),
           boolField(QStringLiteral("server.idempotency.requireKey"), tr("Key required (400 without)")));
    addRow(idemForm, QString(),
           boolField(QStringLiteral("server.idempotency.fingerprint"), tr("Payload fingerprint (422 on mismatch)")));
    addRow(idemForm, QString(),
           boolField(QStringLiteral("server.idempotency.storeErrors"), tr("Replay a 5xx answered after a commit")));
    const QHash<QString, QString> reuseLabels{
        {QStringLiteral("reject"), tr("Single use: 409")},
        {QStringLiteral("replay"), tr("Replay, like a key")},
    };
    addRow(idemForm, tr("Used token"),
           choiceField(QStringLiteral("server.idempotency.tokenReuse"), reuseLabels),
           tr("Token mode only. A single-use token is spent when its order commits: a retry after a lost "
              "response gets 409, and the client reports a failure for an order that exists."));
    const QHash<QString, QString> storeLabels{
        {QStringLiteral("durable"), tr("Durable")},
        {QStringLiteral("memory"), tr("In memory")},
    };
    addRow(idemForm, tr("Key store"),
           choiceField(QStringLiteral("server.idempotency.store"), storeLabels),
           tr("Where the idempotency keys live. After a restart of an in-memory store, a retry with the right "
              "key is a new request to the server: a duplicate."));
    layout->addWidget(idem);

    auto *restarts = new QGroupBox(tr("Restarts"), page);
    auto *restartsForm = new QFormLayout(restarts);
    auto *restartTimes = statusListField(QStringLiteral("server.restarts"));
    static_cast<QLineEdit *>(restartTimes)->setPlaceholderText(tr("e.g. 12, 30"));
    addRow(restartsForm, tr("Restart at"), restartTimes,
           tr("Seconds of simulated time, comma-separated. A restart drops every request the server holds "
              "(their clients time out); requests arriving while it is down are dropped, and new connections "
              "are refused. The script fault serverRestart restarts it right after one attempt commits."));
    addRow(restartsForm, tr("Down for"), intField(QStringLiteral("server.restartDownMs")));
    const QHash<QString, QString> inFlightLabels{{QStringLiteral("reset"), tr("Reset at once (a crash)")},
                                                 {QStringLiteral("hang"), tr("Silent until timeout (a hang)")}};
    addRow(restartsForm, tr("Held requests"), choiceField(QStringLiteral("server.restartInFlight"), inFlightLabels),
           tr("What the clients of the requests the server held see: a reset at once, or nothing until their timeout."));
    layout->addWidget(restarts);

    auto *load = new QGroupBox(tr("Capacity and processing"), page);
    auto *loadForm = new QFormLayout(load);
    auto *capacity = qobject_cast<QSpinBox *>(intField(QStringLiteral("server.capacity")));
    capacity->setSpecialValueText(tr("unlimited"));
    addRow(loadForm, tr("Capacity"), capacity, tr("Concurrent requests; 0 = unlimited. Full: 503."));
    addRow(loadForm, tr("Queue"), intField(QStringLiteral("server.queue")));
    addDistributionRows(loadForm, QStringLiteral("server.processingMs"), tr("Processing"),
                        [](const Scenario &s) { return s.server.processingMs.shape; });
    addRow(loadForm, tr("Per request in flight"),
           numberField(QStringLiteral("server.latencyPerInFlightMs")),
           tr("Service time grows with load: each request being processed adds this much to a request that "
              "starts. Retries add load, so a busy server can stay busy: a metastable failure."));
    layout->addWidget(load);

    auto *errors = new QGroupBox(tr("Injected errors"), page);
    auto *errorsForm = new QFormLayout(errors);
    addRow(errorsForm, tr("5xx before commit"), numberField(QStringLiteral("server.error5xxBeforeCommit")));
    addRow(errorsForm, tr("5xx after commit"), numberField(QStringLiteral("server.error5xxAfterCommit")),
           tr("The record is committed but the client sees an error."));
    addRow(errorsForm, tr("429 throttling"), numberField(QStringLiteral("server.throttle429")));
    addRow(errorsForm, tr("Error status"), intField(QStringLiteral("server.errorStatus")));
    addRow(errorsForm, tr("Retry-After"), intField(QStringLiteral("server.retryAfterS")));
    layout->addWidget(errors);
    layout->addStretch(1);
    return page;
}

QWidget *ScenarioEditor::buildReconciliationPage()
{
    auto *page = new QWidget;
    auto *layout = new QVBoxLayout(page);
    QGroupBox *box = groupField(QStringLiteral("reconciliation.enabled"), tr("Reconciliation job"));
    const QString help = tr("Periodically finds records sharing a business reference and flags or voids the extras.");
    box->setToolTip(help);
    box->setProperty(HelpProperty, help);
    auto *form = new QFormLayout(box);
    addRow(form, tr("Every"), intField(QStringLiteral("reconciliation.intervalS")));
    const QHash<QString, QString> actionLabels{
        {QStringLiteral("flag"), tr("Flag the extras")},
        {QStringLiteral("void"), tr("Void the extras")},
    };
    addRow(form, tr("Action"),
           choiceField(QStringLiteral("reconciliation.action"), actionLabels));
    layout->addWidget(box);
    layout->addStretch(1);
    return page;
}

void ScenarioEditor::addRow(QFormLayout *form, const QString &label, QWidget *field, const QString &help)
{
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    if (!help.isEmpty()) {
        field->setToolTip(help);
        field->setProperty(HelpProperty, help);
    }
    // A choice box with long choices goes under its label, at the full width of the form:
    // beside the label it would be cut off or push the dock into scrolling sideways.
    bool stacked = false;
    if (auto *combo = qobject_cast<QComboBox *>(field)) {
        for (int i = 0; i < combo->count(); ++i)
            stacked = stacked || combo->itemText(i).size() > 16;
    }
    if (label.isEmpty()) {
        form->addRow(field);
    } else {
        auto *l = new QLabel(label);
        l->setBuddy(field);
        m_rowLabels.insert(field, l);
        if (!help.isEmpty())
            l->setToolTip(help);
        if (stacked) {
            form->addRow(l);
            form->addRow(field);
        } else {
            form->addRow(l, field);
        }
    }
}

void ScenarioEditor::registerField(const Field &field)
{
    field.widget->setObjectName(field.path);
    field.widget->setProperty("scenarioPath", field.path);
    field.widget->setAccessibleDescription(field.path);
    m_index.insert(field.path, m_fields.size());
    m_fields.append(field);
}

QString ScenarioEditor::unitSuffix(const QString &unit)
{
    if (unit == QLatin1String("ms"))
        return tr(" ms");
    if (unit == QLatin1String("s"))
        return tr(" s");
    if (unit == QLatin1String("%"))
        return tr(" %");
    if (unit == QLatin1String("attempts"))
        return tr(" attempts");
    return QString();
}

QWidget *ScenarioEditor::intField(const QString &path)
{
    const scenario::FieldSpec &spec = specOf(path);
    const scenario::EditorRange range = scenario::editorRange(spec);
    auto *spin = new QSpinBox;
    spin->setRange(int(range.minimum), int(range.maximum));
    spin->setSingleStep(int(spec.editor.step));
    spin->setSuffix(unitSuffix(spec.unit));
    spin->setProperty(NullAtMinimumProperty, range.nullAtMinimum);
    spin->setKeyboardTracking(false); // one run per finished edit, not per keystroke
    spin->setFocusPolicy(Qt::StrongFocus);
    spin->installEventFilter(new WheelGuard(spin));
    spin->setAlignment(Qt::AlignRight);
    registerField({path, Kind::Int, spin});
    connect(spin, &QSpinBox::valueChanged, this, [this, path] { commit(path); });
    return spin;
}

QWidget *ScenarioEditor::numberField(const QString &path)
{
    const scenario::FieldSpec &spec = specOf(path);
    const scenario::EditorRange range = scenario::editorRange(spec);
    // A probability shows as a percentage: the range and the value times 100.
    const double scale = spec.editor.percent ? 100 : 1;
    auto *spin = new QDoubleSpinBox;
    spin->setRange(range.minimum * scale, range.maximum * scale);
    spin->setDecimals(spec.editor.decimals);
    spin->setSingleStep(spec.editor.step);
    spin->setSuffix(unitSuffix(spec.unit));
    spin->setProperty(NullAtMinimumProperty, range.nullAtMinimum);
    spin->setKeyboardTracking(false);
    spin->setFocusPolicy(Qt::StrongFocus);
    spin->installEventFilter(new WheelGuard(spin));
    spin->setAlignment(Qt::AlignRight);
    registerField({path, spec.editor.percent ? Kind::Percent : Kind::Number, spin});
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, path] { commit(path); });
    return spin;
}

QWidget *ScenarioEditor::boolField(const QString &path, const QString &text)
{
    // The text is a word-wrapped label beside the box: a QCheckBox's own text never wraps and
    // would force a narrow dock to scroll sideways.
    auto *check = new QCheckBox;
    check->setAccessibleName(text);
    auto *label = new QLabel(text);
    label->setObjectName(path + QStringLiteral(".label"));
    label->setWordWrap(true);
    auto *row = new WrappingCheckRow(check, label);
    label->installEventFilter(new ToggleOnClick(label, check));
    registerField({path, Kind::Bool, check});
    connect(check, &QCheckBox::toggled, this, [this, path] { commit(path); });
    return row;
}

QGroupBox *ScenarioEditor::groupField(const QString &path, const QString &title)
{
    auto *box = new QGroupBox(title);
    box->setCheckable(true);
    registerField({path, Kind::Group, box});
    connect(box, &QGroupBox::toggled, this, [this, path] { commit(path); });
    return box;
}

QWidget *ScenarioEditor::choiceField(const QString &path, const QHash<QString, QString> &labels)
{
    auto *combo = new ChoiceBox;
    for (const QString &value : specOf(path).choices)
        combo->addItem(labels.value(value, value), value);
    combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    combo->setFocusPolicy(Qt::StrongFocus);
    combo->installEventFilter(new WheelGuard(combo));
    registerField({path, Kind::Choice, combo});
    connect(combo, &QComboBox::currentIndexChanged, this, [this, path] { commit(path); });
    return combo;
}

QWidget *ScenarioEditor::statusListField(const QString &path)
{
    auto *edit = new QLineEdit;
    edit->setPlaceholderText(QStringLiteral("500,502,503,504"));
    edit->setClearButtonEnabled(true);
    registerField({path, Kind::StatusList, edit});
    connect(edit, &QLineEdit::editingFinished, this, [this, path] { commit(path); });
    return edit;
}

QWidget *ScenarioEditor::methodsField(const QString &path)
{
    auto *box = new QWidget;
    auto *grid = new QGridLayout(box);
    grid->setContentsMargins(0, 0, 0, 0);
    int i = 0;
    for (const QString &method : specOf(path).choices) {
        auto *check = new QCheckBox(method, box);
        check->setObjectName(QStringLiteral("method%1").arg(method));
        // Two columns: three ("OPTIONS", "DELETE", "TRACE") need more than the dock's narrowest width.
        grid->addWidget(check, i / 2, i % 2);
        connect(check, &QCheckBox::toggled, this, [this, path] { commit(path); });
        ++i;
    }
    registerField({path, Kind::Methods, box});
    return box;
}

QWidget *ScenarioEditor::scriptField(const QString &path)
{
    auto *editor = new ScriptTableEditor;
    registerField({path, Kind::Script, editor});
    connect(editor, &ScriptTableEditor::edited, this, [this, path] { commit(path); });
    return editor;
}

QWidget *ScenarioEditor::entryTableField(const QString &path, const QList<EntryColumn> &columns,
                                         const QStringList &newRow, const QString &addText)
{
    auto *editor = new EntryTableEditor(columns, newRow, addText);
    registerField({path, Kind::Entries, editor});
    connect(editor, &EntryTableEditor::edited, this, [this, path] { commit(path); });
    return editor;
}

void ScenarioEditor::addDistributionRows(QFormLayout *form, const QString &prefix, const QString &name,
                                         const std::function<DistributionShape(const Scenario &)> &shape)
{
    const QHash<QString, QString> shapeLabels{
        {QStringLiteral("uniform"), tr("Uniform: base + U(0, jitter)")},
        {QStringLiteral("normal"), tr("Normal: |N(mean, sd)|")},
    };
    const auto uniform = [shape](const Scenario &s) { return shape(s) == DistributionShape::Uniform; };
    const auto normal = [shape](const Scenario &s) { return shape(s) == DistributionShape::Normal; };
    addRow(form, tr("%1 distribution").arg(name),
           choiceField(prefix + QStringLiteral(".distribution"), shapeLabels),
           tr("Uniform: a base time plus a random 0 to jitter. Normal: the absolute value of a normal draw, "
              "as in the AWS backoff study's network (mean 10 ms, sd 2 ms)."));
    QWidget *base = intField(prefix + QStringLiteral(".base"));
    addRow(form, name, base, prefix.startsWith(QLatin1String("network")) ? tr("One-way base latency.") : QString());
    showWhen(form, base, uniform);
    QWidget *jitter = intField(prefix + QStringLiteral(".jitter"));
    addRow(form, tr("%1 jitter").arg(name), jitter);
    showWhen(form, jitter, uniform);
    QWidget *mean = numberField(prefix + QStringLiteral(".mean"));
    addRow(form, tr("%1 mean").arg(name), mean);
    showWhen(form, mean, normal);
    QWidget *sd = numberField(prefix + QStringLiteral(".sd"));
    addRow(form, tr("%1 sd").arg(name), sd, tr("Standard deviation of the normal distribution."));
    showWhen(form, sd, normal);
}

void ScenarioEditor::showWhen(QFormLayout *form, QWidget *field, std::function<bool(const Scenario &)> shown)
{
    VisibilityRule rule;
    rule.form = form;
    rule.widgets << field;
    if (QLabel *label = m_rowLabels.value(field))
        rule.widgets << label;
    rule.shown = std::move(shown);
    m_visibility.append(rule);
}

void ScenarioEditor::updateVisibility()
{
    for (const VisibilityRule &rule : std::as_const(m_visibility)) {
        const bool on = rule.shown(m_scenario);
        for (QWidget *w : rule.widgets) {
            if (rule.form)
                rule.form->setRowVisible(w, on);
            else
                w->setVisible(on);
        }
    }
}

QJsonValue ScenarioEditor::read(const Field &field) const
{
    switch (field.kind) {
    case Kind::Int: {
        const auto *spin = static_cast<QSpinBox *>(field.widget);
        if (spin->property(NullAtMinimumProperty).toBool() && spin->value() == spin->minimum())
            return QJsonValue(QJsonValue::Null);
        return spin->value();
    }
    case Kind::Number: {
        const auto *spin = static_cast<QDoubleSpinBox *>(field.widget);
        if (spin->property(NullAtMinimumProperty).toBool() && spin->value() == spin->minimum())
            return QJsonValue(QJsonValue::Null);
        return spin->value();
    }
    case Kind::Percent:
        return static_cast<QDoubleSpinBox *>(field.widget)->value() / 100.0;
    case Kind::Bool:
        return static_cast<QCheckBox *>(field.widget)->isChecked();
    case Kind::Group:
        return static_cast<QGroupBox *>(field.widget)->isChecked();
    case Kind::Choice:
        return static_cast<QComboBox *>(field.widget)->currentData().toString();
    case Kind::StatusList: {
        // Non-numbers go through as strings: the core names the bad entry.
        QJsonArray list;
        static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
        const QStringList parts =
            static_cast<QLineEdit *>(field.widget)->text().split(separators, Qt::SkipEmptyParts);
        const bool restarts = field.path == QLatin1String("server.restarts"); // [{"atS": 12}, ...]
        for (const QString &part : parts) {
            bool ok = false;
            const int number = part.toInt(&ok);
            const QJsonValue v = ok ? QJsonValue(number) : QJsonValue(part);
            list.append(restarts ? QJsonValue(QJsonObject{{QStringLiteral("atS"), v}}) : v);
        }
        return list;
    }
    case Kind::Methods: {
        QJsonArray list;
        const QList<QCheckBox *> checks = field.widget->findChildren<QCheckBox *>();
        for (const QCheckBox *check : checks) {
            if (check->isChecked())
                list.append(check->text());
        }
        return list;
    }
    case Kind::Script:
        return static_cast<ScriptTableEditor *>(field.widget)->value();
    case Kind::Entries:
        return static_cast<EntryTableEditor *>(field.widget)->value();
    }
    return QJsonValue();
}

void ScenarioEditor::write(const Field &field, const QJsonValue &value)
{
    const QSignalBlocker blocker(field.widget);
    switch (field.kind) {
    case Kind::Int: {
        auto *spin = static_cast<QSpinBox *>(field.widget);
        if (spin->property(NullAtMinimumProperty).toBool() && (value.isNull() || value.isUndefined()))
            spin->setValue(spin->minimum());
        else
            spin->setValue(value.isString() ? value.toString().toInt() : value.toInt());
        break;
    }
    case Kind::Number: {
        auto *spin = static_cast<QDoubleSpinBox *>(field.widget);
        if (spin->property(NullAtMinimumProperty).toBool() && (value.isNull() || value.isUndefined()))
            spin->setValue(spin->minimum());
        else
            spin->setValue(value.toDouble());
        break;
    }
    case Kind::Percent:
        static_cast<QDoubleSpinBox *>(field.widget)->setValue(value.toDouble() * 100.0);
        break;
    case Kind::Bool:
        static_cast<QCheckBox *>(field.widget)->setChecked(value.toBool());
        break;
    case Kind::Group:
        static_cast<QGroupBox *>(field.widget)->setChecked(value.toBool());
        break;
    case Kind::Choice: {
        auto *combo = static_cast<QComboBox *>(field.widget);
        combo->setCurrentIndex(qMax(0, combo->findData(value.toString())));
        break;
    }
    case Kind::StatusList: {
        QStringList parts;
        const QJsonArray list = value.toArray();
        for (QJsonValue v : list) {
            if (v.isObject())
                v = v.toObject().value(QLatin1String("atS")); // server.restarts
            parts << (v.isDouble() ? QString::number(v.toInt()) : v.toString());
        }
        static_cast<QLineEdit *>(field.widget)->setText(parts.join(QLatin1Char(',')));
        break;
    }
    case Kind::Methods: {
        QStringList methods;
        const QJsonArray list = value.toArray();
        for (const QJsonValue &v : list)
            methods << v.toString().toUpper();
        const QList<QCheckBox *> checks = field.widget->findChildren<QCheckBox *>();
        for (QCheckBox *check : checks) {
            const QSignalBlocker checkBlocker(check);
            check->setChecked(methods.contains(check->text()));
        }
        break;
    }
    case Kind::Script:
        static_cast<ScriptTableEditor *>(field.widget)->setValue(value.toArray());
        break;
    case Kind::Entries:
        static_cast<EntryTableEditor *>(field.widget)->setValue(value.toArray());
        break;
    }
}

void ScenarioEditor::setScenario(const Scenario &scenario, Baseline baseline)
{
    m_textTimer->stop();
    m_scenario = scenario;
    if (baseline == Baseline::Reset)
        m_baseline = scenario;
    // One conversion for all fields: scenario::valueAt would convert the whole scenario (a long
    // network.script included) once per field.
    ++m_roundTrips;
    // Every key, those a saved file leaves out included (a uniform distribution's mean and sd).
    const QJsonObject root = scenario::toCompleteJson(scenario);
    for (const Field &f : qAsConst(m_fields)) {
        write(f, valueIn(root, f.path));
        clearInvalid(f.widget);
    }
    {
        const QSignalBlocker titleBlocker(m_title);
        const QSignalBlocker descriptionBlocker(m_description);
        if (m_title->text() != scenario.title)
            m_title->setText(scenario.title);
        m_title->setPlaceholderText(scenario.name);
        if (m_description->toPlainText() != scenario.description)
            m_description->setPlainText(scenario.description);
    }
    m_errors.clear();
    updateErrorLabel();
    updateModified();
    updateVisibility();
    m_presets->setCurrentName(scenario.name);
}

void ScenarioEditor::commitText()
{
    m_textTimer->stop();
    const QString title = m_title->text().trimmed();
    const QString description = m_description->toPlainText().trimmed();
    if (title == m_scenario.title && description == m_scenario.description)
        return;
    m_scenario.title = title;
    m_scenario.description = description;
    updateModified();
    Q_EMIT scenarioChanged(m_scenario);
}

void ScenarioEditor::updateModified()
{
    const bool modified = !scenario::sameSettings(m_scenario, m_baseline);
    const bool textEdited = m_scenario.title != m_baseline.title || m_scenario.description != m_baseline.description;
    if (modified) {
        const QString badge = QStringLiteral("<b style=\"color:%1\">%2</b>")
                                  .arg(warningColor(palette()).name(), tr("(modified)"));
        const QString text = textEdited
            ? tr("The settings differ from \u201c%1\u201d as it was loaded.")
            : tr("The title and description were written for the original settings of \u201c%1\u201d.");
        m_modifiedBanner->setText(QStringLiteral("%1 %2 <a href=\"#about\">%3</a>")
                                      .arg(badge, text.arg(headline(m_baseline).toHtmlEscaped()),
                                           textEdited ? tr("Edit the text") : tr("Edit them")));
    }
    m_modifiedBanner->setVisible(modified);
    m_sections->setItemText(0, modified && !textEdited ? tr("Title and description (modified settings)")
                                                       : tr("Title and description"));
    if (modified == m_settingsModified)
        return;
    m_settingsModified = modified;
    Q_EMIT settingsModifiedChanged(modified);
}

void ScenarioEditor::showAboutPage()
{
    m_tabs->setCurrentIndex(1);
    m_sections->setCurrentIndex(0);
    m_title->setFocus(Qt::OtherFocusReason);
    m_title->selectAll();
}

Scenario ScenarioEditor::scenarioToSave() const
{
    Scenario s = m_scenario;
    const QString mark = tr("(modified)");
    if (m_settingsModified && s.title == m_baseline.title && !s.title.endsWith(mark))
        s.title = (s.title.isEmpty() ? s.name : s.title) + QLatin1Char(' ') + mark;
    return s;
}

void ScenarioEditor::commit(const QString &path)
{
    const int i = m_index.value(path, -1);
    if (i < 0)
        return;
    const Field &f = m_fields.at(i);
    ++m_roundTrips;
    const ScenarioParse parsed = scenario::withValue(m_scenario, path, read(f));
    if (!parsed.ok()) {
        const QString reason = reasonFor(path, parsed.errors);
        m_errors.insert(path, reason);
        markInvalid(f.widget, reason);
        updateErrorLabel();
        return;
    }
    m_errors.remove(path);
    clearInvalid(f.widget);
    updateErrorLabel();
    if (parsed.scenario == m_scenario)
        return;
    m_scenario = parsed.scenario;
    updateModified();
    updateVisibility();
    Q_EMIT scenarioChanged(m_scenario);
}

void ScenarioEditor::markInvalid(QWidget *widget, const QString &reason)
{
    const QColor colour = warningColor(palette());
    widget->setProperty(InvalidProperty, true);
    widget->setStyleSheet(QStringLiteral("*[invalid=\"true\"] { border: 2px solid %1; border-radius: 3px; }")
                              .arg(colour.name()));
    widget->setToolTip(reason);
    widget->style()->unpolish(widget);
    widget->style()->polish(widget);
    widget->update();
}

void ScenarioEditor::clearInvalid(QWidget *widget)
{
    if (!widget->property(InvalidProperty).toBool())
        return;
    widget->setProperty(InvalidProperty, false);
    widget->setStyleSheet(QString());
    widget->setToolTip(widget->property(HelpProperty).toString());
    widget->style()->unpolish(widget);
    widget->style()->polish(widget);
    widget->update();
}

void ScenarioEditor::updateErrorLabel()
{
    if (m_errors.isEmpty()) {
        m_errorLabel->clear();
        m_errorLabel->hide();
        return;
    }
    QStringList lines;
    for (const Field &f : qAsConst(m_fields)) {
        if (m_errors.contains(f.path))
            lines << QStringLiteral("<b>%1</b>: %2").arg(f.path.toHtmlEscaped(),
                                                        m_errors.value(f.path).toHtmlEscaped());
    }
    m_errorLabel->setText(tr("Not applied, the last valid value stays in force:") + QStringLiteral("<br>")
                          + lines.join(QStringLiteral("<br>")));
    QPalette p = m_errorLabel->palette();
    p.setColor(QPalette::WindowText, warningColor(palette()));
    m_errorLabel->setPalette(p);
    m_errorLabel->show();
}

QStringList ScenarioEditor::fieldPaths() const
{
    QStringList paths;
    for (const Field &f : m_fields)
        paths << f.path;
    return paths;
}

QWidget *ScenarioEditor::field(const QString &path) const
{
    const int i = m_index.value(path, -1);
    return i < 0 ? nullptr : m_fields.at(i).widget;
}

bool ScenarioEditor::highlightField(const QString &path)
{
    clearHighlight();
    QWidget *w = field(path);
    if (!w)
        return false;
    m_highlighted = path;
    for (int i = 0; i < m_tabs->count(); ++i)
        if (m_tabs->widget(i)->isAncestorOf(m_sections))
            m_tabs->setCurrentIndex(i);
    for (int i = 0; i < m_sections->count(); ++i) {
        auto *scroll = qobject_cast<QScrollArea *>(m_sections->widget(i));
        if (scroll && scroll->isAncestorOf(w)) {
            m_sections->setCurrentIndex(i);
            scroll->ensureWidgetVisible(w);
        }
    }
    const QString colour = palette().color(QPalette::Highlight).name();
    const QString text = palette().color(QPalette::HighlightedText).name();
    if (!w->property(InvalidProperty).toBool()) {
        w->setStyleSheet(qobject_cast<QGroupBox *>(w)
                             ? QStringLiteral("QGroupBox::title { background: %1; color: %2; border-radius: 3px; }")
                                   .arg(colour, text)
                             : QStringLiteral("#%1 { border: 3px solid %2; border-radius: 3px; }")
                                   .arg(QString(w->objectName()).replace(QLatin1Char('.'), QStringLiteral("\\.")),
                                        colour));
    }
    if (QLabel *label = m_rowLabels.value(w))
        label->setStyleSheet(QStringLiteral("QLabel { background: %1; color: %2; border-radius: 3px; padding: 1px 3px; }")
                                 .arg(colour, text));
    return true;
}

void ScenarioEditor::clearHighlight()
{
    if (m_highlighted.isEmpty())
        return;
    if (QWidget *w = field(m_highlighted)) {
        if (!w->property(InvalidProperty).toBool())
            w->setStyleSheet(QString());
        if (QLabel *label = m_rowLabels.value(w))
            label->setStyleSheet(QString());
    }
    m_highlighted.clear();
}

QString ScenarioEditor::fieldError(const QString &path) const
{
    return m_errors.value(path);
}

bool ScenarioEditor::hasInvalidFields() const
{
    return !m_errors.isEmpty();
}

ScenarioEditor::~ScenarioEditor()
{
    // Destroying the children moves the focus: nothing may commit into a half-destroyed editor.
    delete m_descriptionFocusFilter;
    if (m_title)
        disconnect(m_title, nullptr, this, nullptr);
}

} // namespace retrylab
