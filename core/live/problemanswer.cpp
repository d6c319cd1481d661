#include "problemanswer.h"

#include "problemtypes.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace retrylab {

QByteArray problemJson(int status, const QString &detail, const QByteArray &requestId, TraceCause cause, const char *type)
{
    const ProblemType *named = type ? ProblemType::find(QString::fromLatin1(type)) : nullptr;
    QJsonObject o{{QStringLiteral("type"), (named ? *named : ProblemType::of(status, cause)).uri()},
                  {QStringLiteral("title"), QString::fromLatin1(HttpConnection::reasonPhrase(status))},
                  {QStringLiteral("status"), status},
                  {QStringLiteral("detail"), detail}};
    if (!requestId.isEmpty())
        o.insert(QStringLiteral("requestId"), QString::fromLatin1(requestId));
    if (cause != TraceCause::None)
        o.insert(QStringLiteral("cause"), trace::causeName(cause));
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

HttpAnswer problemAnswer(int status, const QString &detail, const QByteArray &extraHeader)
{
    HttpAnswer a;
    a.status = status;
    a.contentType = QByteArrayLiteral("application/problem+json");
    a.body = problemJson(status, detail);
    a.extraHeader = extraHeader;
    return a;
}

HttpAnswer problemTypePage(const QString &path, bool get)
{
    const QStringView slug = QStringView(path).mid(int(qstrlen("/problems/")));
    const ProblemType *type = ProblemType::find(slug);
    if (!type)
        return problemAnswer(404, QStringLiteral("no such problem type: %1").arg(slug.left(60)));
    if (!get)
        return problemAnswer(405, QStringLiteral("use GET on %1").arg(path), "Allow: GET");
    HttpAnswer a;
    a.contentType = QByteArrayLiteral("text/plain; charset=utf-8");
    a.body = QByteArray(type->slug) + " (" + QByteArray::number(type->status) + ")\n\n" + type->about
            + "\n\nAll problem types: docs/http-service.md#problem-types\n";
    return a;
}

HttpAnswer jsonAnswer(const QByteArray &body, const QByteArray &extraHeader)
{
    HttpAnswer a;
    a.contentType = QByteArrayLiteral("application/json");
    a.body = body;
    a.extraHeader = extraHeader;
    return a;
}

} // namespace retrylab
