#pragma once

#include "lesson.h"

#include <QWidget>

class QBoxLayout;
class QButtonGroup;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QScrollArea;
class QVBoxLayout;

namespace retrylab {

// The lesson player: the lesson's title, "Step 3 of 5", the step's title and what to watch, its
// prediction question (a number to type or choices to pick) with Reveal, and Previous / Next /
// Restart. It knows nothing of the window: it says which step to show (stepChanged) and when the
// class asked for the answer (revealRequested); the window sets the step up, plays the animation
// and hands the run's value back with showAnswer().
class LessonPlayer : public QWidget
{
    Q_OBJECT
public:
    explicit LessonPlayer(QWidget *parent = nullptr);

    // Starts a lesson at `step` (clamped); emits stepChanged.
    void setLesson(const Lesson &lesson, int step = 0);
    const Lesson &lesson() const { return m_lesson; }
    bool hasLesson() const { return !m_lesson.steps.isEmpty(); }
    int step() const { return m_step; }
    int stepCount() const { return int(m_lesson.steps.size()); }
    const LessonStep *currentStep() const;
    // True while the step's question waits for its answer: the window hides the outcome.
    bool hiding() const;
    bool isRevealed() const { return m_revealed; }
    bool isRevealing() const { return m_revealing; }
    // The reveal's animation was paused (Space, Play): Reveal reads Continue and the panel says so.
    bool isRevealPaused() const { return m_revealing && m_paused; }
    void setRevealPaused(bool paused);
    // A long reveal plays at `pace` (0: the speed the class chose) and takes `seconds`: the panel says so.
    void setRevealPace(double pace, double seconds);
    // What the panel says about the reveal under way (paused, played faster), empty otherwise.
    QString revealStateText() const;
    // The class's guess: the number typed (NaN when none) or the choice picked (-1 when none).
    double guessedNumber() const;
    int guessedChoice() const;
    void setGuess(double number);
    void setGuessedChoice(int choice);
    // The sentence after the reveal ("You said 20; the answer is 32."), empty before it.
    QString answerText() const;
    // The text shown for a number: integers plain, others with the decimals the lesson writes.
    static QString formatNumber(double value, double like);
    // The texts shrink to this fraction of their size before they scroll.
    static constexpr qreal minTextFit = 0.7;
    // The fraction of their size the texts have now: the largest (in steps of 5%) at which the
    // step's texts fit the panel's height without scrolling, or minTextFit.
    qreal textFit() const;

public Q_SLOTS:
    void setStep(int step);
    void next();
    void previous();
    void restart();
    // Asks the window to play the step and then call showAnswer (emits revealRequested).
    void reveal();
    // The run's value of the question's metric: shows the answer, the comparison and the reveal text.
    void showAnswer(double actual);

Q_SIGNALS:
    void stepChanged(int step);
    void revealRequested();
    // Continue after a paused reveal: play on from where it stopped.
    void continueRequested();
    void hidingChanged(bool hiding);

protected:
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // The labels' sizes relative to the panel's font, again after every font change (the zoom and
    // presentation mode change the window's font).
    void applyFonts();
    // Picks textFit() for the panel's room and the step's texts, and applies it.
    void fitText();
    int textHeightFor(int width) const;
    // The lesson's title beside the step count, or under it when they do not fit on one line of
    // `width` pixels (the width the panel's texts wrap at).
    void arrangeHeader(int width);
    // Every text again in the current language (QEvent::LanguageChange); the guess stays.
    void retranslate();
    void rebuild();
    void updateButtons();
    void updateRevealState();

    Lesson m_lesson;
    int m_step = 0;
    bool m_revealed = false;
    bool m_revealing = false;
    bool m_paused = false;
    double m_pace = 0;
    double m_paceSeconds = 0;
    QString m_answer;
    qreal m_fit = 1.0;
    bool m_fitting = false;

    QScrollArea *m_scroll = nullptr;
    QWidget *m_content = nullptr;
    QBoxLayout *m_header = nullptr;
    QLabel *m_lessonTitle = nullptr;
    QLabel *m_progress = nullptr;
    QLabel *m_stepTitle = nullptr;
    QLabel *m_watch = nullptr;
    QWidget *m_questionBox = nullptr;
    QLabel *m_question = nullptr;
    QLineEdit *m_number = nullptr;
    QWidget *m_choicesBox = nullptr;
    QVBoxLayout *m_choicesLayout = nullptr;
    QButtonGroup *m_choices = nullptr;
    QPushButton *m_reveal = nullptr;
    QLabel *m_answerLabel = nullptr;
    QLabel *m_revealState = nullptr;
    QLabel *m_revealText = nullptr;
    QPushButton *m_previous = nullptr;
    QPushButton *m_next = nullptr;
    QPushButton *m_restart = nullptr;
};

} // namespace retrylab
