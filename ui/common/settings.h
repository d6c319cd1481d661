#pragma once

#include <QByteArray>
#include <QSettings>
#include <QString>
#include <QStringList>

namespace retrylab {

// Typed access to the few things the desktop lab remembers between sessions.
class Settings
{
public:
    static constexpr int maxRecentFiles = 8;

    Settings();

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray &geometry);
    QByteArray windowState() const;
    void setWindowState(const QByteArray &state);

    // A scenario file path or a preset name; empty when nothing was opened yet.
    QString lastScenario() const;
    void setLastScenario(const QString &nameOrFile);
    // Set (and written to disk) while the remembered scenario loads at start-up, cleared once its
    // result is shown: still set at the next start means that start hung or was killed.
    bool lastScenarioPending() const;
    void setLastScenarioPending(bool pending);

    // Most recent first, at most maxRecentFiles entries, no duplicates.
    QStringList recentFiles() const;
    void addRecentFile(const QString &fileName);
    void removeRecentFile(const QString &fileName);
    void clearRecentFiles();

    // The whole window's zoom for a projector, in percent of the system font (View > Zoom in).
    static constexpr int minZoomPercent = 50;
    static constexpr int maxZoomPercent = 300;
    static constexpr int defaultZoomPercent = 100;
    // Always within minZoomPercent..maxZoomPercent, whatever the file says.
    int zoomPercent() const;
    void setZoomPercent(int percent);

    // The language chosen in View > Language (en or zh_CN); empty: follow the system locale.
    QString language() const;
    void setLanguage(const QString &language);

    void sync();

private:
    QSettings m_settings;
};

} // namespace retrylab
