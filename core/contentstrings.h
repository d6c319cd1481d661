#pragma once

#include <QStringList>

namespace retrylab {

// Every displayed text of resources/scenarios/*.json and resources/lessons/*.json (titles,
// descriptions, lesson texts), file by file, as the build generated it for lupdate
// (resources/translations/content_strings.cmake). Tests compare it with the JSON files.
QStringList contentSourceTexts();

} // namespace retrylab
