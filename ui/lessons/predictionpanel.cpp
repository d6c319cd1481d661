#include "lessons/predictionpanel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace retrylab {

namespace {

QString plural(qint64 n, const QString &one, const QString &many)
{
    return n == 1 ? one : many.arg(n);
}

} // namespace

QString comparePrediction(const Prediction &guess, const Metrics &actual)
{
    const auto sentence = [](const QString &said, const QString &is, bool right) {
        return right ? PredictionPanel::tr("You said %1: right.").arg(said)
                     : PredictionPanel::tr("You said %1: %2.").arg(said, is);
    };
    QStringList out;
    out << sentence(plural(guess.records, PredictionPanel::tr("1 record"), PredictionPanel::tr("%1 records")),
                    plural(actual.records, PredictionPanel::tr("the server holds 1"), PredictionPanel::tr("the server holds %1")),
                    guess.records == actual.records);
    out << sentence(plural(guess.duplicates, PredictionPanel::tr("1 duplicate"), PredictionPanel::tr("%1 duplicates")),
                    actual.duplicates == 0 ? PredictionPanel::tr("there are none")
                                           : plural(actual.duplicates, PredictionPanel::tr("there is 1"),
                                                    PredictionPanel::tr("there are %1")),
                    guess.duplicates == actual.duplicates);
    out << sentence(plural(guess.attempts, PredictionPanel::tr("1 attempt"), PredictionPanel::tr("%1 attempts")),
                    plural(actual.httpAttempts, PredictionPanel::tr("the client made 1"),
                           PredictionPanel::tr("the client made %1")),
                    guess.attempts == actual.httpAttempts);
    return out.join(QLatin1Char(' '));
}

PredictionPanel::PredictionPanel(QWidget *parent)
    : QWidget(parent)
{
    // The guesses and Reveal on one line, the comparison under them across the whole width: beside
    // them it was squeezed into a column of single words on a narrow window.
    auto *column = new QVBoxLayout(this);
    column->setContentsMargins(8, 2, 8, 4);
    column->setSpacing(2);
    auto *row = new QHBoxLayout;
    column->addLayout(row);
    auto *intro = new QLabel(tr("Predict:"));
    QFont bold = intro->font();
    bold.setBold(true);
    intro->setFont(bold);
    row->addWidget(intro);
    const auto field = [&](const QString &label, const QString &name) {
        auto *l = new QLabel(label);
        auto *box = new QSpinBox;
        box->setObjectName(name);
        box->setRange(0, 1000000000);
        box->setMinimumWidth(90);
        l->setBuddy(box);
        row->addWidget(l);
        row->addWidget(box);
        return box;
    };
    m_records = field(tr("&Records"), QStringLiteral("predictRecords"));
    m_duplicates = field(tr("&Duplicates"), QStringLiteral("predictDuplicates"));
    m_attempts = field(tr("&Attempts"), QStringLiteral("predictAttempts"));
    m_reveal = new QPushButton(tr("Re&veal"));
    m_reveal->setObjectName(QStringLiteral("predictReveal"));
    m_reveal->setToolTip(tr("Show the run's numbers and compare them with the prediction"));
    row->addWidget(m_reveal);
    m_result = new QLabel(tr("The outcome is hidden until you reveal it."));
    m_result->setObjectName(QStringLiteral("predictResult"));
    m_result->setWordWrap(true);
    row->addStretch(1);
    column->addWidget(m_result);
    connect(m_reveal, &QPushButton::clicked, this, &PredictionPanel::reveal);
}

void PredictionPanel::setActive(bool active)
{
    const bool wasHiding = hiding();
    m_active = active;
    m_revealed = false;
    m_result->setText(tr("The outcome is hidden until you reveal it."));
    m_reveal->setEnabled(true);
    if (wasHiding != hiding())
        Q_EMIT hidingChanged(hiding());
}

Prediction PredictionPanel::prediction() const
{
    return Prediction{m_records->value(), m_duplicates->value(), m_attempts->value()};
}

void PredictionPanel::setPrediction(const Prediction &p)
{
    m_records->setValue(int(std::min<qint64>(p.records, m_records->maximum())));
    m_duplicates->setValue(int(std::min<qint64>(p.duplicates, m_duplicates->maximum())));
    m_attempts->setValue(int(std::min<qint64>(p.attempts, m_attempts->maximum())));
}

void PredictionPanel::newRound(const Metrics &actual)
{
    m_actual = actual;
    if (!m_active)
        return;
    m_reveal->setEnabled(true);
    m_result->setText(tr("The outcome is hidden until you reveal it."));
    setRevealed(false);
}

void PredictionPanel::reveal()
{
    if (!m_active)
        return;
    m_result->setText(comparison());
    m_reveal->setEnabled(false);
    setRevealed(true);
}

QString PredictionPanel::comparison() const
{
    return comparePrediction(prediction(), m_actual);
}

void PredictionPanel::setRevealed(bool revealed)
{
    const bool wasHiding = hiding();
    m_revealed = revealed;
    if (wasHiding != hiding())
        Q_EMIT hidingChanged(hiding());
}

} // namespace retrylab
