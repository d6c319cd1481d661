#pragma once

#include <QColor>
#include <QPalette>

namespace retrylab {

// Colours that read well on both light and dark system palettes.
inline bool isDarkPalette(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightnessF() < 0.5;
}

// Attention colour for duplicates and invalid fields.
inline QColor warningColor(const QPalette &palette)
{
    return isDarkPalette(palette) ? QColor(0xff, 0x8a, 0x80) : QColor(0xc6, 0x28, 0x28);
}

// Paints a widget's text in warningColor (a label that reports a problem).
template<typename Widget>
inline void paintAsWarning(Widget *widget)
{
    QPalette p = widget->palette();
    p.setColor(QPalette::WindowText, warningColor(p));
    widget->setPalette(p);
}

} // namespace retrylab
