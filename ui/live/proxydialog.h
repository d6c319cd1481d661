#pragma once

#include "live/proxysession.h"
#include "scenario.h"

#include <QDialog>
#include <QList>
#include <QPair>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace retrylab {

// File > Proxy…: the service to put the proxy in front of, the port it listens on, the field of
// the body that names an order, and the faults it applies (the scenario's network.* and server.*
// fault fields, with the ranges, steps and units of the field table).
class ProxyDialog : public QDialog
{
    Q_OBJECT
public:
    ProxyDialog(const ProxyOptions &options, const Scenario &scenario, QWidget *parent = nullptr);

    ProxyOptions options() const;
    // The scenario with the faults as set; errors name the field (empty when valid).
    Scenario faults(QStringList *errors = nullptr) const;
    // Shown under the fields when starting failed; the dialog stays open for another try.
    void showError(const QString &message);
    // The fault fields the dialog offers, in order.
    static QStringList faultPaths();
    // The faults `scenario` sets, one line each in the dialog's words ("Lose the answer (after the
    // commit): 30 %"); empty when none strikes.
    static QStringList faultSummary(const Scenario &scenario);
    QDoubleSpinBox *faultField(const QString &path) const;
    QLineEdit *upstreamField() const { return m_upstream; }
    QSpinBox *portField() const { return m_port; }

private:
    void accept() override;

    Scenario m_scenario;
    QLineEdit *m_upstream = nullptr;
    QSpinBox *m_port = nullptr;
    QCheckBox *m_anyPort = nullptr;
    QLineEdit *m_orderField = nullptr;
    QList<QPair<QString, QDoubleSpinBox *>> m_faults;
    QLabel *m_error = nullptr;
};

} // namespace retrylab
