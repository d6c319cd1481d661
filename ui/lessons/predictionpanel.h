#pragma once

#include "simulator.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QSpinBox;

namespace retrylab {

// What the class guessed before the run's numbers were shown.
struct Prediction
{
    qint64 records = 0;
    qint64 duplicates = 0;
    qint64 attempts = 0;
};

// "You said 20 records: the server holds 32. ..." One sentence per number, exact either way.
QString comparePrediction(const Prediction &guess, const Metrics &actual);

// Prediction mode: the outcome stays hidden (the window hides its status numbers, charts, records
// and log while hiding() is true) until the class has entered its guesses and pressed Reveal;
// then the guesses are compared with the run. A new scenario or seed starts a new round.
class PredictionPanel : public QWidget
{
    Q_OBJECT

public:
    explicit PredictionPanel(QWidget *parent = nullptr);

    void setActive(bool active);
    bool isActive() const { return m_active; }
    // True while the outcome must stay hidden: active and not yet revealed.
    bool hiding() const { return m_active && !m_revealed; }
    Prediction prediction() const;
    void setPrediction(const Prediction &p);
    // A new result to predict (a new scenario, seed or edit): hidden again, guesses kept.
    void newRound(const Metrics &actual);
    // Shows the outcome and compares it with the guesses.
    void reveal();
    QString comparison() const;

Q_SIGNALS:
    void hidingChanged(bool hiding);

private:
    void setRevealed(bool revealed);

    bool m_active = false;
    bool m_revealed = false;
    Metrics m_actual;
    QSpinBox *m_records = nullptr;
    QSpinBox *m_duplicates = nullptr;
    QSpinBox *m_attempts = nullptr;
    QPushButton *m_reveal = nullptr;
    QLabel *m_result = nullptr;
};

} // namespace retrylab
