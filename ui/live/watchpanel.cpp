#include "live/watchpanel.h"

#include "editor/editorstyle.h"
#include "orderserver.h"
#include "live/watchsession.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QFontDatabase>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QUuid>
#include <QVBoxLayout>

namespace retrylab {

namespace {
QString plural(qint64 n, const QString &one, const QString &many)
{
    return n == 1 ? one : many.arg(QLocale().toString(n));
}
} // namespace

WatchPanel::WatchPanel(WatchSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_key(QStringLiteral("order-") + QUuid::createUuid().toString(QUuid::Id128).left(8))
{
    setObjectName(QStringLiteral("watchPanel"));
    auto *layout = new QVBoxLayout(this);

    QFont big = font();
    big.setPointSizeF(font().pointSizeF() * 1.3);
    big.setBold(true);

    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("watchTitle"));
    m_title->setWordWrap(true);
    layout->addWidget(m_title);

    auto *urlRow = new QHBoxLayout;
    m_url = new QLabel(this);
    m_url->setObjectName(QStringLiteral("watchUrl"));
    m_url->setFont(big);
    m_url->setTextInteractionFlags(Qt::TextSelectableByMouse);
    urlRow->addWidget(m_url, 1);
    m_copyUrl = new QPushButton(tr("Copy"), this);
    m_copyUrl->setObjectName(QStringLiteral("copyUrl"));
    m_copyUrl->setToolTip(tr("Copy the address"));
    connect(m_copyUrl, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_session->commandUrl().toString()); });
    urlRow->addWidget(m_copyUrl);
    layout->addLayout(urlRow);

    m_network = new QLabel(this);
    m_network->setObjectName(QStringLiteral("watchNetwork"));
    m_network->setWordWrap(true);
    m_network->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_network);

    m_portNote = new QLabel(this);
    m_portNote->setObjectName(QStringLiteral("watchPortNote"));
    m_portNote->setWordWrap(true);
    layout->addWidget(m_portNote);

    m_restarting = new QLabel(tr("The server is restarting: requests get no answer until it is back."), this);
    m_restarting->setObjectName(QStringLiteral("watchRestarting"));
    m_restarting->setWordWrap(true);
    m_restarting->setFont(big);
    paintAsWarning(m_restarting);
    m_restarting->hide();
    layout->addWidget(m_restarting);

    m_counts = new QLabel(this);
    m_counts->setObjectName(QStringLiteral("watchCounts"));
    m_counts->setFont(big);
    m_counts->setWordWrap(true);
    layout->addWidget(m_counts);

    m_lastRefusal = new QLabel(this);
    m_lastRefusal->setObjectName(QStringLiteral("watchLastRefusal"));
    m_lastRefusal->setWordWrap(true);
    m_lastRefusal->hide();
    layout->addWidget(m_lastRefusal);

    m_dropped = new QLabel(this);
    m_dropped->setObjectName(QStringLiteral("watchDropped"));
    m_dropped->setWordWrap(true);
    paintAsWarning(m_dropped);
    m_dropped->hide();
    layout->addWidget(m_dropped);

    m_commands = new QWidget(this);
    auto *commands = new QVBoxLayout(m_commands);
    commands->setContentsMargins(0, 0, 0, 0);
    commands->addWidget(commandBox(QStringLiteral("curl"), tr("An order without a key: send it twice, get two records"),
                                   &m_curl));
    commands->addWidget(commandBox(QStringLiteral("curlKey"),
                                   tr("With an Idempotency-Key: send it twice, get one record and a replay"),
                                   &m_curlKey));
    commands->addWidget(commandBox(QStringLiteral("python"),
                                   tr("Python requests with a urllib3 Retry (retries the POST after a read timeout)"),
                                   &m_python));
    layout->addWidget(m_commands);

    m_follow = new QCheckBox(tr("Show each new order on the timeline"), this);
    m_follow->setObjectName(QStringLiteral("watchFollow"));
    m_follow->setChecked(true);
    m_follow->setToolTip(tr("The timeline switches to the order of the latest request"));
    layout->addWidget(m_follow);

    auto *buttons = new QHBoxLayout;
    m_serve = new QPushButton(tr("Serve…"), this);
    m_serve->setObjectName(QStringLiteral("watchServe"));
    connect(m_serve, &QPushButton::clicked, this, &WatchPanel::serveRequested);
    m_stop = new QPushButton(tr("Stop serving"), this);
    m_stop->setObjectName(QStringLiteral("watchStop"));
    connect(m_stop, &QPushButton::clicked, this, &WatchPanel::stopRequested);
    buttons->addWidget(m_serve);
    buttons->addWidget(m_stop);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    layout->addStretch(1);

    connect(m_session, &WatchSession::runningChanged, this, &WatchPanel::updateState);
    connect(m_session, &WatchSession::restarted, m_restarting, &QLabel::setVisible);
    updateState();
}

QWidget *WatchPanel::commandBox(const QString &objectName, const QString &title, QLabel **text)
{
    auto *box = new QFrame(this);
    box->setObjectName(objectName + QStringLiteral("Box"));
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 6, 0, 0);
    auto *head = new QHBoxLayout;
    auto *label = new QLabel(title, box);
    label->setWordWrap(true);
    head->addWidget(label, 1);
    auto *copy = new QPushButton(tr("Copy"), box);
    copy->setObjectName(objectName + QStringLiteral("Copy"));
    copy->setToolTip(tr("Copy the command, ready to paste into a terminal"));
    head->addWidget(copy, 0, Qt::AlignTop);
    layout->addLayout(head);
    auto *code = new QLabel(box);
    code->setObjectName(objectName + QStringLiteral("Text"));
    code->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    code->setTextFormat(Qt::PlainText);
    code->setTextInteractionFlags(Qt::TextSelectableByMouse);
    code->setFrameShape(QFrame::StyledPanel);
    code->setAutoFillBackground(true);
    code->setBackgroundRole(QPalette::Base);
    code->setMargin(6);
    layout->addWidget(code);
    connect(copy, &QPushButton::clicked, this, [code] { QApplication::clipboard()->setText(code->text()); });
    *text = code;
    return box;
}

QString WatchPanel::curlCommand() const
{
    return QStringLiteral("curl -i -X POST %1/orders \\\n"
                          "  -H 'Content-Type: application/json' \\\n"
                          "  -d '{\"ref\":\"ORD-0001\",\"item\":\"book\"}'")
        .arg(m_session->commandUrl().toString());
}

QString WatchPanel::curlWithKeyCommand() const
{
    return QStringLiteral("curl -i -X POST %1/orders \\\n"
                          "  -H 'Content-Type: application/json' \\\n"
                          "  -H 'Idempotency-Key: %2' \\\n"
                          "  -d '{\"ref\":\"ORD-0002\",\"item\":\"book\"}'")
        .arg(m_session->commandUrl().toString(), m_key);
}

QString WatchPanel::pythonSnippet() const
{
    return QStringLiteral("import requests\n"
                          "from requests.adapters import HTTPAdapter\n"
                          "from urllib3.util.retry import Retry\n"
                          "\n"
                          "s = requests.Session()\n"
                          "# allowed_methods=None: POST is retried too\n"
                          "retry = Retry(total=3, backoff_factor=0.2,\n"
                          "              allowed_methods=None)\n"
                          "s.mount(\"http://\", HTTPAdapter(max_retries=retry))\n"
                          "r = s.post(\"%1/orders\",\n"
                          "           json={\"ref\": \"ORD-0003\", \"item\": \"pen\"},\n"
                          "           # delete the next line to see duplicates\n"
                          "           headers={\"Idempotency-Key\": \"%2-py\"},\n"
                          "           timeout=(2, 1))\n"
                          "print(r.status_code, r.headers.get(\"Idempotent-Replayed\"))")
        .arg(m_session->commandUrl().toString(), m_key);
}

bool WatchPanel::followsLatest() const
{
    return m_follow->isChecked();
}

void WatchPanel::setFollowsLatest(bool follow)
{
    m_follow->setChecked(follow);
}

void WatchPanel::updateState()
{
    const bool running = m_session->isRunning();
    m_serve->setVisible(!running);
    m_stop->setVisible(running);
    m_url->setVisible(running);
    m_copyUrl->setVisible(running);
    m_commands->setVisible(running);
    m_follow->setVisible(running);
    if (!running) {
        m_restarting->hide();
        m_title->setText(tr("Not serving. The timeline, records and log keep the requests that arrived. "
                            "Serve… starts the order service again, empty."));
        m_network->hide();
        m_portNote->hide();
        return;
    }
    m_title->setText(tr("Serving orders. Send them to:"));
    m_url->setText(m_session->commandUrl().toString());
    const QStringList urls = m_session->networkUrls();
    const QByteArray token = m_session->adminToken();
    QString network;
    if (urls.size() > 1)
        network = tr("Also at: %1").arg(urls.mid(1).join(QStringLiteral(", ")));
    else if (urls.isEmpty() && m_session->server()->options().address != QHostAddress(QHostAddress::LocalHost))
        network = tr("No network address found: only this computer can reach the server.");
    if (!token.isEmpty()) {
        if (!network.isEmpty())
            network += QLatin1Char('\n');
        network += tr("Admin token (for /admin/faults and /admin/reset): %1").arg(QString::fromLatin1(token));
    }
    m_network->setText(network);
    m_network->setVisible(!network.isEmpty());
    m_portNote->setText(m_session->portNote());
    m_portNote->setVisible(!m_session->portNote().isEmpty());
    m_curl->setText(curlCommand());
    m_curlKey->setText(curlWithKeyCommand());
    m_python->setText(pythonSnippet());
}

void WatchPanel::showResult(const RunResult &result)
{
    const Metrics &m = result.metrics;
    const qint64 requests = m_session->watchTrace().requests();
    // Two lines, so the commands stay in view at 1280x720: what arrived, then what the server made of it.
    QStringList made{plural(m.records, tr("1 record"), tr("%1 records")),
                     plural(m.duplicates, tr("1 duplicate"), tr("%1 duplicates"))};
    if (m.replays > 0)
        made << plural(m.replays, tr("1 replay"), tr("%1 replays"));
    const qint64 refused = m.rejected400 + m.conflicts409 + m.mismatch422 + m.throttled429 + m.rejected503;
    if (refused > 0)
        made << plural(refused, tr("1 refused"), tr("%1 refused"));
    // A typo in a hand-typed curl command is answered 400 with a reason: say it here, where the
    // class is looking, rather than only in the terminal that sent it.
    QString lastRefusal;
    const Trace &trace = result.trace;
    for (qsizetype i = trace.size() - 1, seen = 0; i >= 0 && seen < 64; --i, ++seen) {
        const TraceEvent &e = trace.at(i);
        if (e.kind == EventKind::Rejected) {
            lastRefusal = tr("Last refused: %1, %2").arg(e.status).arg(e.detail().left(160));
            break;
        }
    }
    m_lastRefusal->setText(lastRefusal);
    m_lastRefusal->setVisible(!lastRefusal.isEmpty());
    m_counts->setText(plural(requests, tr("1 request arrived"), tr("%1 requests arrived")) + QLatin1Char('\n')
                      + made.join(tr(", ", "between the counts of records, duplicates, replays")));
    const qint64 dropped = m_session->watchTrace().droppedEvents();
    m_dropped->setVisible(dropped > 0);
    if (dropped > 0) {
        const QString kept = QLocale().toString(qint64(m_session->watchTrace().maxEvents()));
        m_dropped->setText(dropped == 1 ? tr("Only the newest %1 events are kept: 1 older event was dropped from the "
                                             "timeline, records and log (the counts above include them).")
                                              .arg(kept)
                                        : tr("Only the newest %1 events are kept: %2 older events were dropped from "
                                             "the timeline, records and log (the counts above include them).")
                                              .arg(kept, QLocale().toString(dropped)));
    }
}

} // namespace retrylab
