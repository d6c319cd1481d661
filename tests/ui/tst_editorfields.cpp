// The editor's half of tst_fieldtable: for every field of the table that the form shows, the
// widget has the table's type, range (scenario::editorRange), unit, choices and default, and a
// value past the validator's bounds reaches the validator, which names it.
#include "editor/scenarioeditor.h"
#include "scenario/schema.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QSpinBox>
#include <QTest>

using namespace retrylab;
using scenario::FieldSpec;
using scenario::FieldType;
using scenario::Role;

namespace {

// The fields the form must show: every setting it can edit as one value or one list.
bool shownByTheForm(const FieldSpec &f)
{
    return f.editor.shown && f.role == Role::Setting;
}

// The spin box's suffix for a unit, as the editor words it in English.
QString suffixOf(const FieldSpec &f)
{
    return f.unit.isEmpty() ? QString() : QLatin1Char(' ') + f.unit;
}

} // namespace

class TestEditorFields : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyFieldHasItsWidget();
    void widgetsFollowTheTable();
    void defaultsShown();
    void beyondTheBoundsTheValidatorSpeaks();
};

void TestEditorFields::everyFieldHasItsWidget()
{
    ScenarioEditor editor;
    QSet<QString> table;
    for (const FieldSpec &f : scenario::schema()) {
        table.insert(f.path);
        if (shownByTheForm(f))
            QVERIFY2(editor.field(f.path), qPrintable(f.path));
        else
            QVERIFY2(!editor.field(f.path), qPrintable(f.path));
    }
    for (const QString &path : editor.fieldPaths())
        QVERIFY2(table.contains(path), qPrintable(path));
}

void TestEditorFields::widgetsFollowTheTable()
{
    ScenarioEditor editor;
    for (const FieldSpec &f : scenario::schema()) {
        if (!shownByTheForm(f))
            continue;
        QWidget *w = editor.field(f.path);
        QVERIFY2(w, qPrintable(f.path));
        const scenario::EditorRange range = scenario::editorRange(f);
        switch (f.type) {
        case FieldType::Integer: {
            auto *spin = qobject_cast<QSpinBox *>(w);
            QVERIFY2(spin, qPrintable(f.path));
            QCOMPARE(spin->minimum(), int(range.minimum));
            QCOMPARE(spin->maximum(), int(range.maximum));
            QCOMPARE(spin->singleStep(), int(f.editor.step));
            QCOMPARE(spin->suffix(), suffixOf(f));
            break;
        }
        case FieldType::Number: {
            auto *spin = qobject_cast<QDoubleSpinBox *>(w);
            QVERIFY2(spin, qPrintable(f.path));
            const double scale = f.editor.percent ? 100 : 1;
            QCOMPARE(spin->minimum(), range.minimum * scale);
            QCOMPARE(spin->maximum(), range.maximum * scale);
            QCOMPARE(spin->decimals(), f.editor.decimals);
            QCOMPARE(spin->suffix(), suffixOf(f));
            break;
        }
        case FieldType::Boolean: {
            auto *box = qobject_cast<QGroupBox *>(w);
            QVERIFY2(qobject_cast<QCheckBox *>(w) || (box && box->isCheckable()), qPrintable(f.path));
            break;
        }
        case FieldType::Choice: {
            auto *combo = qobject_cast<QComboBox *>(w);
            QVERIFY2(combo, qPrintable(f.path));
            QStringList values;
            for (int i = 0; i < combo->count(); ++i)
                values << combo->itemData(i).toString();
            QCOMPARE(values, f.choices);
            break;
        }
        case FieldType::Text:
        case FieldType::List:
            break;
        }
    }
}

void TestEditorFields::defaultsShown()
{
    ScenarioEditor editor;
    editor.setScenario(Scenario());
    for (const FieldSpec &f : scenario::schema()) {
        if (!shownByTheForm(f))
            continue;
        const QJsonValue value = scenario::valueAt(Scenario(), f.path);
        QWidget *w = editor.field(f.path);
        if (auto *spin = qobject_cast<QSpinBox *>(w)) {
            QCOMPARE(spin->value(), value.isNull() ? spin->minimum() : qMin(value.toInt(), spin->maximum()));
        } else if (auto *dspin = qobject_cast<QDoubleSpinBox *>(w)) {
            const double scale = f.editor.percent ? 100 : 1;
            QCOMPARE(dspin->value(), value.isNull() ? dspin->minimum() : value.toDouble() * scale);
        } else if (auto *combo = qobject_cast<QComboBox *>(w)) {
            QCOMPARE(combo->currentData().toString(), value.toString());
        } else if (auto *check = qobject_cast<QCheckBox *>(w)) {
            QCOMPARE(check->isChecked(), value.toBool());
        } else if (auto *box = qobject_cast<QGroupBox *>(w)) {
            QCOMPARE(box->isChecked(), value.toBool());
        }
    }
}

void TestEditorFields::beyondTheBoundsTheValidatorSpeaks()
{
    // The editor's range reaches past the bounds on purpose: a value there is refused by the
    // validator with the field's own message, never clamped by the spin box.
    int checked = 0;
    for (const FieldSpec &f : scenario::schema()) {
        if (!shownByTheForm(f) || f.type != FieldType::Integer || f.path == QLatin1String("seed"))
            continue;
        ScenarioEditor editor;
        editor.setScenario(Scenario());
        auto *spin = qobject_cast<QSpinBox *>(editor.field(f.path));
        QVERIFY2(spin, qPrintable(f.path));
        spin->setValue(int(f.maximum) + 1);
        QCOMPARE(spin->value(), int(f.maximum) + 1);
        QVERIFY2(editor.fieldError(f.path).contains(QLatin1String("expected")), qPrintable(f.path));
        ++checked;
    }
    QVERIFY(checked > 30);
}

QTEST_MAIN(TestEditorFields)
#include "tst_editorfields.moc"
