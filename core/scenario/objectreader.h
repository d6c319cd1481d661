#pragma once

#include "scenario.h"
#include "scenario/echo.h"
#include "scenario/enumnames.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

#include <cmath>

namespace retrylab::scenario::detail {

// Reads one JSON object field by field, records every error with its path and,
// at the end, reports the keys nobody asked for.
class ObjectReader
{
public:
    ObjectReader(QStringList *errors, const QJsonObject &object, const QString &path)
        : m_errors(errors), m_object(object), m_path(path)
    {
    }

    ~ObjectReader()
    {
        for (auto it = m_object.constBegin(); it != m_object.constEnd(); ++it) {
            if (!m_known.contains(it.key()))
                m_errors->append(unknownKeyMessage(m_path, it.key(), m_known,
                                                   m_errors->size() < scenario::MaxReportedErrors));
        }
    }

    ObjectReader(const ObjectReader &) = delete;
    ObjectReader &operator=(const ObjectReader &) = delete;

    QString pathOf(const QString &key) const { return joinPath(m_path, key); }

    void error(const QString &key, const QString &rule, const QJsonValue &got)
    {
        m_errors->append(QCoreApplication::translate("scenario", "%1: %2, got %3").arg(pathOf(key), rule, describe(got)));
    }

    // The value of key, or undefined; marks the key as known either way.
    QJsonValue take(const char *key)
    {
        const QString k = QLatin1String(key);
        m_known.append(k);
        return m_object.value(k);
    }

    void integer(const char *key, int lo, int hi, int *out)
    {
        readInteger(key, lo, hi, out);
    }

    void readInteger(const char *key, int lo, int hi, int *out)
    {
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return;
        const double d = v.toDouble();
        if (!v.isDouble() || std::floor(d) != d || d < lo || d > hi) {
            error(QLatin1String(key), QCoreApplication::translate("scenario", "expected an integer from %1 to %2").arg(lo).arg(hi), v);
            return;
        }
        *out = int(d);
    }

    // The value of a field that may be null (stored as -1, the catalogue's default null): undefined
    // when absent or null, both handled here.
    template<class T>
    QJsonValue takeNullable(const char *key, T *out)
    {
        const QJsonValue v = take(key);
        if (v.isNull()) {
            *out = T(-1);
            return QJsonValue(QJsonValue::Undefined);
        }
        return v;
    }

    // An integer, or null for "unlimited" (stored as -1), as urllib3's None.
    void nullableInteger(const char *key, int lo, int hi, int *out)
    {
        const QJsonValue v = takeNullable(key, out);
        if (v.isUndefined())
            return;
        const double d = v.toDouble();
        if (!v.isDouble() || std::floor(d) != d || d < lo || d > hi) {
            m_errors->append(QCoreApplication::translate("scenario", "%1: expected an integer from %2 to %3, got %4 (or null for unlimited)")
                                 .arg(pathOf(QLatin1String(key)))
                                 .arg(lo)
                                 .arg(hi)
                                 .arg(describe(v)));
            return;
        }
        *out = int(d);
    }

    void number(const char *key, double lo, double hi, double *out) { readNumber(key, lo, hi, out); }

    // A number, or null for `nullMeaning` (stored as -1), in the style of nullableInteger.
    void nullableNumber(const char *key, double lo, double hi, const QString &nullMeaning, double *out)
    {
        const QJsonValue v = takeNullable(key, out);
        if (v.isUndefined())
            return;
        const double d = v.toDouble();
        if (!v.isDouble() || !std::isfinite(d) || d < lo || d > hi) {
            m_errors->append(QCoreApplication::translate("scenario", "%1: expected a number from %2 to %3, got %4 (or null for %5)")
                                 .arg(pathOf(QLatin1String(key)), plainNumber(lo), plainNumber(hi), describe(v),
                                      nullMeaning));
            return;
        }
        *out = d;
    }

    // "expected a number from lo to hi" (QString::arg's rendering of the bounds).
    void readNumber(const char *key, double lo, double hi, double *out)
    {
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return;
        const double d = v.toDouble();
        if (!v.isDouble() || !std::isfinite(d) || d < lo || d > hi) {
            error(QLatin1String(key), QCoreApplication::translate("scenario", "expected a number from %1 to %2").arg(lo).arg(hi), v);
            return;
        }
        *out = d;
    }

    void boolean(const char *key, bool *out)
    {
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return;
        if (!v.isBool()) {
            error(QLatin1String(key), QCoreApplication::translate("scenario", "expected true or false"), v);
            return;
        }
        *out = v.toBool();
    }

    void string(const char *key, int maxChars, QString *out, bool allowEmpty = true)
    {
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return;
        if (!v.isString() || (!allowEmpty && v.toString().isEmpty())) {
            error(QLatin1String(key), allowEmpty ? QCoreApplication::translate("scenario", "expected a string")
                                                 : QCoreApplication::translate("scenario", "expected a non-empty string"),
                  v);
            return;
        }
        const QString text = v.toString();
        if (text.size() > maxChars) {
            m_errors->append(QCoreApplication::translate("scenario", "%1: at most %2 characters, got %3")
                                 .arg(pathOf(QLatin1String(key)))
                                 .arg(maxChars)
                                 .arg(text.size()));
            return;
        }
        *out = text;
    }

    // "path: at most N entries, got M" when a list is longer than its cap.
    bool withinCap(const char *key, qsizetype size, int cap)
    {
        if (size <= cap)
            return true;
        m_errors->append(QCoreApplication::translate("scenario", "%1: at most %2 entries, got %3").arg(pathOf(QLatin1String(key))).arg(cap).arg(size));
        return false;
    }

    template<typename E>
    void choice(const char *key, E *out)
    {
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return;
        if (!v.isString() || !enumFromName(v.toString(), out))
            error(QLatin1String(key), QCoreApplication::translate("scenario", "expected one of %1").arg(enumChoices<E>()), v);
    }

    // A choice by its names (the index of the name); false when absent or refused.
    bool choiceIndex(const char *key, const QStringList &names, int *out,
                     const QList<QPair<QString, int>> &aliases = {})
    {
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return false;
        qsizetype i = v.isString() ? names.indexOf(v.toString()) : -1;
        for (const auto &alias : aliases) {
            if (i < 0 && v.isString() && v.toString() == alias.first)
                i = alias.second;
        }
        if (i < 0) {
            error(QLatin1String(key), QCoreApplication::translate("scenario", "expected one of %1").arg(names.join(QLatin1Char('|'))), v);
            return false;
        }
        *out = int(i);
        return true;
    }

    // The sub-object at key (empty when absent or of the wrong type).
    QJsonObject object(const char *key)
    {
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return QJsonObject();
        if (!v.isObject()) {
            error(QLatin1String(key), QCoreApplication::translate("scenario", "expected an object"), v);
            return QJsonObject();
        }
        return v.toObject();
    }

    bool array(const char *key, QJsonArray *out)
    {
        const QJsonValue v = take(key);
        if (v.isUndefined())
            return false;
        if (!v.isArray()) {
            error(QLatin1String(key), QCoreApplication::translate("scenario", "expected an array"), v);
            return false;
        }
        *out = v.toArray();
        return true;
    }

    QStringList *errors() const { return m_errors; }
    const QJsonObject &source() const { return m_object; }

private:
    QStringList *m_errors;
    QJsonObject m_object;
    QString m_path;
    QStringList m_known;
};
} // namespace retrylab::scenario::detail
