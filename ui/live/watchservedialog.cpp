#include "live/watchservedialog.h"

#include "editor/editorstyle.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace retrylab {

WatchServeDialog::WatchServeDialog(const WatchOptions &options, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("serveDialog"));
    setWindowTitle(tr("Serve orders over HTTP"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Runs the order service with this scenario's server and fault settings, so curl, "
                                "Python or any HTTP client can send it orders. Every request appears on the "
                                "timeline and in the records."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *form = new QFormLayout;
    m_port = new QSpinBox(this);
    m_port->setObjectName(QStringLiteral("servePort"));
    m_port->setRange(1, 65535);
    m_port->setValue(options.port == 0 ? WatchOptions::DefaultPort : options.port);
    m_port->setToolTip(tr("The TCP port the server listens on"));
    m_port->setMaximumWidth(m_port->fontMetrics().horizontalAdvance(QStringLiteral("000000")) + 40);
    form->addRow(tr("&Port"), m_port);
    layout->addLayout(form);

    m_anyPort = new QCheckBox(tr("If this port is in use, pick a free one"), this);
    m_anyPort->setObjectName(QStringLiteral("serveAnyPort"));
    m_anyPort->setChecked(options.anyPortIfBusy);
    layout->addWidget(m_anyPort);

    m_network = new QCheckBox(tr("Listen on the local network"), this);
    m_network->setObjectName(QStringLiteral("serveNetwork"));
    m_network->setChecked(options.localNetwork);
    m_network->setToolTip(tr("Other computers (a class on their laptops) can send orders. The admin endpoints "
                             "then need the token shown in the Watch panel."));
    layout->addWidget(m_network);

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("serveError"));
    m_error->setWordWrap(true);
    paintAsWarning(m_error);
    m_error->hide();
    layout->addWidget(m_error);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Serve"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    setMinimumWidth(420);
}

WatchOptions WatchServeDialog::options() const
{
    WatchOptions o;
    o.port = quint16(m_port->value());
    o.anyPortIfBusy = m_anyPort->isChecked();
    o.localNetwork = m_network->isChecked();
    return o;
}

void WatchServeDialog::showError(const QString &message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

} // namespace retrylab
