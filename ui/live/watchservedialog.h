#pragma once

#include "live/watchsession.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QSpinBox;

namespace retrylab {

// File > Serve…: the port, whether a busy port may be replaced by a free one, and whether other
// computers on the local network may send orders.
class WatchServeDialog : public QDialog
{
    Q_OBJECT
public:
    explicit WatchServeDialog(const WatchOptions &options, QWidget *parent = nullptr);

    WatchOptions options() const;
    // Shown under the fields when starting failed; the dialog stays open for another try.
    void showError(const QString &message);

private:
    QSpinBox *m_port = nullptr;
    QCheckBox *m_anyPort = nullptr;
    QCheckBox *m_network = nullptr;
    QLabel *m_error = nullptr;
};

} // namespace retrylab
