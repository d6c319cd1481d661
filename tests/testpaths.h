#pragma once

// Where a test finds its data folder (tests/data) and the retrylab binary. tests/CMakeLists.txt
// gives both as paths relative to the test executable's folder, so no checkout's absolute path is on
// a compile line (ccache then shares test objects between checkouts); they are resolved here, at
// run time, which works under ctest and for a test binary run by hand from anywhere.
// Call them once the QCoreApplication exists (inside a test function, not at namespace scope).
#include <QCoreApplication>
#include <QDir>
#include <QString>

namespace retrylab::test {

inline QString fromTestBinary(const char *relative)
{
    if (!QCoreApplication::instance())
        qFatal("test paths are resolved against the test binary: create the application first");
    return QDir::cleanPath(QCoreApplication::applicationDirPath() + QLatin1Char('/') + QLatin1String(relative));
}

// tests/data, or a path under it ("golden/x.json").
inline QString dataPath(const QString &under = QString())
{
    const QString data = fromTestBinary(RETRYLAB_TEST_DATA_REL);
    return under.isEmpty() ? data : data + QLatin1Char('/') + under;
}

// The checkout's root folder, or a path under it ("docs/http-service.md").
inline QString sourcePath(const QString &under = QString())
{
    const QString root = QDir::cleanPath(dataPath() + QLatin1String("/../.."));
    return under.isEmpty() ? root : root + QLatin1Char('/') + under;
}

// The built retrylab executable.
inline QString retrylabBin()
{
    return fromTestBinary(RETRYLAB_BIN_REL);
}

} // namespace retrylab::test
