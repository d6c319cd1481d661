#include "common/balancedwrap.h"
#include "i18n.h"
#include "lessons/lessonplayer.h"

#include <QButtonGroup>
#include <QDoubleValidator>
#include <QEvent>
#include <QFontMetricsF>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRadioButton>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QStyle>
#include <QTextLayout>
#include <QVBoxLayout>
#include <QtMath>

#include <cmath>

namespace retrylab {

namespace {

const char *const ScaleProperty = "lessonFontScale";
const char *const BoldProperty = "lessonFontBold";

// A label whose font is `scale` times the panel's (applyFonts sets it).
QLabel *wrappedLabel(const QString &name, qreal scale, bool bold)
{
    auto *l = new QLabel;
    l->setObjectName(name);
    l->setWordWrap(true);
    l->setTextFormat(Qt::PlainText);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setProperty(ScaleProperty, scale);
    l->setProperty(BoldProperty, bold);
    return l;
}

void scaleFont(QWidget *w, qreal scale, bool bold)
{
    w->setProperty(ScaleProperty, scale);
    w->setProperty(BoldProperty, bold);
}

// Decimals a number is written with in a lesson file (3.1 -> 1, 34 -> 0).
int decimalsOf(double like)
{
    const QString written = QString::number(like, 'g', 15);
    const qsizetype dot = written.indexOf(QLatin1Char('.'));
    return dot < 0 ? 0 : int(written.size() - dot - 1);
}

} // namespace

LessonPlayer::LessonPlayer(QWidget *parent)
    : QWidget(parent)
{
    // The texts scroll when even their smallest fit does not fit; the step buttons stay in view.
    auto *root = new QVBoxLayout(this);
    root->setContentsMargins(0, 0, 0, 8);
    root->setSpacing(6);
    m_scroll = new QScrollArea;
    m_scroll->setObjectName(QStringLiteral("lessonScroll"));
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setWidgetResizable(true);
    // A command too long for the panel at the smallest fit scrolls sideways rather than be cut.
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_content = new QWidget;
    m_content->setObjectName(QStringLiteral("lessonContent"));
    auto *column = new QVBoxLayout(m_content);
    column->setContentsMargins(10, 8, 10, 0);
    column->setSpacing(8);

    // The lesson's title with "Step 2 of 4" beside it, or above it when both do not fit on one line
    // (arrangeHeader): a title wrapped beside the count broke anywhere ("…次数相 / 乘").
    m_header = new QBoxLayout(QBoxLayout::LeftToRight);
    m_header->setSpacing(8);
    m_lessonTitle = wrappedLabel(QStringLiteral("lessonTitle"), 1.0, true);
    m_progress = new QLabel;
    m_progress->setObjectName(QStringLiteral("lessonProgress"));
    m_progress->setAlignment(Qt::AlignRight | Qt::AlignTop);
    m_header->addWidget(m_lessonTitle, 1);
    m_header->addWidget(m_progress);
    column->addLayout(m_header);

    auto *rule = new QFrame;
    rule->setFrameShape(QFrame::HLine);
    rule->setFrameShadow(QFrame::Sunken);
    column->addWidget(rule);

    m_stepTitle = wrappedLabel(QStringLiteral("lessonStepTitle"), 1.35, true);
    column->addWidget(m_stepTitle);
    m_watch = wrappedLabel(QStringLiteral("lessonWatch"), 1.2, false);
    column->addWidget(m_watch);

    // The question: its text, a number to type or choices to pick, and Reveal.
    m_questionBox = new QFrame;
    m_questionBox->setObjectName(QStringLiteral("lessonQuestionBox"));
    static_cast<QFrame *>(m_questionBox)->setFrameShape(QFrame::StyledPanel);
    auto *q = new QVBoxLayout(m_questionBox);
    q->setContentsMargins(8, 8, 8, 8);
    q->setSpacing(6);
    m_question = wrappedLabel(QStringLiteral("lessonQuestion"), 1.2, true);
    q->addWidget(m_question);
    m_number = new QLineEdit;
    m_number->setObjectName(QStringLiteral("lessonGuess"));
    m_number->setPlaceholderText(tr("Your prediction"));
    m_number->setAccessibleName(tr("Your prediction"));
    m_number->setValidator(new QDoubleValidator(-1e12, 1e12, 3, m_number));
    scaleFont(m_number, 1.2, false);
    q->addWidget(m_number);
    m_choicesBox = new QWidget;
    m_choicesLayout = new QVBoxLayout(m_choicesBox);
    m_choicesLayout->setContentsMargins(0, 0, 0, 0);
    m_choices = new QButtonGroup(this);
    m_choices->setExclusive(true);
    q->addWidget(m_choicesBox);
    m_reveal = new QPushButton(tr("&Reveal"));
    scaleFont(m_reveal, 1.1, true);
    m_reveal->setObjectName(QStringLiteral("lessonReveal"));
    m_reveal->setToolTip(tr("Play the operation to its end, then show the answer"));
    q->addWidget(m_reveal, 0, Qt::AlignLeft);
    m_revealState = wrappedLabel(QStringLiteral("lessonRevealState"), 1.0, false);
    m_revealState->hide();
    q->addWidget(m_revealState);
    m_answerLabel = wrappedLabel(QStringLiteral("lessonAnswer"), 1.2, true);
    q->addWidget(m_answerLabel);
    column->addWidget(m_questionBox);
    connect(m_reveal, &QPushButton::clicked, this, &LessonPlayer::reveal);
    connect(m_number, &QLineEdit::returnPressed, this, &LessonPlayer::reveal);

    m_revealText = wrappedLabel(QStringLiteral("lessonRevealText"), 1.1, false);
    column->addWidget(m_revealText);
    column->addStretch(1);
    m_scroll->setWidget(m_content);
    m_scroll->viewport()->installEventFilter(this);
    root->addWidget(m_scroll, 1);

    auto *buttons = new QHBoxLayout;
    buttons->setContentsMargins(10, 0, 10, 0);
    const QStyle *s = style();
    m_previous = new QPushButton(s->standardIcon(QStyle::SP_ArrowBack), tr("&Previous"));
    m_previous->setObjectName(QStringLiteral("lessonPrevious"));
    m_previous->setToolTip(tr("The previous step (Page Up)"));
    m_next = new QPushButton(s->standardIcon(QStyle::SP_ArrowForward), tr("&Next"));
    m_next->setObjectName(QStringLiteral("lessonNext"));
    m_next->setToolTip(tr("The next step (Page Down)"));
    m_restart = new QPushButton(tr("Re&start"));
    m_restart->setObjectName(QStringLiteral("lessonRestart"));
    m_restart->setToolTip(tr("Back to the first step"));
    buttons->addWidget(m_previous);
    buttons->addWidget(m_next);
    buttons->addStretch(1);
    buttons->addWidget(m_restart);
    root->addLayout(buttons);
    connect(m_previous, &QPushButton::clicked, this, &LessonPlayer::previous);
    connect(m_next, &QPushButton::clicked, this, &LessonPlayer::next);
    connect(m_restart, &QPushButton::clicked, this, &LessonPlayer::restart);

    rebuild();
}

bool LessonPlayer::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_scroll->viewport()) {
        if (event->type() == QEvent::Resize)
            fitText();
        return false;
    }
    // A click on a choice's text picks it, as on a radio button's own text.
    if (event->type() == QEvent::MouseButtonRelease && watched->property("choice").isValid()) {
        QAbstractButton *b = m_choices->button(watched->property("choice").toInt());
        if (b && b->isEnabled())
            b->setChecked(true);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void LessonPlayer::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        fitText();
    else if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void LessonPlayer::retranslate()
{
    m_number->setPlaceholderText(tr("Your prediction"));
    m_number->setAccessibleName(tr("Your prediction"));
    m_previous->setText(tr("&Previous"));
    m_previous->setToolTip(tr("The previous step (Page Up)"));
    m_next->setText(tr("&Next"));
    m_next->setToolTip(tr("The next step (Page Down)"));
    m_restart->setText(tr("Re&start"));
    m_restart->setToolTip(tr("Back to the first step"));
    updateButtons();
    // The lesson's own texts, in the new language, without losing the class's guess.
    const LessonStep *s = currentStep();
    m_lessonTitle->setText(hasLesson() ? i18n::content(m_lesson.title) : QString());
    m_progress->setText(hasLesson() ? tr("Step %1 of %2").arg(m_step + 1).arg(stepCount()) : QString());
    if (!s)
        return;
    m_stepTitle->setText(i18n::content(s->title));
    m_watch->setText(i18n::content(s->watch));
    m_question->setText(i18n::content(s->question.text));
    for (int i = 0; i < s->question.choices.size(); ++i) {
        const QString text = i18n::content(s->question.choices.at(i).text);
        if (QLabel *label = findChild<QLabel *>(QStringLiteral("lessonChoiceText%1").arg(i)))
            label->setText(text);
        if (QAbstractButton *b = m_choices->button(i))
            b->setAccessibleName(text);
    }
    if (m_revealText->isVisible())
        m_revealText->setText(i18n::content(s->reveal));
    fitText();
}

void LessonPlayer::applyFonts()
{
    const QList<QWidget *> children = findChildren<QWidget *>();
    for (QWidget *w : children) {
        const QVariant scale = w->property(ScaleProperty);
        if (!scale.isValid())
            continue;
        QFont f = font();
        if (f.pointSizeF() > 0)
            f.setPointSizeF(f.pointSizeF() * scale.toReal() * m_fit);
        else
            f.setPixelSize(qMax(1, qRound(f.pixelSize() * scale.toReal() * m_fit)));
        f.setBold(w->property(BoldProperty).toBool());
        w->setFont(f);
    }
    // A choice's radio button grows with its text (Qt draws the indicator at one size, a dot beside
    // presentation mode's large text) and stands on the middle of the text's first line.
    const int least = style()->pixelMetric(QStyle::PM_ExclusiveIndicatorWidth, nullptr, this);
    for (QAbstractButton *b : m_choices->buttons()) {
        const QLabel *text = b->parentWidget() ? b->parentWidget()->findChild<QLabel *>() : nullptr;
        if (!text)
            continue;
        const QFontMetrics fm(text->font());
        const int size = qMax(least, qRound(fm.height() * 0.8));
        const QString sheet = QStringLiteral("QRadioButton::indicator { width: %1px; height: %1px; }").arg(size);
        if (b->styleSheet() != sheet)
            b->setStyleSheet(sheet);
        // The first line as drawn: Chinese text takes its fallback font's taller line, and a button as
        // high as the Latin font's line stood 3 px above its middle (zh_CN).
        QTextLayout layout(text->text().section(QLatin1Char('\n'), 0, 0), text->font());
        layout.beginLayout();
        QTextLine line = layout.createLine();
        if (line.isValid())
            line.setLineWidth(1e6);
        layout.endLayout();
        const int lineHeight = line.isValid() ? qMax(fm.height(), qCeil(line.height())) : fm.height();
        b->setFixedHeight(qMax(size, lineHeight + 2 * text->margin()));
    }
}

qreal LessonPlayer::textFit() const
{
    return m_fit;
}

int LessonPlayer::textHeightFor(int width) const
{
    QLayout *column = m_content->layout();
    column->invalidate();
    return column->hasHeightForWidth() ? column->totalHeightForWidth(width) : column->totalSizeHint().height();
}

void LessonPlayer::fitText()
{
    if (m_fitting)
        return;
    const QScopedValueRollback<bool> guard(m_fitting, true);
    // The room as if no scroll bar showed: whether one shows then follows from the fit, never the
    // fit from it, so a resize settles at once.
    const QSize room = m_scroll->maximumViewportSize();
    if (room.width() <= 0 || room.height() <= 0) {
        applyFonts();
        return;
    }
    const QMargins margins = m_content->layout()->contentsMargins();
    const int textWidth = room.width() - margins.left() - margins.right();
    // The largest size, in steps of 5%, at which every text of the step fits without scrolling.
    qreal chosen = minTextFit;
    for (int percent = 100; percent >= qRound(minTextFit * 100); percent -= 5) {
        m_fit = percent / 100.0;
        applyFonts();
        arrangeHeader(textWidth);
        // Wrapped to the width (a long command, which cannot wrap, as wide as it is at most) and
        // no higher than the room.
        if (m_content->layout()->totalMinimumSize().width() <= room.width()
            && textHeightFor(room.width()) <= room.height()) {
            chosen = m_fit;
            break;
        }
    }
    if (!qFuzzyCompare(m_fit, chosen)) {
        m_fit = chosen;
        applyFonts();
        arrangeHeader(textWidth);
    }
    // Past the smallest size the texts scroll: the answer is what the class looks for.
    if (m_answerLabel->isVisibleTo(this))
        m_scroll->ensureWidgetVisible(m_answerLabel, 0, 0);
}

void LessonPlayer::arrangeHeader(int width)
{
    // Beside the step count when the title fits there on one line; else the count on a line of its
    // own and the title, wrapped in lines of equal length, under it.
    const QString title = m_lessonTitle->text();
    // (A pixel to spare: the label wraps a text its rounded width would only just hold.)
    const int titleWidth = qCeil(QFontMetricsF(m_lessonTitle->font()).horizontalAdvance(title)) + 1;
    const int spacing = qMax(0, m_header->spacing());
    const bool beside = title.isEmpty() || titleWidth + spacing + m_progress->sizeHint().width() <= width;
    m_header->setDirection(beside ? QBoxLayout::LeftToRight : QBoxLayout::BottomToTop);
    m_progress->setAlignment(beside ? Qt::AlignRight | Qt::AlignTop : Qt::AlignLeft | Qt::AlignTop);
    m_lessonTitle->setMaximumWidth(beside ? QWIDGETSIZE_MAX
                                          : textwrap::balancedWidth(title, m_lessonTitle->font(), width));
}

void LessonPlayer::setLesson(const Lesson &lesson, int step)
{
    m_lesson = lesson;
    m_step = -1;
    setStep(step);
}

const LessonStep *LessonPlayer::currentStep() const
{
    return m_step >= 0 && m_step < m_lesson.steps.size() ? &m_lesson.steps.at(m_step) : nullptr;
}

bool LessonPlayer::hiding() const
{
    const LessonStep *s = currentStep();
    return s && s->question.kind != LessonQuestion::Kind::None && !m_revealed;
}

void LessonPlayer::setRevealPaused(bool paused)
{
    if (!m_revealing || paused == m_paused)
        return;
    m_paused = paused;
    updateButtons();
}

void LessonPlayer::setRevealPace(double pace, double seconds)
{
    m_pace = pace;
    m_paceSeconds = seconds;
    updateButtons();
}

QString LessonPlayer::revealStateText() const
{
    if (!m_revealing)
        return QString();
    if (m_paused)
        return tr("Paused. Continue (or Space on the timeline) plays on to the answer.");
    if (m_pace > 0)
        return tr("A long operation: played at %1×, about %2 s.")
            .arg(QLocale().toString(m_pace, 'f', 1))
            .arg(QLocale().toString(qRound(m_paceSeconds)));
    return QString();
}

void LessonPlayer::updateRevealState()
{
    const QString text = revealStateText();
    m_revealState->setText(text);
    m_revealState->setVisible(!text.isEmpty());
    fitText();
}

void LessonPlayer::setStep(int step)
{
    if (m_lesson.steps.isEmpty())
        return;
    const bool wasHiding = hiding();
    m_step = qBound(0, step, int(m_lesson.steps.size()) - 1);
    m_revealed = false;
    m_revealing = false;
    m_paused = false;
    m_pace = 0;
    m_answer.clear();
    rebuild();
    Q_EMIT stepChanged(m_step);
    if (wasHiding != hiding())
        Q_EMIT hidingChanged(hiding());
}

void LessonPlayer::next()
{
    if (m_step + 1 < stepCount())
        setStep(m_step + 1);
}

void LessonPlayer::previous()
{
    if (m_step > 0)
        setStep(m_step - 1);
}

void LessonPlayer::restart()
{
    setStep(0);
}

void LessonPlayer::reveal()
{
    const LessonStep *s = currentStep();
    if (!s || s->question.kind == LessonQuestion::Kind::None || m_revealed)
        return;
    if (m_revealing) {
        if (m_paused)
            Q_EMIT continueRequested();
        return;
    }
    m_revealing = true;
    m_paused = false;
    m_pace = 0;
    updateButtons();
    Q_EMIT revealRequested();
}

double LessonPlayer::guessedNumber() const
{
    bool ok = false;
    const double v = QLocale().toDouble(m_number->text().trimmed(), &ok);
    if (ok)
        return v;
    const double c = QLocale::c().toDouble(m_number->text().trimmed(), &ok);
    return ok ? c : qQNaN();
}

int LessonPlayer::guessedChoice() const
{
    return m_choices->checkedId();
}

void LessonPlayer::setGuess(double number)
{
    m_number->setText(QLocale().toString(number, 'g', 12));
}

void LessonPlayer::setGuessedChoice(int choice)
{
    if (QAbstractButton *b = m_choices->button(choice))
        b->setChecked(true);
}

QString LessonPlayer::answerText() const
{
    return m_answer;
}

QString LessonPlayer::formatNumber(double value, double like)
{
    const int decimals = decimalsOf(like);
    if (decimals == 0 && std::fabs(value - std::round(value)) < 1e-9)
        return QLocale().toString(qint64(std::llround(value)));
    return QLocale().toString(value, 'f', qMax(decimals, 1));
}

void LessonPlayer::showAnswer(double actual)
{
    const LessonStep *s = currentStep();
    if (!s || s->question.kind == LessonQuestion::Kind::None)
        return;
    const LessonQuestion &q = s->question;
    if (q.kind == LessonQuestion::Kind::Number) {
        const QString is = formatNumber(actual, q.answer);
        const double guess = guessedNumber();
        if (std::isnan(guess))
            m_answer = tr("The answer is %1.").arg(is);
        else if (formatNumber(guess, q.answer) == is)
            m_answer = tr("You said %1: exactly right.").arg(is);
        else
            m_answer = tr("You said %1; the answer is %2.").arg(formatNumber(guess, q.answer), is);
    } else {
        const int right = lesson::selectedChoice(q, actual);
        const QString rightText = right >= 0 ? i18n::content(q.choices.at(right).text) : QString();
        const int guess = guessedChoice();
        if (guess < 0)
            m_answer = tr("The answer is \"%1\".").arg(rightText);
        else if (guess == right)
            m_answer = tr("You chose \"%1\": right.").arg(rightText);
        else
            m_answer = tr("You chose \"%1\"; the answer is \"%2\".")
                           .arg(i18n::content(q.choices.at(guess).text), rightText);
        for (int i = 0; i < q.choices.size(); ++i)
            if (QLabel *label = findChild<QLabel *>(QStringLiteral("lessonChoiceText%1").arg(i)))
                scaleFont(label, 1.1, i == right);
        applyFonts();
    }
    const bool wasHiding = hiding();
    m_revealed = true;
    m_revealing = false;
    m_paused = false;
    m_answerLabel->setText(m_answer);
    m_answerLabel->show();
    m_revealText->setText(i18n::content(s->reveal));
    m_revealText->setVisible(!s->reveal.isEmpty());
    updateButtons();
    if (wasHiding != hiding())
        Q_EMIT hidingChanged(hiding());
}

void LessonPlayer::rebuild()
{
    const LessonStep *s = currentStep();
    m_lessonTitle->setText(hasLesson() ? i18n::content(m_lesson.title) : QString());
    m_progress->setText(hasLesson() ? tr("Step %1 of %2").arg(m_step + 1).arg(stepCount()) : QString());
    m_stepTitle->setText(s ? i18n::content(s->title) : QString());
    m_watch->setText(s ? i18n::content(s->watch) : QString());

    const LessonQuestion::Kind kind = s ? s->question.kind : LessonQuestion::Kind::None;
    m_questionBox->setVisible(kind != LessonQuestion::Kind::None);
    m_question->setText(s ? i18n::content(s->question.text) : QString());
    m_number->clear();
    m_number->setVisible(kind == LessonQuestion::Kind::Number);
    const QList<QAbstractButton *> old = m_choices->buttons();
    for (QAbstractButton *b : old)
        m_choices->removeButton(b);
    while (QLayoutItem *item = m_choicesLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    if (kind == LessonQuestion::Kind::Choice) {
        // A radio button and a wrapped label beside it: a radio button's own text never wraps, and a
        // long choice would widen the whole dock.
        for (int i = 0; i < s->question.choices.size(); ++i) {
            const QString text = i18n::content(s->question.choices.at(i).text);
            auto *row = new QWidget;
            row->setObjectName(QStringLiteral("lessonChoiceRow%1").arg(i));
            auto *h = new QHBoxLayout(row);
            h->setContentsMargins(0, 0, 0, 0);
            auto *b = new QRadioButton;
            b->setObjectName(QStringLiteral("lessonChoice%1").arg(i));
            b->setAccessibleName(text);
            b->setToolTip(text);
            auto *label = wrappedLabel(QStringLiteral("lessonChoiceText%1").arg(i), 1.1, false);
            label->setText(text);
            label->setTextInteractionFlags(Qt::NoTextInteraction);
            label->setProperty("choice", i);
            label->installEventFilter(this);
            h->addWidget(b, 0, Qt::AlignTop);
            h->addWidget(label, 1);
            m_choices->addButton(b, i);
            m_choicesLayout->addWidget(row);
        }
    }
    m_choicesBox->setVisible(kind == LessonQuestion::Kind::Choice);
    applyFonts();
    m_answerLabel->clear();
    m_answerLabel->hide();
    // Without a question the reveal text is part of what the step says.
    const bool showRevealNow = s && kind == LessonQuestion::Kind::None && !s->reveal.isEmpty();
    m_revealText->setText(showRevealNow ? i18n::content(s->reveal) : QString());
    m_revealText->setVisible(showRevealNow);
    updateButtons();
}

void LessonPlayer::updateButtons()
{
    m_previous->setEnabled(hasLesson() && m_step > 0);
    m_next->setEnabled(hasLesson() && m_step + 1 < stepCount());
    m_restart->setEnabled(hasLesson() && m_step > 0);
    const bool playing = m_revealing && !m_paused;
    m_reveal->setEnabled(!m_revealed && !playing);
    m_reveal->setText(playing ? tr("Playing…") : m_revealing ? tr("&Continue") : tr("&Reveal"));
    m_reveal->setToolTip(m_revealing ? tr("Play on from here to the end, then show the answer")
                                     : tr("Play the operation to its end, then show the answer"));
    m_number->setReadOnly(m_revealed || m_revealing);
    for (QAbstractButton *b : m_choices->buttons())
        b->setEnabled(!m_revealed && !m_revealing);
    updateRevealState();
}

} // namespace retrylab
