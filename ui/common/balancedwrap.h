#pragma once

#include <QFont>
#include <QString>

namespace retrylab::textwrap {

// Lines `text` takes when wrapped at `width` as a word-wrapped QLabel wraps it (Qt::TextWordWrap:
// at spaces, and between any two Chinese characters).
int lineCount(const QString &text, const QFont &font, int width);

// The narrowest width, at most `width`, at which `text` takes no more lines than at `width`: the lines
// come out of equal length, so a title never ends on a lone word or character ("…次数相 / 乘").
// `width` itself when the text fits on one line.
int balancedWidth(const QString &text, const QFont &font, int width);

} // namespace retrylab::textwrap
