#pragma once

#include <QLabel>

namespace retrylab {

// A one-line label that takes the room its layout gives it and cuts its text there with "…",
// asking for little: in a toolbar it fills what the buttons leave and never pushes a button into
// the "»" menu. text() stays whole (the tooltip and tests read it).
class ElidedLabel : public QLabel
{
public:
    explicit ElidedLabel(QWidget *parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // The text as painted at the present width.
    QString shownText() const;

protected:
    void paintEvent(QPaintEvent *event) override;
};

} // namespace retrylab
