#pragma once

#include "scenario.h"
#include "scenario/schema.h"

#include <QLocale>

#include <type_traits>
#include <variant>

namespace retrylab::scenario {

// Every setting as JSON, with the keys that Scenario::toJson() leaves out of a saved file (a
// uniform distribution's distribution, mean and sd): what --set, valueAt, the field catalogue and
// the editor's form read.
QJsonObject toCompleteJson(const Scenario &s);

namespace detail {
inline QString shortest(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}
// A list setting as one text per entry, compared and shown whole ("0 to 10 s at 5/s"): the
// texts round-trip every number exactly, so equal texts are equal entries.
inline QStringList entryTexts(const QList<LoadPhase> &phases)
{
    QStringList out;
    for (const LoadPhase &p : phases)
        out << QStringLiteral("%1 to %2 s at %3/s").arg(shortest(p.fromS), shortest(p.toS), shortest(p.ratePerS));
    return out;
}
inline QStringList entryTexts(const QList<FaultWindow> &windows)
{
    QStringList out;
    for (const FaultWindow &w : windows)
        out << QStringLiteral("%1 to %2 s: %3 at %4")
                   .arg(shortest(w.fromS), shortest(w.toS), toString(w.fault), shortest(w.probability));
    return out;
}
} // namespace detail

// Walks every setting of two scenarios side by side: v(path, valueOfA, valueOfB) per field of the
// field table (scenario/schema.h) that is a setting, in file order; the seed comes first, as "seed".
// The one list of fields that scenario::sameSettings(), operator== and whatif::changes() use. A
// choice is passed as its name, a list of phases or windows as one text per entry.
template<class Visitor>
void visitSettings(const Scenario &a, const Scenario &b, Visitor &v)
{
    // The accessors serve the reader too, so they take a Scenario &; here they only read.
    Scenario &ma = const_cast<Scenario &>(a);
    Scenario &mb = const_cast<Scenario &>(b);
    for (const FieldSpec &f : schema()) {
        if (f.role != Role::Setting)
            continue;
        const char *path = f.pathLatin1.constData();
        std::visit(
            [&](auto at) {
                using At = decltype(at);
                if constexpr (std::is_same_v<At, std::monostate>) {
                    return;
                } else if constexpr (std::is_same_v<At, ChoiceMember>) {
                    v(path, f.choices.at(at.get(a)), f.choices.at(at.get(b)));
                } else if constexpr (std::is_same_v<At, QList<LoadPhase> *(*)(Scenario &)>
                                     || std::is_same_v<At, QList<FaultWindow> *(*)(Scenario &)>) {
                    v(path, detail::entryTexts(*at(ma)), detail::entryTexts(*at(mb)));
                } else {
                    v(path, *at(ma), *at(mb));
                }
            },
            f.member);
    }
}

} // namespace retrylab::scenario
