#include "common/settings.h"

#include <QFileInfo>

namespace retrylab {

namespace {
const QString geometryKey = QStringLiteral("window/geometry");
const QString stateKey = QStringLiteral("window/state");
const QString lastScenarioKey = QStringLiteral("scenario/last");
const QString recentKey = QStringLiteral("scenario/recentFiles");
const QString pendingKey = QStringLiteral("scenario/lastPending");
const QString zoomKey = QStringLiteral("view/zoomPercent");
const QString languageKey = QStringLiteral("view/language");
} // namespace

Settings::Settings() = default;

QByteArray Settings::windowGeometry() const
{
    return m_settings.value(geometryKey).toByteArray();
}

void Settings::setWindowGeometry(const QByteArray &geometry)
{
    m_settings.setValue(geometryKey, geometry);
}

QByteArray Settings::windowState() const
{
    return m_settings.value(stateKey).toByteArray();
}

void Settings::setWindowState(const QByteArray &state)
{
    m_settings.setValue(stateKey, state);
}

QString Settings::lastScenario() const
{
    return m_settings.value(lastScenarioKey).toString();
}

void Settings::setLastScenario(const QString &nameOrFile)
{
    m_settings.setValue(lastScenarioKey, nameOrFile);
}

bool Settings::lastScenarioPending() const
{
    return m_settings.value(pendingKey, false).toBool();
}

void Settings::setLastScenarioPending(bool pending)
{
    if (pending)
        m_settings.setValue(pendingKey, true);
    else
        m_settings.remove(pendingKey);
    m_settings.sync();
}

QStringList Settings::recentFiles() const
{
    QStringList files = m_settings.value(recentKey).toStringList();
    files.removeAll(QString());
    while (files.size() > maxRecentFiles)
        files.removeLast();
    return files;
}

void Settings::addRecentFile(const QString &fileName)
{
    // Store absolute paths so the same file opened twice is one entry.
    const QString path = QFileInfo(fileName).absoluteFilePath();
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > maxRecentFiles)
        files.removeLast();
    m_settings.setValue(recentKey, files);
}

void Settings::removeRecentFile(const QString &fileName)
{
    QStringList files = recentFiles();
    files.removeAll(QFileInfo(fileName).absoluteFilePath());
    files.removeAll(fileName);
    m_settings.setValue(recentKey, files);
}

void Settings::clearRecentFiles()
{
    m_settings.remove(recentKey);
}

int Settings::zoomPercent() const
{
    bool ok = false;
    const int percent = m_settings.value(zoomKey, defaultZoomPercent).toInt(&ok);
    return ok ? qBound(minZoomPercent, percent, maxZoomPercent) : defaultZoomPercent;
}

void Settings::setZoomPercent(int percent)
{
    percent = qBound(minZoomPercent, percent, maxZoomPercent);
    if (percent == defaultZoomPercent)
        m_settings.remove(zoomKey);
    else
        m_settings.setValue(zoomKey, percent);
}

void Settings::sync()
{
    m_settings.sync();
}

QString Settings::language() const
{
    return m_settings.value(languageKey).toString();
}

void Settings::setLanguage(const QString &language)
{
    m_settings.setValue(languageKey, language);
}

} // namespace retrylab
