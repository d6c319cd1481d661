#pragma once

#include <QByteArray>
#include <QSet>
#include <QString>
#include <QStringList>

#include <vector>

namespace retrylab::scenario::detail {

// "line 3, column 14" for a byte offset: lines count \n, columns count characters (UTF-8 lead bytes).
QString lineColumn(const QByteArray &text, qsizetype offset);
// Why bytes cannot be a UTF-8 scenario file (UTF-16, a byte order mark), or empty.
QString encodingProblem(const QByteArray &bytes);

// Reads JSON text (RFC 8259) for what QJsonDocument cannot say: where a syntax error is and what is
// wrong there ("007", "0x10", a trailing comma), and keys that appear twice in one object, which
// QJsonDocument resolves silently by keeping the last. Iterative, so deep nesting costs no stack.
class JsonScanner
{
public:
    explicit JsonScanner(const QByteArray &text) : m_text(text) {}

    // True when the text is one JSON value; else errorOffset() and error() say where and what.
    bool scan();
    qsizetype errorOffset() const { return m_errorOffset; }
    QString error() const { return m_error; }
    // "path: the key appears twice ..." for the first duplicates; duplicateCount() counts them all.
    QStringList duplicates() const { return m_duplicates; }
    qsizetype duplicateCount() const { return m_duplicateCount; }

private:
    struct Frame
    {
        bool object = false;
        qsizetype start = 0;
        QString path;
        QSet<QString> keys;
        QString key;
        int index = 0;
    };

    bool atEnd() const { return m_pos >= m_text.size(); }
    char cur() const { return m_text.at(m_pos); }
    void skipSpace()
    {
        while (!atEnd() && (cur() == ' ' || cur() == '\t' || cur() == '\n' || cur() == '\r'))
            ++m_pos;
    }
    bool fail(qsizetype offset, const QString &what)
    {
        m_errorOffset = offset;
        m_error = what;
        return false;
    }
    bool failEnd();
    QString childPath() const;
    QString token(qsizetype from) const;
    bool key();
    bool string(QString *out);
    bool number();
    bool scalar();
    int utf8Length(qsizetype at) const;

    const QByteArray &m_text;
    qsizetype m_pos = 0;
    std::vector<Frame> m_stack;
    qsizetype m_errorOffset = -1;
    QString m_error;
    QStringList m_duplicates;
    qsizetype m_duplicateCount = 0;
};

} // namespace retrylab::scenario::detail
