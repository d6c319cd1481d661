#pragma once

// What every test of tests/x11 starts with: settings in test mode under the test's own name, and a
// real X server (the offscreen platform hides the layout loops these tests look for).
#include "lessons/lessoncontroller.h"
#include "lessons/lessonplayer.h"

#include <QCoreApplication>
#include <QGuiApplication>
#include <QStandardPaths>
#include <QString>

namespace x11test {

// Empty when the test can go on; else why not, for QVERIFY2.
inline QString setUp(const QString &applicationName)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("RetryLab"));
    QCoreApplication::setApplicationName(applicationName);
    if (QGuiApplication::platformName() == QLatin1String("xcb"))
        return QString();
    return QStringLiteral("this test needs a real X server (platform xcb), got \"%1\"; run it under xvfb-run as ctest does")
        .arg(QGuiApplication::platformName());
}

// Opens `step` of `lesson`, or moves to it when that lesson is open already. False with the reason.
inline bool openLessonStep(retrylab::LessonController *lessons, const QString &lesson, int step, QString *error)
{
    if (lessons->isLessonOpen() && lessons->player()->lesson().name == lesson) {
        lessons->player()->setStep(step);
        return true;
    }
    return lessons->startLesson(lesson, step, error);
}

} // namespace x11test
