#include "compare/comparewindow.h"
#include "i18n.h"

#include "compare/comparechart.h"
#include "story.h"
#include "timeline/timelinelayout.h"
#include "timeline/timelineoverview.h"
#include "timeline/timelinescene.h"
#include "timeline/timelineview.h"
#include "timeline/timelinewidget.h"
#include "work.h"

#include <QComboBox>
#include <QEvent>
#include <QGuiApplication>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QResizeEvent>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QVariantAnimation>

#include <algorithm>
#include <array>
#include <cmath>

namespace retrylab {

namespace {

// The chart's colours: A blue, B orange (Okabe-Ito), so a title says which lines are whose.
const QColor ColorA(0, 114, 178);
const QColor ColorB(213, 94, 0);

// A relative change the summary table marks (bold, and green or red when one way is better).
constexpr double SignificantChange = 0.05;

enum Column { MetricColumn, AColumn, BColumn, DifferenceColumn, ChangeColumn, ColumnCount };

TimelineScene *sceneOf(const TimelineWidget *w)
{
    return static_cast<TimelineScene *>(w->scene());
}

QToolButton *playbackButton(QWidget *parent, QStyle::StandardPixmap icon, const QString &text, const QString &tip)
{
    auto *b = new QToolButton(parent);
    b->setIcon(parent->style()->standardIcon(icon));
    b->setText(text);
    b->setToolTip(tip);
    b->setToolButtonStyle(text.isEmpty() ? Qt::ToolButtonIconOnly : Qt::ToolButtonTextBesideIcon);
    b->setAutoRaise(true);
    b->setFocusPolicy(Qt::NoFocus);
    return b;
}

} // namespace

CompareWindow::CompareWindow(QWidget *parent)
    : QWidget(parent, Qt::Window)
{
    setObjectName(QStringLiteral("compareWindow"));
    buildUi();
    if (const QScreen *screen = QGuiApplication::primaryScreen()) {
        const QSize available = screen->availableSize();
        // Most of the screen: two timelines side by side need the width.
        resize(int(available.width() * 0.92), int(available.height() * 0.92));
    } else {
        resize(1280, 720);
    }
}

CompareWindow::~CompareWindow()
{
    // A run in flight holds its own copy of the flag: stop it, its result goes nowhere.
    if (m_cancel)
        m_cancel->store(true);
    // The timelines, deleted with the children after this body, hide their views (resized()) and
    // move their playheads: their lambdas must not run on a CompareWindow already destroyed.
    for (TimelineWidget *t : {m_timelineA, m_timelineB}) {
        disconnect(t, nullptr, this, nullptr);
        disconnect(t->view(), nullptr, this, nullptr);
    }
}

void CompareWindow::buildUi()
{
    setWindowTitle(tr("RetryLab \u00b7 Compare"));
    QHBoxLayout *top = buildTopRow();
    QWidget *upper = buildTimelines();
    QSplitter *lower = buildSummary();

    m_rows = new QSplitter(Qt::Vertical, this);
    QSplitter *rows = m_rows;
    rows->setObjectName(QStringLiteral("compareRows"));
    rows->setChildrenCollapsible(false);
    rows->addWidget(upper);
    rows->addWidget(lower);
    rows->setStretchFactor(0, 1);
    rows->setStretchFactor(1, 0);
    // The split follows the window until the user drags it (placeRows: the lanes first).
    connect(rows, &QSplitter::splitterMoved, this, [this] { m_rowsMovedByUser = true; });

    auto *root = new QVBoxLayout(this);
    root->setContentsMargins(8, 6, 8, 6);
    root->setSpacing(4);
    root->addWidget(m_heading);
    root->addLayout(top);
    root->addWidget(rows, 1);

    connectPlayback();
    createKeys();
    applyFonts();
    updatePlayButton();
}

// The heading, what B changes, the operation, the seed and the progress of the two runs.
QHBoxLayout *CompareWindow::buildTopRow()
{
    m_heading = new QLabel(this);
    m_heading->setObjectName(QStringLiteral("compareHeading"));
    m_heading->setTextFormat(Qt::PlainText);
    m_heading->setWordWrap(true);

    m_variantBox = new QComboBox(this);
    m_variantBox->setObjectName(QStringLiteral("compareToggle"));
    m_variantBox->setToolTip(tr("What B changes: one toggle of the scenario A. Both run with the same seed."));
    m_variantBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_variantBox->setFocusPolicy(Qt::ClickFocus);
    auto *variantLabel = new QLabel(tr("&B changes:"), this);
    variantLabel->setBuddy(m_variantBox);

    m_opSpin = new QSpinBox(this);
    m_opSpin->setObjectName(QStringLiteral("compareOperation"));
    m_opSpin->setRange(1, 1);
    m_opSpin->setToolTip(tr("The operation (order) both timelines show"));
    m_opSpin->setFocusPolicy(Qt::ClickFocus);
    auto *opLabel = new QLabel(tr("&Operation:"), this);
    opLabel->setBuddy(m_opSpin);

    m_seedLabel = new QLabel(this);
    m_seedLabel->setForegroundRole(QPalette::PlaceholderText);

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("compareProgress"));
    m_progress->setRange(0, 2);
    m_progress->setFormat(tr("running %v of 2"));
    m_progress->setMaximumWidth(180);
    m_progress->hide();
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_cancelButton->setObjectName(QStringLiteral("compareCancel"));
    m_cancelButton->setFocusPolicy(Qt::NoFocus);
    m_cancelButton->hide();
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("compareStatus"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);

    auto *top = new QHBoxLayout;
    top->setSpacing(8);
    top->addWidget(variantLabel);
    top->addWidget(m_variantBox);
    top->addSpacing(16);
    top->addWidget(opLabel);
    top->addWidget(m_opSpin);
    top->addSpacing(16);
    top->addWidget(m_seedLabel);
    top->addSpacing(16);
    top->addWidget(m_progress);
    top->addWidget(m_cancelButton);
    top->addWidget(m_status, 1);

    return top;
}

QWidget *CompareWindow::buildTimelines()
{
    // The two columns: the headings in one grid, so that A's and B's lanes start at the same height
    // whatever wraps, and the timelines below them with the same width.
    const auto heading = [this](QLabel **label, const QString &name, bool title) {
        *label = new QLabel(this);
        (*label)->setObjectName(QStringLiteral("compare%1%2").arg(title ? QStringLiteral("Title") : QStringLiteral("Changes"), name));
        (*label)->setTextFormat(Qt::PlainText);
        (*label)->setWordWrap(true);
        (*label)->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        if (!title) {
            (*label)->setForegroundRole(QPalette::PlaceholderText);
            (*label)->setTextInteractionFlags(Qt::TextSelectableByMouse);
        }
    };
    heading(&m_titleA, QStringLiteral("A"), true);
    heading(&m_titleB, QStringLiteral("B"), true);
    heading(&m_changesA, QStringLiteral("A"), false);
    heading(&m_changesB, QStringLiteral("B"), false);
    const auto timeline = [this](const QString &name) {
        auto *t = new TimelineWidget(this);
        t->setObjectName(QStringLiteral("compareTimeline%1").arg(name));
        t->setOperationPickerVisible(false);
        // One playback bar and one key, across the window, drive and explain both.
        t->setControlBarVisible(false);
        t->setLegendAllowed(false);
        return t;
    };
    m_timelineA = timeline(QStringLiteral("A"));
    m_timelineB = timeline(QStringLiteral("B"));
    auto *columns = new QGridLayout;
    columns->setContentsMargins(0, 0, 0, 0);
    columns->setHorizontalSpacing(12);
    columns->setVerticalSpacing(2);
    columns->addWidget(m_titleA, 0, 0);
    columns->addWidget(m_titleB, 0, 1);
    columns->addWidget(m_changesA, 1, 0);
    columns->addWidget(m_changesB, 1, 1);
    columns->addWidget(m_timelineA, 2, 0);
    columns->addWidget(m_timelineB, 2, 1);
    columns->setColumnStretch(0, 1);
    columns->setColumnStretch(1, 1);
    columns->setRowStretch(2, 1);

    // One playback for both.
    m_prevButton = playbackButton(this, QStyle::SP_MediaSeekBackward, QString(), tr("Previous event of A or B (Left)"));
    m_playButton = playbackButton(this, QStyle::SP_MediaPlay, tr("Play both"), tr("Play / pause both timelines (Space)"));
    m_nextButton = playbackButton(this, QStyle::SP_MediaSeekForward, QString(), tr("Next event of A or B (Right)"));
    m_playButton->setObjectName(QStringLiteral("comparePlay"));
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setObjectName(QStringLiteral("compareScrub"));
    m_slider->setToolTip(tr("Scrub both timelines through the operation"));
    m_slider->setFocusPolicy(Qt::NoFocus);
    m_timeLabel = new QLabel(this);
    m_timeLabel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_timeLabel->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("00.000 s / 00.000 s")) + 8);
    auto *playback = new QHBoxLayout;
    playback->setContentsMargins(4, 0, 4, 0);
    playback->addWidget(m_prevButton);
    playback->addWidget(m_playButton);
    playback->addWidget(m_nextButton);
    playback->addWidget(m_slider, 1);
    playback->addWidget(m_timeLabel);

    auto *upper = new QWidget(this);
    auto *upperLayout = new QVBoxLayout(upper);
    upperLayout->setContentsMargins(0, 0, 0, 0);
    upperLayout->setSpacing(2);
    upperLayout->addLayout(columns, 1);
    upperLayout->addLayout(playback);
    auto *legend = new TimelineLegend(this);
    legend->setObjectName(QStringLiteral("compareLegend"));
    upperLayout->addWidget(legend);

    return upper;
}

QSplitter *CompareWindow::buildSummary()
{
    // The chart and the difference summary.
    m_chart = new CompareChart(this);
    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("compareSummary"));
    m_table->setHorizontalHeaderLabels(
            {tr("Metric"), tr("A"), tr("B"), tr("B \u2212 A"), tr("Change")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setFocusPolicy(Qt::NoFocus);
    m_table->setShowGrid(false);
    m_table->setAlternatingRowColors(true);
    // One line a row: a metric name wrapped at one width and not at another made rows of uneven
    // height, and a row taller than the others pushed the last one out (its tooltip has it whole).
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->horizontalHeader()->setSectionResizeMode(MetricColumn, QHeaderView::Stretch);
    for (int c = AColumn; c < ColumnCount; ++c)
        m_table->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_table->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    auto *lower = new QSplitter(Qt::Horizontal, this);
    lower->setChildrenCollapsible(false);
    lower->addWidget(m_chart);
    lower->addWidget(m_table);
    lower->setStretchFactor(0, 1);
    lower->setStretchFactor(1, 1);

    return lower;
}

void CompareWindow::connectPlayback()
{
    m_anim = new QVariantAnimation(this);
    m_anim->setObjectName(QStringLiteral("comparePlayback"));
    m_anim->setStartValue(0.0);
    m_anim->setEndValue(1.0);
    m_anim->setDuration(1000);
    connect(m_anim, &QVariantAnimation::valueChanged, this, [this](const QVariant &v) {
        if (!m_syncing)
            applyPlayhead(m_clock.timeAt(v.toDouble()));
    });
    connect(m_anim, &QAbstractAnimation::stateChanged, this, &CompareWindow::updatePlayButton);

    connect(m_playButton, &QToolButton::clicked, this, &CompareWindow::togglePlayback);
    connect(m_prevButton, &QToolButton::clicked, this, &CompareWindow::stepPrevious);
    connect(m_nextButton, &QToolButton::clicked, this, &CompareWindow::stepNext);
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) {
        if (m_syncing)
            return;
        pause();
        applyPlayhead(m_clock.timeAt(v));
    });
    connect(m_variantBox, &QComboBox::activated, this, [this](int) { rerun(); });
    connect(m_opSpin, &QSpinBox::valueChanged, this, [this](int op) { setOperation(op); });
    connect(m_cancelButton, &QPushButton::clicked, this, &CompareWindow::cancel);
    for (TimelineWidget *t : {m_timelineA, m_timelineB}) {
        // A timeline's own controls (its slider, a click in its overview) move the other one too.
        connect(t, &TimelineWidget::playheadMoved, this, [this, t](qint64 time) { followTimeline(t, time); });
        connect(t, &TimelineWidget::operationChanged, this, [this](int op) {
            if (!m_syncing)
                setOperation(op);
        });
        connect(t->view(), &TimelineView::resized, this, [this] {
            // A narration that wraps to another line takes it from the view: the split follows.
            placeRowsLater();
            if (m_alignQueued)
                return;
            m_alignQueued = true;
            QTimer::singleShot(0, this, [this] {
                m_alignQueued = false;
                alignTimeAxes();
            });
        });
    }
}

void CompareWindow::createKeys()
{
    // Keys: the window's, whatever has the focus inside it (a timeline handles Space itself otherwise).
    const auto key = [this](const QKeySequence &k, auto slot) {
        auto *s = new QShortcut(k, this);
        s->setContext(Qt::WindowShortcut);
        connect(s, &QShortcut::activated, this, slot);
    };
    key(QKeySequence(Qt::Key_Space), &CompareWindow::togglePlayback);
    key(QKeySequence(Qt::Key_MediaTogglePlayPause), &CompareWindow::togglePlayback);
    key(QKeySequence(Qt::Key_Left), &CompareWindow::stepPrevious);
    key(QKeySequence(Qt::Key_Right), &CompareWindow::stepNext);
    key(QKeySequence(Qt::Key_Escape), &QWidget::close);
}

void CompareWindow::applyFonts()
{
    QFont heading = font();
    heading.setPointSizeF(font().pointSizeF() * 1.35);
    heading.setBold(true);
    m_heading->setFont(heading);
    QFont title = font();
    title.setPointSizeF(font().pointSizeF() * 1.3);
    title.setBold(true);
    m_titleA->setFont(title);
    m_titleB->setFont(title);
    QPalette pa = m_titleA->palette();
    pa.setColor(QPalette::WindowText, ColorA);
    m_titleA->setPalette(pa);
    QPalette pb = m_titleB->palette();
    pb.setColor(QPalette::WindowText, ColorB);
    m_titleB->setPalette(pb);
    // The numbers a class reads from the back of the room: larger when the window has the height.
    QFont table = font();
    table.setPointSizeF(font().pointSizeF() * (height() >= 900 ? 1.35 : height() >= 800 ? 1.15 : 1.0));
    m_table->setFont(table);
    QFont header = table;
    header.setBold(true);
    m_table->horizontalHeader()->setFont(header);
}

void CompareWindow::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    placeRowsLater();
    // On a 720-line projector the lanes need the room more than the heading does (the window
    // title still names the scenario).
    m_heading->setVisible(height() >= 800);
    if (auto *legend = findChild<TimelineLegend *>(QStringLiteral("compareLegend")))
        legend->setVisible(height() >= 800);
    // The settings B changes, spelled as field paths, wrap to two or three lines: below 800 lines B's
    // title names the change and the paths are its tooltip.
    for (QLabel *changes : {m_changesA, m_changesB})
        changes->setVisible(height() >= 800);
    // Sizes step at 800 and 900 lines: below 800 the narration (large in a timeline of its own)
    // and the table shrink so that the lanes keep their room; from 900 the table grows.
    const auto band = [](int h) { return h >= 900 ? 2 : h >= 800 ? 1 : 0; };
    if (band(height()) != band(event->oldSize().height()) || !event->oldSize().isValid()) {
        applyFonts();
        fillTable();
        for (TimelineWidget *t : {m_timelineA, m_timelineB})
            t->setCaptionScale(band(height()) == 0 ? 1.2 : 1.6);
    }
}

void CompareWindow::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        applyFonts();
        fillTable();
    }
}

// ------------------------------------------------------------------ scenarios and runs

void CompareWindow::setScenario(const Scenario &scenario, int operation)
{
    m_a = scenario;
    m_requestedOperation = operation;
    m_variants.clear();
    const QList<WhatIfVariant> all = compare::variants(scenario);
    for (const WhatIfVariant &v : all) {
        if (!v.changes.isEmpty())
            m_variants.append(v);
    }
    const WhatIfVariant preferred = compare::defaultVariant(scenario);
    {
        const QSignalBlocker block(m_variantBox);
        m_variantBox->clear();
        int current = 0;
        for (int i = 0; i < m_variants.size(); ++i) {
            const WhatIfVariant &v = m_variants.at(i);
            m_variantBox->addItem(v.label, i);
            m_variantBox->setItemData(i, compare::toggleLabel(v.changes), Qt::ToolTipRole);
            if (v.changes == preferred.changes)
                current = i;
        }
        if (m_variants.isEmpty())
            m_variantBox->addItem(tr("nothing to change: no retry layer, no key to toggle"));
        m_variantBox->setCurrentIndex(current);
        m_variantBox->setEnabled(!m_variants.isEmpty());
    }
    const QString name = scenario.title.isEmpty() ? scenario.name : i18n::content(scenario.title);
    m_heading->setText(tr("Compare: %1").arg(name));
    setWindowTitle(tr("RetryLab \u00b7 Compare \u00b7 %1").arg(scenario.name));
    m_seedLabel->setText(tr("same seed: %1").arg(scenario.seed));
    rerun();
}

Scenario CompareWindow::scenarioB() const
{
    const int i = variantIndex();
    return compare::withSeedOf(m_a, i >= 0 ? m_variants.at(i).scenario : m_a);
}

int CompareWindow::variantIndex() const
{
    if (m_variants.isEmpty())
        return -1;
    return qBound(0, m_variantBox->currentIndex(), int(m_variants.size() - 1));
}

void CompareWindow::setVariantIndex(int index)
{
    if (index < 0 || index >= m_variants.size())
        return;
    m_variantBox->setCurrentIndex(index);
    rerun();
}

void CompareWindow::rerun()
{
    startRun();
}

void CompareWindow::cancel()
{
    ++m_generation;
    if (m_cancel)
        m_cancel->store(true);
    m_cancel.reset();
    if (m_running)
        m_status->setText(tr("Cancelled: the tables show the previous comparison."));
    setRunning(false);
}

void CompareWindow::startRun()
{
    const quint64 generation = ++m_generation;
    if (m_cancel)
        m_cancel->store(true);
    m_cancel.reset();
    pause();
    const Scenario b = scenarioB();
    const qint64 worst = work::estimate(m_a).attempts + work::estimate(b).attempts;
    if (worst > work::DefaultMaxTracedAttempts) {
        setRunning(false);
        m_status->setText(tr("Not run: A and B could make up to %1 HTTP attempts together, more than the %2 the "
                             "window keeps in memory. Compare them with the command line (retrylab compare).")
                                  .arg(work::formatCount(worst), work::formatCount(work::DefaultMaxTracedAttempts)));
        return;
    }
    m_status->clear();
    m_cancel = std::make_shared<std::atomic_bool>(false);
    auto *watcher = new QFutureWatcher<CompareResult>(this);
    connect(watcher, &QFutureWatcher<CompareResult>::finished, this, [this, generation, watcher] {
        watcher->deleteLater();
        if (generation != m_generation) {
            Q_EMIT runDropped(); // superseded or cancelled
            return;
        }
        m_watcher = nullptr;
        if (watcher->future().resultCount() == 0 || watcher->result().cancelled) {
            setRunning(false);
            Q_EMIT runDropped();
            return;
        }
        m_result = watcher->result();
        m_hasResult = true;
        setRunning(false);
        showResult();
    });
    connect(watcher, &QFutureWatcher<CompareResult>::progressValueChanged, m_progress, &QProgressBar::setValue);
    m_progress->setValue(0);
    m_watcher = watcher;
    setRunning(true);
    watcher->setFuture(compare::start(m_a, b, true, m_cancel));
    // A quick comparison never shows its progress: only one that takes a moment does.
    QTimer::singleShot(300, this, [this, generation] {
        if (m_running && generation == m_generation) {
            m_progress->show();
            m_cancelButton->show();
            m_status->setText(tr("Running A and B\u2026"));
        }
    });
}

void CompareWindow::setRunning(bool running)
{
    if (!running) {
        m_progress->hide();
        m_cancelButton->hide();
        if (m_status->text() == tr("Running A and B\u2026"))
            m_status->clear();
    }
    if (m_running == running)
        return;
    m_running = running;
    Q_EMIT runningChanged(running);
}

void CompareWindow::showResult()
{
    updateTitles();
    fillTable();
    const QString nameA = tr("A");
    const QString nameB = tr("B");
    m_chart->setCurves(compare::curves(m_result.a), compare::curves(m_result.b), nameA, nameB);

    int op = m_requestedOperation > 0 ? m_requestedOperation : (m_hasResult ? operation() : 0);
    if (m_requestedOperation <= 0 && op <= 1)
        op = storyOperation(m_result.a);
    m_requestedOperation = 0;
    const int count = std::max({1, m_result.a.scenario.workload.orders, m_result.b.scenario.workload.orders,
                                int(m_result.a.ops.size()), int(m_result.b.ops.size())});
    m_syncing = true;
    m_timelineA->setResult(m_result.a);
    m_timelineB->setResult(m_result.b);
    {
        const QSignalBlocker block(m_opSpin);
        m_opSpin->setRange(1, count);
        m_opSpin->setValue(qBound(1, op, count));
    }
    m_timelineA->setOperation(m_opSpin->value());
    m_timelineB->setOperation(m_opSpin->value());
    m_syncing = false;
    onOperationShown();
    Q_EMIT resultShown();
}

void CompareWindow::updateTitles()
{
    m_titleA->setText(tr("A \u00b7 the scenario as it is"));
    m_changesA->setText(tr("%1 \u00b7 %2 duplicates, %3 POST attempts")
                                .arg(m_a.name)
                                .arg(m_result.a.metrics.duplicates)
                                .arg(m_result.a.metrics.httpAttempts));
    m_titleA->setToolTip(m_changesA->text());
    const int i = variantIndex();
    if (i < 0) {
        m_titleB->setText(tr("B \u00b7 the same settings"));
        m_changesB->setText(tr("Nothing to toggle in this scenario."));
        return;
    }
    const WhatIfVariant &v = m_variants.at(i);
    m_titleB->setText(tr("B \u00b7 %1").arg(v.label));
    m_changesB->setText(compare::toggleLabel(v.changes));
    m_changesB->setToolTip(whatif::describe(v.changes));
    m_titleB->setToolTip(compare::toggleLabel(v.changes));
}

void CompareWindow::fillTable()
{
    const CompareSummary &s = m_result.summary;
    m_table->setRowCount(int(s.rows.size()));
    const QPalette p = palette();
    const bool dark = p.color(QPalette::Base).lightness() < 128;
    const QColor betterBg = dark ? QColor(20, 90, 40) : QColor(214, 240, 219);
    const QColor worseBg = dark ? QColor(110, 30, 30) : QColor(250, 218, 214);
    const QColor betterFg = dark ? QColor(200, 255, 210) : QColor(0, 90, 30);
    const QColor worseFg = dark ? QColor(255, 210, 205) : QColor(150, 20, 10);
    QFont bold = m_table->font();
    bold.setBold(true);
    for (int r = 0; r < s.rows.size(); ++r) {
        const CompareRow &row = s.rows.at(r);
        const auto cell = [&](int column, const QString &text, Qt::Alignment align) {
            auto *item = new QTableWidgetItem(text);
            item->setTextAlignment(align | Qt::AlignVCenter);
            m_table->setItem(r, column, item);
            return item;
        };
        QTableWidgetItem *metric = cell(MetricColumn, row.label, Qt::AlignLeft);
        metric->setData(Qt::UserRole, row.key);
        metric->setToolTip(row.label);
        cell(AColumn, compare::formatValue(row, row.a), Qt::AlignRight);
        cell(BColumn, compare::formatValue(row, row.b), Qt::AlignRight);
        QTableWidgetItem *diff = cell(DifferenceColumn, compare::formatDifference(row), Qt::AlignRight);
        QTableWidgetItem *change = cell(ChangeColumn, compare::formatRelative(row), Qt::AlignRight);
        // Marked only when it matters: a change of 5% or more, or from nothing to something. A
        // latency 0.5% apart is noise to a class, and colour on every row would hide the big ones.
        const std::optional<double> relative = row.relative();
        const bool significant = row.a != row.b && (!relative || std::abs(*relative) >= SignificantChange);
        const int verdict = significant ? row.verdict() : 0;
        if (significant) {
            for (QTableWidgetItem *item : {diff, change})
                item->setFont(bold);
        }
        if (verdict != 0) {
            for (QTableWidgetItem *item : {diff, change}) {
                item->setBackground(verdict > 0 ? betterBg : worseBg);
                item->setForeground(verdict > 0 ? betterFg : worseFg);
                item->setToolTip(verdict > 0 ? tr("B is better here") : tr("B is worse here"));
            }
        }
    }
    m_table->resizeRowsToContents();
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setSectionResizeMode(MetricColumn, QHeaderView::Stretch);
    // The records and duplicates rows (the first) always in view; the rest where the lanes leave room.
    m_table->setMinimumHeight(tableHeight(MinTableRows));
    placeRowsLater();
}

int CompareWindow::tableHeight(int rows) const
{
    int height = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth();
    for (int r = 0; r < std::min(rows, m_table->rowCount()); ++r)
        height += m_table->rowHeight(r);
    return height;
}

void CompareWindow::placeRowsLater()
{
    if (m_placeQueued)
        return;
    m_placeQueued = true;
    QTimer::singleShot(0, this, [this] {
        m_placeQueued = false;
        placeRows();
    });
}

void CompareWindow::placeRows()
{
    // The lanes first: Database, where the duplicates are, must be in view on a 720-line projector.
    // The timelines get the height their six lanes need at the smallest lane height a timeline
    // draws; the chart and the table the rest, every row of the table when it fits, at least the
    // first MinTableRows (it scrolls then). Computed from the timelines' fixed parts and the
    // window's height, which the split does not change, so it settles in one step.
    if (m_rowsMovedByUser || !isVisible())
        return;
    const QList<int> sizes = m_rows->sizes();
    const int total = sizes.value(0) + sizes.value(1);
    if (total <= 0)
        return;
    int viewNeed = 0;
    int viewNow = 0;
    for (TimelineWidget *t : {m_timelineA, m_timelineB}) {
        viewNeed = std::max(viewNeed, t->viewHeightForLanes());
        viewNow = std::max(viewNow, t->view()->height());
    }
    const int upperNeed = sizes.value(0) - viewNow + viewNeed;
    const int lower = qBound(tableHeight(MinTableRows), total - upperNeed, tableHeight(m_table->rowCount()));
    if (lower != sizes.value(1))
        m_rows->setSizes({total - lower, lower});
}

// ------------------------------------------------------------------ operation and playback

int CompareWindow::operation() const
{
    return m_opSpin->value();
}

void CompareWindow::setOperation(int op)
{
    if (op < 1)
        return;
    pause();
    const bool changed = op != m_timelineA->operation() || op != m_timelineB->operation();
    m_syncing = true;
    {
        const QSignalBlocker block(m_opSpin);
        if (op > m_opSpin->maximum())
            m_opSpin->setMaximum(op);
        m_opSpin->setValue(op);
    }
    m_timelineA->setOperation(op);
    m_timelineB->setOperation(op);
    m_syncing = false;
    if (changed)
        onOperationShown();
}

void CompareWindow::onOperationShown()
{
    rebuildTimes();
    alignTimeAxes();
    placeRowsLater(); // an operation without retries has compact lanes
    applyPlayhead(m_times.isEmpty() ? 0 : m_times.first());
}

void CompareWindow::rebuildTimes()
{
    const QList<qint64> &a = sceneOf(m_timelineA)->times();
    const QList<qint64> &b = sceneOf(m_timelineB)->times();
    m_times.clear();
    m_times.reserve(a.size() + b.size());
    std::set_union(a.cbegin(), a.cend(), b.cbegin(), b.cend(), std::back_inserter(m_times));
    m_clock.setTimes(m_times);
    const double length = m_clock.length();
    m_anim->stop();
    m_anim->setEndValue(std::max(1.0, length));
    m_anim->setDuration(std::max(1, int(std::lround(length))));
    m_syncing = true;
    m_slider->setRange(0, int(std::lround(length)));
    m_slider->setSingleStep(int(timeline::StoryClock::MinStepMs));
    m_slider->setPageStep(int(timeline::StoryClock::MaxStepMs));
    m_slider->setEnabled(m_times.size() > 1);
    m_syncing = false;
    m_playButton->setEnabled(m_times.size() > 1);
    m_prevButton->setEnabled(!m_times.isEmpty());
    m_nextButton->setEnabled(!m_times.isEmpty());
}

void CompareWindow::alignTimeAxes()
{
    // One scale for both: the zoom that fits the longer operation, so a millisecond is as wide in
    // A as in B, and both shown from their first instant, which is the same in both (same seed,
    // same arrivals). Each timeline still pads its start for the glyphs left of it and compresses
    // long quiet gaps on its own, so one instant can sit a little apart in the two views.
    const std::array<TimelineWidget *, 2> sides{m_timelineA, m_timelineB};
    const auto width = [](TimelineWidget *w) {
        return w->view()->maximumViewportSize().width() - w->view()->verticalScrollBar()->sizeHint().width() - 1
               - sceneOf(w)->labelWidth();
    };
    for (TimelineWidget *w : sides) {
        if (sceneOf(w)->times().isEmpty() || width(w) <= 0)
            return;
    }
    const qreal zoom = std::min(sceneOf(m_timelineA)->fitZoom(width(m_timelineA)),
                                sceneOf(m_timelineB)->fitZoom(width(m_timelineB)));
    for (TimelineWidget *w : sides) {
        TimelineScene *s = sceneOf(w);
        if (s->zoom() > 0 && std::abs(s->zoom() - zoom) > 1e-9)
            w->zoomBy(zoom / s->zoom());
        QScrollBar *h = w->view()->horizontalScrollBar();
        h->setValue(h->minimum());
    }
}

void CompareWindow::setPlayhead(qint64 t)
{
    if (!m_times.isEmpty())
        t = qBound(m_times.first(), t, m_times.last());
    if (isPlaying()) {
        m_syncing = true;
        m_anim->setCurrentTime(int(std::lround(m_clock.storyAt(t))));
        m_syncing = false;
    }
    applyPlayhead(t);
}

void CompareWindow::applyPlayhead(qint64 t)
{
    m_playhead = t;
    m_syncing = true;
    m_timelineA->setPlayhead(t);
    m_timelineB->setPlayhead(t);
    m_slider->setValue(int(std::lround(m_clock.storyAt(t))));
    m_syncing = false;
    m_timeLabel->setText(m_times.isEmpty() ? QString()
                                           : QStringLiteral("%1 / %2").arg(timeline::formatAxisTime(t, 1000),
                                                                           timeline::formatAxisTime(m_times.last(), 1000)));
    Q_EMIT playheadMoved(t);
}

void CompareWindow::followTimeline(TimelineWidget *from, qint64 t)
{
    if (m_syncing)
        return;
    // Moved by its own slider or its own playback: the other side and the shared controls follow.
    TimelineWidget *other = from == m_timelineA ? m_timelineB : m_timelineA;
    m_playhead = t;
    m_syncing = true;
    other->setPlayhead(t);
    m_slider->setValue(int(std::lround(m_clock.storyAt(t))));
    m_syncing = false;
    Q_EMIT playheadMoved(t);
}

bool CompareWindow::isPlaying() const
{
    return m_anim->state() == QAbstractAnimation::Running;
}

void CompareWindow::play()
{
    if (m_times.size() < 2 || isPlaying())
        return;
    m_timelineA->pause();
    m_timelineB->pause();
    if (m_playhead >= m_times.last())
        applyPlayhead(m_times.first());
    m_syncing = true;
    m_anim->start();
    m_anim->setCurrentTime(int(std::lround(m_clock.storyAt(m_playhead))));
    m_syncing = false;
}

void CompareWindow::pause()
{
    if (m_anim->state() != QAbstractAnimation::Stopped)
        m_anim->stop();
}

void CompareWindow::togglePlayback()
{
    isPlaying() ? pause() : play();
}

void CompareWindow::stepNext()
{
    pause();
    auto it = std::upper_bound(m_times.cbegin(), m_times.cend(), m_playhead);
    if (it != m_times.cend())
        applyPlayhead(*it);
}

void CompareWindow::stepPrevious()
{
    pause();
    auto it = std::lower_bound(m_times.cbegin(), m_times.cend(), m_playhead);
    if (it != m_times.cbegin())
        applyPlayhead(*(it - 1));
}

void CompareWindow::updatePlayButton()
{
    const bool playing = isPlaying();
    m_playButton->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    m_playButton->setText(playing ? tr("Pause both") : tr("Play both"));
}

} // namespace retrylab
