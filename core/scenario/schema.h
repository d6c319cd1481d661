#pragma once

#include "scenario.h"

#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <variant>

namespace retrylab::scenario {

// Limits the table and the cross-field rules share.
inline constexpr int MaxMs = 3600000;          // one hour of virtual time
inline constexpr int MaxOperations = 100000000; // workload.orders, and clients x opsPerClient in closed mode:
// memory no longer grows with them (a run frees each operation as it ends), so the work budget
// (work::DefaultMaxAttempts, 1e8 HTTP attempts) is what bounds a run, not this cap
inline constexpr int MaxScriptOp = 1000000;     // network.script[].op: the operations a script can address
inline constexpr double MaxDistributionMs = 600000; // mean and sd of a normal distribution: ten minutes
inline constexpr double MaxDayS = 86400;       // phases and windows lie within one day of virtual time
inline constexpr double MaxPhaseArrivals = 1000000; // the operations that workload.phases may bring, summed

// What a field holds: how the reader checks it, the writer writes it and the editor shows it.
enum class FieldType { Integer, Number, Boolean, Choice, Text, List };

// What a field's null or lowest value means.
enum class Special {
    None,
    NullUnlimited, // null is unlimited (urllib3's None), stored as -1
    NullQuiet,     // the same, with no hint in the catalogue (a cross-field rule says when it is allowed)
    NullMeans,     // a number whose null (stored as -1) means specialText
    LowMeans,      // the minimum means specialText; the plain range starts one above it
};

// A field the reader, the writer and the visitor do not handle alone.
enum class Role {
    Setting,  // read, written and compared by the table walk
    Metadata, // read and written, but no setting (schema, name, title, description)
    Alias,    // input-only names of other fields (backoff.tenacity.*): listed, never written or compared
    Item,     // a key of a list entry ("network.script[N].op"): listed; the list's own code reads it
};

// Accessors of a choice: the enum as its index.
struct ChoiceMember
{
    int (*get)(const Scenario &) = nullptr;
    void (*set)(Scenario &, int) = nullptr;
};

// The member a field reads and writes, by its type (monostate: an item or alias, which has none).
using Member = std::variant<std::monostate, int *(*)(Scenario &), double *(*)(Scenario &), bool *(*)(Scenario &),
                            QString *(*)(Scenario &), quint64 *(*)(Scenario &), ChoiceMember,
                            QList<int> *(*)(Scenario &), QStringList *(*)(Scenario &),
                            QList<ScriptEntry> *(*)(Scenario &), QList<LoadPhase> *(*)(Scenario &),
                            QList<FaultWindow> *(*)(Scenario &)>;

namespace detail {
class ObjectReader;
} // namespace detail

// How the editor shows a field (the range comes from the bounds: see editorRange()).
struct EditorHint
{
    double step = 1;
    int decimals = 0;     // number fields
    bool percent = false; // a probability shown as a percentage
    bool shown = true;    // false: the form has no widget for it (the text fields and the aliases)
};

// One field of a scenario file, declared once. The reader, the writer, the visitor (sameSettings,
// operator==, whatif::changes), the catalogue (`retrylab fields`), the --set paths and the editor's
// widgets and ranges all walk this table; tst_fieldtable checks that they agree.
struct FieldSpec
{
    QString path; // dotted, in file order; "[N]" stands for any index of a list
    QByteArray pathLatin1; // the same, for visitors that take a const char *
    FieldType type = FieldType::Integer;
    Role role = Role::Setting;
    bool bounded = false; // minimum and maximum apply (integer and number; a text's maximum is its length)
    double minimum = 0;
    double maximum = 0;
    Special special = Special::None;
    QString specialText;
    QString allowed;     // the catalogue's words where the type and bounds cannot say it (lists, periods)
    QStringList choices; // choice and list of names
    // Choice: older names of a value, each with its index (accepted on input, never written):
    // jitter "decorrelated", now "awsDecorrelated".
    QList<QPair<QString, int>> choiceAliases;
    QString unit;        // "ms", "s", "%" or empty
    EditorHint editor;
    Member member;
    // Custom reading and writing, for fields whose rules are more than a type and bounds (the seed,
    // the lists, the tenacity alias). Null: the table walk reads and writes the member.
    void (*read)(detail::ObjectReader &r, const FieldSpec &spec, Scenario &s) = nullptr;
    QJsonValue (*write)(const Scenario &s) = nullptr;
    // Written to a saved file only when this holds (a uniform distribution leaves out its shape, mean
    // and sd); complete JSON (--set, valueAt, the catalogue) always has it. Null: always.
    bool (*writtenIf)(const Scenario &s) = nullptr;

    QString key() const { return path.mid(path.lastIndexOf(QLatin1Char('.')) + 1); }
};

// Every field of a scenario file, in file order.
const QList<FieldSpec> &schema();
// The field at a catalogue path ("network.script[N].op"), or null.
const FieldSpec *fieldSpec(const QString &path);

// The range of the editor's spin box for a field. It reaches past the validator's bounds on
// purpose, so that a value out of range reaches the validator, which names the field and the rule,
// instead of the spin box clamping it silently: from 0 (or the minimum when it is below 0), one
// below that when the lowest value stands for null ("unlimited", "full"), up to ten times the
// maximum (at most INT_MAX for integers). The one place this rule is written.
struct EditorRange
{
    double minimum = 0;
    double maximum = 0;
    bool nullAtMinimum = false; // the lowest value is read back as JSON null
};
EditorRange editorRange(const FieldSpec &spec);

} // namespace retrylab::scenario
