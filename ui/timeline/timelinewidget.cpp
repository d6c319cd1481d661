#include "timeline/timelinewidget.h"
#include "common/documentfollower.h"
#include "document/labdocument.h"
#include "i18n.h"
#include "release.h"
#include "timeline/timelinelayout.h"
#include "timeline/timelineoverview.h"
#include "timeline/timelinescene.h"
#include "timeline/timelineview.h"
#include "story.h"

#include <QApplication>
#include <QComboBox>
#include <QCursor>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QImage>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QScopeGuard>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QSvgGenerator>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QVariantAnimation>

#include <algorithm>
#include <cmath>

namespace retrylab {

namespace {

// Playback speeds (the pacing at 1x is timeline::StoryClock's).
constexpr double kMinSpeed = 0.25;
constexpr double kMaxSpeed = 16;
constexpr int kOverviewHeight = 104;
// Room under the lanes of a fitted view (the scene's own 8 pixels below the last lane and a margin).
constexpr qreal kLaneMargin = 10;

const double kSpeeds[] = {0.25, 0.5, 1, 2, 4, 8, 16};

QToolButton *makeButton(QWidget *parent, QStyle::StandardPixmap icon, const QString &text, const QString &tip)
{
    auto *b = new QToolButton(parent);
    b->setIcon(parent->style()->standardIcon(icon));
    b->setText(text);
    b->setToolTip(tip);
    b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    b->setAutoRaise(true);
    b->setFocusPolicy(Qt::NoFocus);
    return b;
}

} // namespace

TimelineWidget::TimelineWidget(QWidget *parent)
    : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    m_scene = new TimelineScene(this);
    m_scene->setColors(timeline::Colors::fromPalette(palette()));
    m_scene->setBaseFont(font());
    m_view = new TimelineView(m_scene, this);
    m_view->setObjectName(QStringLiteral("timelineView"));

    m_anim = new QVariantAnimation(this);
    m_anim->setObjectName(QStringLiteral("playback"));
    m_anim->setStartValue(0.0);
    m_anim->setEndValue(1.0);
    m_anim->setDuration(1000);
    connect(m_anim, &QVariantAnimation::valueChanged, this, [this](const QVariant &v) {
        if (!m_syncing)
            applyPlayhead(m_clock.timeAt(v.toDouble()));
    });
    connect(m_anim, &QAbstractAnimation::stateChanged, this, [this] { updatePlayButton(); });

    m_captionLabel = new QLabel(this);
    m_captionLabel->setObjectName(QStringLiteral("caption"));
    m_captionLabel->setWordWrap(true);
    m_captionLabel->setTextFormat(Qt::PlainText);
    m_captionLabel->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    m_captionLabel->setContentsMargins(12, 6, 12, 0);

    m_detailsLabel = new QLabel(this);
    m_detailsLabel->setObjectName(QStringLiteral("details"));
    m_detailsLabel->setWordWrap(true);
    m_detailsLabel->setTextFormat(Qt::PlainText);
    m_detailsLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detailsLabel->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    m_detailsLabel->setContentsMargins(12, 0, 12, 0);
    m_detailsLabel->setForegroundRole(QPalette::PlaceholderText);

    QHBoxLayout *controls = createControls();
    createOverview();

    auto *root = new QVBoxLayout(this);
    root->setContentsMargins(0, 0, 0, 4);
    root->setSpacing(3);
    root->addWidget(m_view, 1);
    root->addWidget(m_captionLabel);
    root->addWidget(m_detailsLabel);
    root->addLayout(controls);
    root->addWidget(m_legend);
    root->addWidget(m_overviewTitle);
    root->addWidget(m_overviewArea);

    connectControls();

    fitCaption();
    m_scene->setEmptyText(tr("Run a scenario to see its attempts here."));
    rebuild();
}

// The playback bar: previous, play, next, speed, scrub, time, zoom and the operation.
QHBoxLayout *TimelineWidget::createControls()
{
    m_prevButton = makeButton(this, QStyle::SP_MediaSeekBackward, QString(), tr("Previous event (Left)"));
    m_playButton = makeButton(this, QStyle::SP_MediaPlay, tr("Play"), tr("Play / pause (Space)"));
    m_nextButton = makeButton(this, QStyle::SP_MediaSeekForward, QString(), tr("Next event (Right)"));
    // The bar fits beside the Scenario and Lesson docks on a 1024 px screen: the media buttons are
    // icons (Play's word stays its accessible name), the slider may be short.
    for (QToolButton *b : {m_prevButton, m_playButton, m_nextButton})
        b->setToolButtonStyle(Qt::ToolButtonIconOnly);
    m_speedCombo = new QComboBox(this);
    m_speedCombo->setToolTip(tr("Playback speed: at 1x one second of simulated time takes one second, "
                                "but every event gets a moment and long waits are shortened"));
    m_speedCombo->setFocusPolicy(Qt::NoFocus);
    for (const double s : kSpeeds)
        m_speedCombo->addItem(QStringLiteral("%1\u00d7").arg(s), s);
    m_speedCombo->setCurrentIndex(2);
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setObjectName(QStringLiteral("scrub"));
    m_slider->setToolTip(tr("Scrub through the operation"));
    m_slider->setFocusPolicy(Qt::NoFocus);
    m_slider->setMinimumWidth(4 * m_slider->sizeHint().height());
    m_timeLabel = new QLabel(this);
    m_timeLabel->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("00.000 s / 00.000 s")));
    m_timeLabel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_zoomOutButton = makeButton(this, QStyle::SP_ArrowDown, QStringLiteral("\u2212"), tr("Zoom out (-, Ctrl+wheel)"));
    m_zoomInButton = makeButton(this, QStyle::SP_ArrowUp, QStringLiteral("+"), tr("Zoom in (+, Ctrl+wheel)"));
    m_zoomOutButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_zoomInButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_fitButton = makeButton(this, QStyle::SP_TitleBarMaxButton, tr("Fit"), tr("Fit the whole operation"));
    m_fitButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_opSpin = new QSpinBox(this);
    m_opSpin->setObjectName(QStringLiteral("operation"));
    m_opSpin->setRange(1, 1);
    m_opSpin->setPrefix(tr("op "));
    m_opSpin->setToolTip(tr("The logical operation (order) shown in the swimlanes"));

    auto *controls = new QHBoxLayout;
    controls->setContentsMargins(8, 0, 8, 0);
    controls->setSpacing(4);
    controls->addWidget(m_prevButton);
    controls->addWidget(m_playButton);
    controls->addWidget(m_nextButton);
    controls->addWidget(m_speedCombo);
    controls->addSpacing(2);
    controls->addWidget(m_slider, 1);
    controls->addWidget(m_timeLabel);
    controls->addSpacing(2);
    controls->addWidget(m_zoomOutButton);
    controls->addWidget(m_zoomInButton);
    controls->addWidget(m_fitButton);
    controls->addSpacing(2);
    controls->addWidget(m_opSpin);

    return controls;
}

// The key, and the strip of every operation below it.
void TimelineWidget::createOverview()
{
    m_legend = new TimelineLegend(this);

    m_overview = new TimelineOverview;
    m_overview->setObjectName(QStringLiteral("overview"));
    m_overviewArea = new QScrollArea(this);
    m_overviewArea->setWidget(m_overview);
    m_overviewArea->setWidgetResizable(true);
    m_overviewArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Preferred, not fixed: the timeline must not force a tall window; resizeEvent() hides it when short.
    m_overviewArea->setMaximumHeight(kOverviewHeight);
    m_overviewArea->setMinimumHeight(1); // 0 would mean "use the size hint"
    m_overviewArea->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    m_overviewArea->setFrameShape(QFrame::NoFrame);
    m_overviewTitle = new QLabel(tr("All operations \u2014 ticks: attempts, dots: records; click a row to show it"), this);
    m_overviewTitle->setForegroundRole(QPalette::PlaceholderText);
    m_overviewTitle->setContentsMargins(12, 2, 12, 0);

    // Everything but the swimlanes, caption and controls may be squeezed away (resizeEvent() hides it).
    m_overviewTitle->setWordWrap(true);
    m_overviewTitle->setMinimumSize(1, 1);
    m_legend->setMinimumSize(1, 1);
    m_detailsLabel->setMinimumSize(1, 1);
}

void TimelineWidget::connectControls()
{
    connect(m_playButton, &QToolButton::clicked, this, [this] { isPlaying() ? pause() : play(); });
    connect(m_prevButton, &QToolButton::clicked, this, &TimelineWidget::stepPrevious);
    connect(m_nextButton, &QToolButton::clicked, this, &TimelineWidget::stepNext);
    connect(m_speedCombo, &QComboBox::activated, this,
            [this](int i) { setSpeed(m_speedCombo->itemData(i).toDouble()); });
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) {
        if (!m_syncing)
            setPlayhead(m_clock.timeAt(v));
    });
    connect(m_zoomInButton, &QToolButton::clicked, this, [this] { zoomBy(1.25); });
    connect(m_zoomOutButton, &QToolButton::clicked, this, [this] { zoomBy(0.8); });
    connect(m_fitButton, &QToolButton::clicked, this, &TimelineWidget::fitToView);
    connect(m_opSpin, &QSpinBox::valueChanged, this, [this](int op) { setOperation(op); });
    connect(m_overview, &TimelineOverview::operationClicked, this, &TimelineWidget::setOperation);
    connect(m_scene, &TimelineScene::eventClicked, this, [this](int index) {
        showDetails(index);
        // Offscreen (tests, screenshots) has no tool tip windows to raise.
        if (QGuiApplication::platformName() != QLatin1String("offscreen"))
            QToolTip::showText(QCursor::pos(), timeline::details(m_result.trace.at(index)), m_view);
        Q_EMIT eventSelected(index);
    });
    connect(m_view, &TimelineView::zoomRequested, this, &TimelineWidget::zoomAround);
    // A long operation has items only in and near the view: scrolling tells the scene what is exposed.
    connect(m_view->horizontalScrollBar(), &QScrollBar::valueChanged, this, &TimelineWidget::updateExposed);
    connect(m_view->horizontalScrollBar(), &QScrollBar::rangeChanged, this, &TimelineWidget::updateExposed);
    connect(m_view, &TimelineView::resized, this, [this] {
        // The lane height and the fit depend on the view's size without scroll bars only. When just a
        // scroll bar came or went, that size is unchanged and so is the layout: no feedback loop.
        if (m_view->maximumViewportSize() == m_viewInput) {
            updateExposed();
            return;
        }
        applyFit();
        updateExposed();
    });
}

TimelineWidget::~TimelineWidget()
{
    // The scene goes first among the children; the view's scroll bars then move and must not reach it.
    disconnect(m_view->horizontalScrollBar(), nullptr, this, nullptr);
    // The view, deleted with the children after this body, is hidden and says resized(): its lambda
    // would then run on a TimelineWidget already destroyed (UBSan: "not an object of type").
    disconnect(m_view, nullptr, this, nullptr);
}

// ------------------------------------------------------------------ data

bool TimelineWidget::hasOperation(int op) const
{
    if (op <= 0)
        return false;
    for (const OpSummary &s : m_result.ops) {
        if (s.op == op)
            return true;
    }
    return std::any_of(m_result.trace.cbegin(), m_result.trace.cend(), [op](const TraceEvent &e) { return e.op == op; });
}

int TimelineWidget::operationCount() const
{
    int n = m_result.scenario.workload.orders;
    for (const OpSummary &s : m_result.ops)
        n = qMax(n, s.op);
    return qMax(1, n);
}

TimelineData prepareTimeline(const RunResult &result)
{
    TimelineData p;
    p.duplicates = timeline::duplicateRecords(result);
    p.overview = TimelineOverview::buildRows(result, p.duplicates);
    return p;
}

TimelineWidget::Prepared TimelineWidget::prepare(const RunResult &result)
{
    return prepareTimeline(result);
}

void TimelineWidget::setDocument(LabDocument *document)
{
    new DocumentFollower(this, document, DocumentFollower::When::Always, [this, document] {
        setSource(document->source());
        document->showTimeline(this);
    });
}

void TimelineWidget::setResult(const RunResult &result)
{
    applyResult(result, timeline::duplicateRecords(result), nullptr);
}

void TimelineWidget::setResult(const RunResult &result, Prepared prepared)
{
    applyResult(result, std::move(prepared.duplicates), &prepared.overview);
}

void TimelineWidget::applyResult(const RunResult &result, QSet<int> duplicates, TimelineOverview::Layout *overview)
{
    pause();
    // Kept until the scene has let go of its copy too, then dropped on a worker: whoever drops
    // the last copy of a big run frees it, which takes the GUI thread about 100 ms.
    RunResult previousResult = std::exchange(m_result, result);
    QSet<int> previousDuplicates = std::exchange(m_duplicates, std::move(duplicates));
    const int previous = m_op;
    if (!hasOperation(m_op))
        m_op = 1;
    if (overview)
        m_overview->setLayout(std::move(*overview));
    else
        m_overview->setResult(m_result, m_duplicates);
    m_overview->setCurrentOperation(m_op);
    updateOverviewHeight();
    {
        const QSignalBlocker block(m_opSpin);
        m_opSpin->setRange(1, operationCount());
        m_opSpin->setValue(m_op);
    }
    rebuild();
    releaseInBackground(std::move(previousResult), std::move(previousDuplicates));
    if (m_op != previous)
        Q_EMIT operationChanged(m_op);
}

void TimelineWidget::setOperation(int op)
{
    if (op == m_op)
        return;
    pause();
    m_op = op;
    {
        const QSignalBlocker block(m_opSpin);
        if (op > m_opSpin->maximum())
            m_opSpin->setMaximum(op);
        m_opSpin->setValue(op);
    }
    m_overview->setCurrentOperation(op);
    const int y = m_overview->rowCenter(op);
    if (y >= 0)
        m_overviewArea->ensureVisible(0, y, 0, m_overview->rowHeight() * 2);
    rebuild();
    Q_EMIT operationChanged(op);
}

int TimelineWidget::operation() const
{
    return m_op;
}

void TimelineWidget::rebuild()
{
    const Scenario &s = m_result.scenario;
    const ClientConfig &c = s.client;
    // An unlimited layer (maxAttempts 0) runs until its deadline; a transport without total is
    // bounded by its other counters.
    const auto layerNote = [](const LayerConfig &l, const QString &what) {
        if (!l.enabled)
            return tr("off");
        if (l.maxAttempts == 0)
            return tr("%1 \u00b7 until %2").arg(what, timeline::formatDuration(qint64(l.deadlineMs) * 1000));
        if (l.maxAttempts == 1)
            return tr("%1 \u00b7 1 attempt").arg(what);
        return tr("%1 \u00b7 %2 attempts").arg(what).arg(l.maxAttempts);
    };
    // The server's idempotency mode in the window's language (the scenario file's word in English).
    const auto modeText = [](IdempotencyMode mode) {
        switch (mode) {
        case IdempotencyMode::Off:
            return tr("off");
        case IdempotencyMode::Naive:
            return tr("naive");
        case IdempotencyMode::Atomic:
            return tr("atomic");
        case IdempotencyMode::Token:
            return tr("token");
        }
        return QString();
    };
    QStringList notes{
        layerNote(c.business, tr("loop")),
        layerNote(c.wrapper, QStringLiteral("@retry")),
        !c.transport.enabled ? tr("one send, no retries")
        : c.transport.total == TransportConfig::Unlimited
            ? tr("urllib3 \u00b7 %1 retries at most").arg(c.transport.worstCaseRetries())
            : tr("urllib3 \u00b7 total %1").arg(c.transport.total),
        m_source == ResultSource::LiveRun ? tr("real HTTP, loopback")
        : s.network.latencyMs.shape == DistributionShape::Normal
            ? tr("latency %1 \u00b1 %2 ms, normal").arg(s.network.latencyMs.mean).arg(s.network.latencyMs.sd)
            : tr("latency %1\u2013%2 ms").arg(s.network.latencyMs.base).arg(s.network.latencyMs.base + s.network.latencyMs.jitter),
        tr("keys: %1").arg(modeText(s.server.idempotency.mode)),
        s.server.model == ServerModel::Occ
            ? (s.server.occRows == 1 ? tr("1 row, versioned") : tr("%1 rows, versioned").arg(s.server.occRows))
            : tr("orders table"),
    };
    // Transport always sends; "off" only means it does not retry, so its lane is never greyed.
    QList<bool> enabled{c.business.enabled, c.wrapper.enabled, true, true, true, true};
    if (m_source == ResultSource::Watch) {
        const QString outside = tr("your client: unseen");
        notes = QStringList{outside, outside, outside, tr("real HTTP"), notes.at(4), notes.at(5)};
        enabled = QList<bool>{false, false, false, true, true, true};
    } else if (m_source == ResultSource::Proxy || m_source == ResultSource::Check) {
        // The proxy sees each request its client sends and what the client gets back, not the loops;
        // a check sends each request once, its probe says when to send the next.
        const bool check = m_source == ResultSource::Check;
        const QString outside = check ? tr("the check: no retry loop") : tr("your client: unseen");
        notes = QStringList{outside, outside, check ? tr("as the check sent it") : tr("as the proxy saw it"),
                            check ? tr("the check's proxy") : tr("the proxy's faults"), tr("your service"),
                            tr("resources it created")};
        enabled = QList<bool>{false, false, true, true, true, true};
    }
    m_selected = -1;
    m_scene->setOperation(m_result.trace, m_op, m_duplicates, notes, enabled);
    if (m_result.trace.isEmpty() && m_source == ResultSource::Watch)
        m_scene->setEmptyText(tr("Waiting for requests: send an order to the address in the Watch panel."));
    else if (m_result.trace.isEmpty() && m_source == ResultSource::Proxy)
        m_scene->setEmptyText(tr("Waiting for requests: point your client at the proxy's address."));
    else if (m_result.trace.isEmpty())
        m_scene->setEmptyText(m_result.ops.isEmpty() ? tr("Run a scenario to see its attempts here.")
                                                     : tr("This run was made without a trace: nothing to replay."));
    else
        m_scene->setEmptyText(tr("Operation %1 has no events in this run.").arg(m_op));

    const QList<EventPlan> &plans = m_scene->plans();
    m_byTime.clear();
    m_byTime.reserve(plans.size());
    for (int i = 0; i < plans.size(); ++i)
        m_byTime.append(i);
    std::stable_sort(m_byTime.begin(), m_byTime.end(),
                     [&plans](int a, int b) { return plans.at(a).t < plans.at(b).t; });

    m_clock.setTimes(m_scene->times());
    m_anim->setEndValue(qMax(1.0, m_clock.length()));
    m_anim->setDuration(qMax(1, int(std::lround(qMax(1.0, m_clock.length()) / m_speed))));
    updateSliderRange();
    showDetails(-1);
    m_fit = Fit::Readable;
    m_viewAtStart = false;
    applyFit();
    applyPlayhead(m_scene->playhead());
    updateCaption();
}

// ------------------------------------------------------------------ playback

qint64 TimelineWidget::playhead() const
{
    return m_scene->playhead();
}

void TimelineWidget::setPlayhead(qint64 t)
{
    m_viewAtStart = false;
    const QList<qint64> &times = m_scene->times();
    if (!times.isEmpty())
        t = qBound(times.first(), t, times.last());
    if (isPlaying()) {
        m_syncing = true;
        m_anim->setCurrentTime(int(std::lround(m_clock.storyAt(t) / m_speed)));
        m_syncing = false;
    }
    applyPlayhead(t);
}

void TimelineWidget::applyPlayhead(qint64 t)
{
    const bool moved = t != m_scene->playhead();
    m_scene->setPlayhead(t);
    {
        m_syncing = true;
        m_slider->setValue(int(std::lround(m_clock.storyAt(t))));
        m_syncing = false;
    }
    updateTimeLabel();
    updateCaption();
    if (!m_viewAtStart)
        followPlayhead();
    if (moved)
        Q_EMIT playheadMoved(t);
}

void TimelineWidget::stepNext()
{
    pause();
    const QList<qint64> &times = m_scene->times();
    auto it = std::upper_bound(times.cbegin(), times.cend(), playhead());
    if (it != times.cend())
        setPlayhead(*it);
}

void TimelineWidget::stepPrevious()
{
    pause();
    const QList<qint64> &times = m_scene->times();
    auto it = std::lower_bound(times.cbegin(), times.cend(), playhead());
    if (it != times.cbegin())
        setPlayhead(*(it - 1));
}

void TimelineWidget::seekToEnd()
{
    pause();
    if (!m_scene->times().isEmpty())
        setPlayhead(m_scene->times().last());
}

void TimelineWidget::showWhole()
{
    seekToEnd();
    m_viewAtStart = true;
    m_view->horizontalScrollBar()->setValue(m_view->horizontalScrollBar()->minimum());
    updateExposed();
}

void TimelineWidget::play()
{
    const QList<qint64> &times = m_scene->times();
    if (times.size() < 2 || isPlaying())
        return;
    m_viewAtStart = false;
    if (playhead() >= times.last())
        applyPlayhead(times.first());
    m_syncing = true;
    m_anim->stop();
    m_anim->setEndValue(qMax(1.0, m_clock.length()));
    m_anim->setDuration(qMax(1, int(std::lround(m_clock.length() / m_speed))));
    m_anim->start();
    m_anim->setCurrentTime(int(std::lround(m_clock.storyAt(playhead()) / m_speed)));
    m_syncing = false;
    updatePlayButton();
}

void TimelineWidget::pause()
{
    if (m_anim->state() != QAbstractAnimation::Stopped)
        m_anim->stop();
    updatePlayButton();
}

bool TimelineWidget::isPlaying() const
{
    return m_anim->state() == QAbstractAnimation::Running;
}

void TimelineWidget::setSpeed(double factor)
{
    if (!std::isfinite(factor))
        return;
    factor = qBound(kMinSpeed, factor, kMaxSpeed);
    int best = 0;
    for (int i = 0; i < m_speedCombo->count(); ++i) {
        if (std::abs(std::log(m_speedCombo->itemData(i).toDouble() / factor))
            < std::abs(std::log(m_speedCombo->itemData(best).toDouble() / factor)))
            best = i;
    }
    {
        const QSignalBlocker block(m_speedCombo);
        m_speedCombo->setCurrentIndex(best);
    }
    if (factor == m_speed)
        return;
    const bool playing = isPlaying();
    const double u = m_clock.storyAt(playhead());
    m_speed = factor;
    m_syncing = true;
    m_anim->setDuration(qMax(1, int(std::lround(qMax(1.0, m_clock.length()) / m_speed))));
    if (playing)
        m_anim->setCurrentTime(int(std::lround(u / m_speed)));
    m_syncing = false;
}

void TimelineWidget::updatePlayButton()
{
    const bool playing = isPlaying();
    m_playButton->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    m_playButton->setText(playing ? tr("Pause") : tr("Play"));
}

void TimelineWidget::updateSliderRange()
{
    m_syncing = true;
    m_slider->setRange(0, int(std::lround(m_clock.length())));
    m_slider->setSingleStep(int(timeline::StoryClock::MinStepMs));
    m_slider->setPageStep(int(timeline::StoryClock::MaxStepMs));
    m_slider->setEnabled(m_scene->times().size() > 1);
    m_syncing = false;
    const bool any = !m_scene->times().isEmpty();
    m_playButton->setEnabled(m_scene->times().size() > 1);
    m_prevButton->setEnabled(any);
    m_nextButton->setEnabled(any);
}

void TimelineWidget::updateCaption()
{
    QString text;
    const QList<EventPlan> &plans = m_scene->plans();
    const qint64 instant = m_scene->currentInstant();
    auto lo = std::lower_bound(m_byTime.cbegin(), m_byTime.cend(), instant,
                               [&plans](int p, qint64 t) { return plans.at(p).t < t; });
    int top = -1;
    int decision = -1;
    for (auto it = lo; it != m_byTime.cend() && plans.at(*it).t == instant; ++it) {
        const TraceEvent &e = m_scene->eventOf(*it);
        if (top < 0 || timeline::captionPriority(e.kind) >= timeline::captionPriority(m_scene->eventOf(top).kind))
            top = *it;
        if (e.kind == EventKind::RetryScheduled || e.kind == EventKind::GaveUp || e.kind == EventKind::BudgetExhausted)
            decision = *it;
    }
    if (top >= 0) {
        text = timeline::narration(m_scene->eventOf(top));
        // With optimistic concurrency an operation updates the shared row: nothing is "created".
        const TraceEvent &first = m_scene->eventOf(top);
        if (first.kind == EventKind::OpStart && first.sub <= 1 && m_result.scenario.server.model == ServerModel::Occ)
            text = tr("%1 starts: the client reads the shared row and wants its update written once.")
                       .arg(QStringLiteral("ORD-%1").arg(first.op, 4, 10, QLatin1Char('0')));
        // A timeout alone does not say what happens next: add the retry decision taken at the same instant.
        if (decision >= 0 && decision != top)
            text = timeline::joinSentences(text, timeline::narration(m_scene->eventOf(decision)));
        // The client's verdict is only half the story: add what the server really holds.
        const TraceEvent &e = m_scene->eventOf(top);
        if (e.kind == EventKind::OpSucceeded || e.kind == EventKind::OpFailed) {
            for (const OpSummary &op : std::as_const(m_result.ops)) {
                if (op.op == e.op) {
                    const QString outcome = story::outcome(op);
                    if (!outcome.isEmpty())
                        text = timeline::joinSentences(text, outcome);
                    break;
                }
            }
        }
    } else if (plans.isEmpty()) {
        text = m_result.trace.isEmpty() ? QString() : tr("Operation %1 has no events in this run.").arg(m_op);
    }
    if (text == m_caption)
        return;
    m_caption = text;
    m_captionLabel->setText(text);
    fitCaption();
}

void TimelineWidget::setCaptionScale(qreal largest)
{
    m_captionScale = largest;
    fitCaption();
}

void TimelineWidget::fitCaption()
{
    // Its width only (never its height) decides, so the layout converges.
    const int width = qMax(1, this->width() - m_captionLabel->contentsMargins().left() - m_captionLabel->contentsMargins().right());
    QFont captionFont = font();
    for (const qreal scale : CaptionScales) {
        captionFont.setPointSizeF(font().pointSizeF() * qMin(scale, m_captionScale));
        const QFontMetrics fm(captionFont);
        if (fm.boundingRect(QRect(0, 0, width, 1 << 20), Qt::TextWordWrap, m_caption).height() <= CaptionLines * fm.lineSpacing())
            break;
    }
    if (m_captionLabel->font() != captionFont)
        m_captionLabel->setFont(captionFont);
    const QFontMetrics fm(captionFont);
    m_captionLabel->setMinimumHeight(fm.lineSpacing() * (height() >= 620 ? 2 : 1) + 8);
}

QString TimelineWidget::caption() const
{
    return m_caption;
}

// ------------------------------------------------------------------ view

int TimelineWidget::itemCount() const
{
    return m_scene->eventItemCount();
}

QGraphicsScene *TimelineWidget::scene() const
{
    return m_scene;
}

void TimelineWidget::adaptToView()
{
    // Inputs a scroll bar cannot change: the viewport size as if there were no scroll bars, and the
    // scroll bars' extent. Which scroll bars the result needs is decided here, the way QGraphicsView
    // decides it, and their room is reserved; the view then shows exactly those.
    const QSize max = m_view->maximumViewportSize();
    m_viewInput = max;
    const int hExtent = m_view->horizontalScrollBar()->sizeHint().height();
    const int vExtent = m_view->verticalScrollBar()->sizeHint().width();
    const qreal weights = m_scene->laneWeightSum();
    auto laneFor = [weights](qreal h) {
        return qBound<qreal>(TimelineScene::kMinLaneHeight, (h - TimelineScene::kAxisHeight - kLaneMargin) / weights,
                             TimelineScene::kMaxLaneHeight);
    };
    auto zoomFor = [this](qreal w) {
        if (m_fit == Fit::None)
            return m_scene->zoom();
        // One pixel of slack: a fit that overshoots by a rounding error must not need a scroll bar.
        qreal zoom = m_scene->fitZoom(w - 1 - m_scene->labelWidth());
        // The automatic fit stays readable: a long operation scrolls instead of shrinking to a smear.
        if (m_fit == Fit::Readable)
            zoom = qBound<qreal>(0.45, zoom, 2.5);
        return zoom;
    };
    qreal w = max.width();
    qreal h = max.height();
    // The lane height first: the lane-name column widens for short lanes (notes beside the names), and
    // the zoom fits what is left. A fixed sequence of steps, so the layout always settles.
    qreal lane = laneFor(h);
    m_scene->setLaneHeight(lane);
    qreal zoom = zoomFor(w);
    const bool vertical = m_scene->contentHeightAt(lane) > h;
    if (m_scene->sceneWidthAt(zoom) > w) {
        h -= hExtent;
        lane = laneFor(h);
        m_scene->setLaneHeight(lane);
        zoom = zoomFor(w);
    }
    if (vertical || m_scene->contentHeightAt(lane) > h) {
        w -= vExtent;
        zoom = zoomFor(w);
    }
    m_scene->setZoom(zoom);
}

int TimelineWidget::viewHeightForLanes() const
{
    const qreal lanes = TimelineScene::kAxisHeight + kLaneMargin + TimelineScene::kMinLaneHeight * m_scene->laneWeightSum();
    const bool wide = m_scene->sceneWidthAt(m_scene->zoom()) > m_view->maximumViewportSize().width();
    const int bar = wide ? m_view->horizontalScrollBar()->sizeHint().height() : 0;
    return int(std::ceil(lanes)) + bar + 2 * m_view->frameWidth();
}

void TimelineWidget::updateExposed() const
{
    const QRectF visible = m_view->mapToScene(m_view->viewport()->rect()).boundingRect();
    m_scene->setExposedRange(visible.left(), visible.right(), m_view->isVisible());
}

int TimelineWidget::liveItemCount() const
{
    return m_scene->liveItemCount();
}

void TimelineWidget::fitToView()
{
    m_fit = Fit::Exact;
    applyFit();
}

void TimelineWidget::applyFit()
{
    adaptToView();
    if (m_fit == Fit::None)
        return;
    m_view->horizontalScrollBar()->setValue(m_view->horizontalScrollBar()->minimum());
    if (!m_viewAtStart)
        followPlayhead();
    updateExposed();
}

void TimelineWidget::zoomBy(double factor)
{
    zoomAround(factor, m_view->viewport()->rect().center());
}

void TimelineWidget::zoomAround(double factor, const QPoint &anchor)
{
    m_fit = Fit::None;
    const qreal sceneX = m_view->mapToScene(anchor).x();
    const qint64 t = m_scene->timeAtX(sceneX);
    m_scene->setZoom(m_scene->zoom() * factor);
    const qreal newX = m_scene->xOf(t);
    QScrollBar *h = m_view->horizontalScrollBar();
    h->setValue(h->value() + int(std::lround(m_view->mapFromScene(QPointF(newX, 0)).x() - anchor.x())));
    updateExposed();
}

void TimelineWidget::followPlayhead()
{
    if (m_scene->times().isEmpty())
        return;
    const QRectF visible = m_view->mapToScene(m_view->viewport()->rect()).boundingRect();
    const qreal left = visible.left() + m_scene->labelWidth();
    const qreal x = m_scene->playheadX();
    if (x >= left + 20 && x <= visible.right() - 60)
        return;
    const qreal content = visible.right() - left;
    const int viewportX = int(m_scene->labelWidth() + content * 0.3);
    QScrollBar *h = m_view->horizontalScrollBar();
    h->setValue(h->value() + m_view->mapFromScene(QPointF(x, 0)).x() - viewportX);
}

void TimelineWidget::showDetails(int traceIndex)
{
    m_selected = traceIndex;
    if (traceIndex < 0 || traceIndex >= m_result.trace.size()) {
        m_detailsLabel->setText(m_scene->eventItemCount() > 0
                                    ? tr("Click any bar, arrow or mark for its attempt path, request ID, key and status.")
                                    : QString());
        return;
    }
    QString text = timeline::details(m_result.trace.at(traceIndex));
    text.replace(QLatin1Char('\n'), QStringLiteral("   \u00b7   "));
    m_detailsLabel->setText(text);
}

QString TimelineWidget::detailsText() const
{
    return m_detailsLabel->text();
}

void TimelineWidget::selectEvent(int traceIndex)
{
    if (traceIndex < 0 || traceIndex >= m_result.trace.size()) {
        m_scene->clearSelection();
        showDetails(-1);
        return;
    }
    const int op = m_result.trace.at(traceIndex).op;
    if (op != m_op && op > 0)
        setOperation(op);
    TimelineEventItem *item = m_scene->itemForTrace(traceIndex);
    if (!item)
        return;
    {
        const QSignalBlocker block(m_scene);
        m_scene->clearSelection();
        item->setSelected(true);
    }
    m_view->ensureVisible(item->mapRectToScene(item->boundingRect()).adjusted(0, 0, 0, 0), 80, 20);
    showDetails(traceIndex);
}

void TimelineWidget::emphasiseLane(int lane)
{
    m_scene->setEmphasisedLane(lane);
    m_view->viewport()->update();
}

void TimelineWidget::updateTimeLabel()
{
    const QList<qint64> &times = m_scene->times();
    const QString now = timeline::formatAxisTime(m_scene->playhead(), 1000);
    // Before the reveal the total would tell how long the operation runs (a retry, a long wait).
    if (times.isEmpty())
        m_timeLabel->clear();
    else if (isAnswerHidden())
        m_timeLabel->setText(now);
    else
        m_timeLabel->setText(QStringLiteral("%1 / %2").arg(now, timeline::formatAxisTime(times.last(), 1000)));
}

void TimelineWidget::setAnswerHidden(bool hidden)
{
    m_scene->setFutureHidden(hidden);
    // A selected event the playhead has not reached would keep its path and status on show.
    if (hidden && m_selected >= 0 && m_selected < m_result.trace.size()
        && m_result.trace.at(m_selected).t > m_scene->playhead()) {
        m_scene->clearSelection();
        showDetails(-1);
    }
    updateTimeLabel();
    updateCaption();
    m_view->viewport()->update();
}

bool TimelineWidget::isAnswerHidden() const
{
    return m_scene->isFutureHidden();
}

QString TimelineWidget::exportTitle() const
{
    return tr("RetryLab \u00b7 %1 \u00b7 operation %2")
        .arg(m_result.scenario.title.isEmpty() ? m_result.scenario.name : i18n::content(m_result.scenario.title))
        .arg(m_op);
}

QString TimelineWidget::timeText() const
{
    return m_timeLabel->text();
}

int TimelineWidget::emphasisedLane() const
{
    return m_scene->emphasisedLane();
}

bool TimelineWidget::selectFirstEvent(EventKind kind)
{
    for (int i = 0; i < m_result.trace.size(); ++i) {
        const TraceEvent &e = m_result.trace.at(i);
        if (e.op == m_op && e.kind == kind) {
            selectEvent(i);
            return true;
        }
    }
    return false;
}

void TimelineWidget::updateOverviewHeight()
{
    m_overview->setVisibleHeight(m_overviewArea->viewport()->height());
}

// ------------------------------------------------------------------ events

void TimelineWidget::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Space:
        isPlaying() ? pause() : play();
        break;
    case Qt::Key_Left:
        stepPrevious();
        break;
    case Qt::Key_Right:
        stepNext();
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.25);
        break;
    case Qt::Key_Minus:
        zoomBy(0.8);
        break;
    case Qt::Key_Home:
        pause();
        if (!m_scene->times().isEmpty())
            setPlayhead(m_scene->times().first());
        break;
    case Qt::Key_End:
        seekToEnd();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void TimelineWidget::setStrokeScale(qreal scale)
{
    m_scene->setStrokeScale(scale);
    m_view->viewport()->update();
}

void TimelineWidget::setOverviewAllowed(bool allowed)
{
    if (allowed == m_overviewAllowed)
        return;
    m_overviewAllowed = allowed;
    const bool roomy = height() >= 620;
    m_overviewTitle->setVisible(roomy && allowed);
    m_overviewArea->setVisible(roomy && allowed);
    updateOverviewHeight();
}

qreal TimelineWidget::strokeScale() const
{
    return m_scene->strokeScale();
}

void TimelineWidget::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    switch (event->type()) {
    case QEvent::PaletteChange:
    case QEvent::StyleChange:
        m_scene->setColors(timeline::Colors::fromPalette(palette()));
        m_view->viewport()->update();
        m_overview->update();
        break;
    case QEvent::FontChange: {
        m_scene->setBaseFont(font());
        fitCaption();
        // The lane name column follows the font: a fitted operation is fitted again.
        applyFit();
        break;
    }
    default:
        break;
    }
}

void TimelineWidget::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // When squeezed (docks below it), the swimlanes keep the room: the overview and legend go first.
    const bool roomy = height() >= 620;
    m_legend->setVisible(roomy && m_legendAllowed);
    m_overviewTitle->setVisible(roomy && m_overviewAllowed);
    m_overviewArea->setVisible(roomy && m_overviewAllowed);
    m_detailsLabel->setVisible(height() >= 420);
    fitCaption();
    updateOverviewHeight();
}

// ------------------------------------------------------------------ export

bool TimelineWidget::exportImage(const QString &fileName, QString *error, const QSize &slideSize) const
{
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg")) {
        if (error)
            *error = tr("unsupported image type \"%1\": use .png or .svg").arg(suffix);
        return false;
    }
    const bool slide = slideSize.isValid() && !slideSize.isEmpty();
    const timeline::Colors &c = m_scene->colors();
    const QString title = exportTitle();
    // A slide is laid out on a 1280x720-like canvas and scaled up: at 1920x1080 every font is 1.5 times
    // its size on screen. The scene is fitted to the canvas, then put back as it was.
    const qreal slideScale = slide ? qMax<qreal>(0.5, qMin(slideSize.width() / 1280.0, slideSize.height() / 720.0)) : 1.0;
    const QSizeF canvas = slide ? QSizeF(slideSize) / slideScale : QSizeF();
    const qreal header = slide ? 56 : 34;
    const qreal savedZoom = m_scene->zoom();
    const qreal savedLane = m_scene->laneHeight();
    const int savedScroll = m_view->horizontalScrollBar()->value();
    if (slide) {
        const qreal lanes = (canvas.height() - header - TimelineScene::kAxisHeight - 18) / m_scene->laneWeightSum();
        m_scene->setLaneHeight(qBound<qreal>(40, lanes, 110));
        m_scene->setZoom(m_scene->fitZoom(canvas.width() - m_scene->labelWidth() - 1));
    }
    // Every event is drawn: a long operation gets all its items for as long as the export takes.
    m_scene->materializeAll();
    const QRectF source = m_scene->sceneRect();
    // Very long operations are scaled down rather than written as a gigantic bitmap.
    const qreal scale = slide ? slideScale : qMin<qreal>(1.0, 16000.0 / source.width());
    const QSize size = slide ? slideSize
                             : QSize(int(std::ceil(source.width() * scale)), int(std::ceil((source.height() + header) * scale)));
    const qreal pageWidth = slide ? canvas.width() : source.width();
    const qreal pageHeight = slide ? canvas.height() : source.height() + header;
    auto render = [&](QPainter *p) {
        p->setRenderHint(QPainter::Antialiasing);
        p->setRenderHint(QPainter::TextAntialiasing);
        p->scale(scale, scale);
        p->fillRect(QRectF(0, 0, pageWidth, pageHeight), c.base);
        QFont f = m_scene->labelFont();
        f.setPointSizeF(f.pointSizeF() * (slide ? 1.5 : 1.2));
        p->setFont(f);
        p->setPen(c.text);
        p->drawText(QRectF(12, 0, pageWidth - 24, header), Qt::AlignLeft | Qt::AlignVCenter,
                    QFontMetricsF(f).elidedText(title, Qt::ElideRight, pageWidth - 24));
        const QRectF target(0, header, qMin(source.width(), pageWidth), qMin(source.height(), pageHeight - header));
        m_scene->render(p, target, QRectF(source.topLeft(), target.size()), Qt::IgnoreAspectRatio);
    };
    auto restore = qScopeGuard([&] {
        if (slide) {
            m_scene->setLaneHeight(savedLane);
            m_scene->setZoom(savedZoom);
            m_view->horizontalScrollBar()->setValue(savedScroll);
        }
        updateExposed();
    });
    if (suffix == QLatin1String("png")) {
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(c.base);
        {
            QPainter p(&image);
            render(&p);
        }
        if (!image.save(fileName, "PNG")) {
            if (error)
                *error = tr("cannot write \"%1\"").arg(fileName);
            return false;
        }
        return true;
    }
    QSvgGenerator svg;
    svg.setFileName(fileName);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(title);
    svg.setDescription(tr("Attempt timeline exported from RetryLab"));
    QPainter p;
    if (!p.begin(&svg)) {
        if (error)
            *error = tr("cannot write \"%1\"").arg(fileName);
        return false;
    }
    render(&p);
    p.end();
    if (!QFileInfo(fileName).exists() || QFileInfo(fileName).size() == 0) {
        if (error)
            *error = tr("cannot write \"%1\"").arg(fileName);
        return false;
    }
    return true;
}

void TimelineWidget::setOperationPickerVisible(bool visible)
{
    m_opSpin->setVisible(visible);
}

void TimelineWidget::setControlBarVisible(bool visible)
{
    for (QWidget *w : std::initializer_list<QWidget *>{m_prevButton, m_playButton, m_nextButton, m_speedCombo, m_slider,
                                                       m_timeLabel, m_zoomOutButton, m_zoomInButton, m_fitButton})
        w->setVisible(visible);
}

void TimelineWidget::setLegendAllowed(bool allowed)
{
    m_legendAllowed = allowed;
    m_legend->setVisible(allowed && height() >= 620);
}

} // namespace retrylab
