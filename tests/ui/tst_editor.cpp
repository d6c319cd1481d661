#include "editorpresetlist.h"
#include "editorscripttable.h"
#include "scenarioeditor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QJsonArray>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>

using namespace retrylab;

namespace {

// Every leaf key of the scenario JSON (arrays count as one value).
void collectLeaves(const QJsonObject &object, const QString &prefix, QStringList *out)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString path = prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key();
        if (it.value().isObject())
            collectLeaves(it.value().toObject(), path, out);
        else
            out->append(path);
    }
}

Scenario loadPreset(const QString &name)
{
    const ScenarioParse parsed = scenario::preset(name);
    if (!parsed.ok())
        qWarning() << parsed.errors;
    return parsed.scenario;
}

// ghost-request with every layer on, so every field of the form can be edited.
Scenario editableScenario()
{
    const ScenarioParse parsed = scenario::withValue(loadPreset(QStringLiteral("ghost-request")),
                                                     QStringLiteral("client.transport.enabled"), true);
    return parsed.scenario;
}

void typeInto(QLineEdit *edit, const QString &text)
{
    edit->setFocus();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Delete);
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
}

} // namespace

class TestEditor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void fieldNamesAreScenarioPaths();
    void everyScenarioKeyHasAField();
    void setScenarioShowsValuesSilently_data();
    void setScenarioShowsValuesSilently();
    void editEmitsValidatedScenario_data();
    void editEmitsValidatedScenario();
    void invalidValueIsMarkedAndNotApplied_data();
    void invalidValueIsMarkedAndNotApplied();
    void presetListMatchesCatalogue();
    void scriptTableRoundTrip();
};

void TestEditor::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY2(!scenario::presetNames().isEmpty(), "presets are embedded in the core library");
}

void TestEditor::fieldNamesAreScenarioPaths()
{
    ScenarioEditor editor;
    const Scenario s = loadPreset(QStringLiteral("ghost-request"));
    QVERIFY(!editor.fieldPaths().isEmpty());
    const QList<QWidget *> widgets = editor.findChildren<QWidget *>();
    int fields = 0;
    for (QWidget *w : widgets) {
        if (!w->property("scenarioPath").isValid())
            continue;
        ++fields;
        const QString path = w->objectName();
        QCOMPARE(w->property("scenarioPath").toString(), path);
        QVERIFY2(!scenario::valueAt(s, path).isUndefined(), qPrintable(path));
        QCOMPARE(editor.findChild<QWidget *>(path), w);
    }
    QCOMPARE(fields, editor.fieldPaths().size());
}

void TestEditor::everyScenarioKeyHasAField()
{
    ScenarioEditor editor;
    QStringList leaves;
    collectLeaves(Scenario().toJson(), QString(), &leaves);
    const QStringList metadata{QStringLiteral("schema"), QStringLiteral("name"), QStringLiteral("title"),
                               QStringLiteral("description")};
    const QStringList fields = editor.fieldPaths();
    for (const QString &leaf : qAsConst(leaves)) {
        if (metadata.contains(leaf))
            continue;
        QVERIFY2(fields.contains(leaf), qPrintable(QStringLiteral("no form field for %1").arg(leaf)));
    }
}

void TestEditor::setScenarioShowsValuesSilently_data()
{
    QTest::addColumn<QString>("preset");
    const QStringList presets = scenario::presetNames();
    for (const QString &name : presets)
        QTest::addRow("%s", qPrintable(name)) << name;
}

void TestEditor::setScenarioShowsValuesSilently()
{
    QFETCH(QString, preset);
    const Scenario s = loadPreset(preset);
    ScenarioEditor editor;
    QSignalSpy changed(&editor, &ScenarioEditor::scenarioChanged);
    editor.setScenario(s);
    QCOMPARE(changed.count(), 0);
    QCOMPARE(editor.scenario(), s);

    auto *key = editor.findChild<QComboBox *>(QStringLiteral("client.keyPlacement"));
    QVERIFY(key);
    QCOMPARE(key->currentData().toString(), scenario::toString(s.client.keyPlacement));
    auto *mode = editor.findChild<QComboBox *>(QStringLiteral("server.idempotency.mode"));
    QCOMPARE(mode->currentData().toString(), scenario::toString(s.server.idempotency.mode));
    auto *loss = editor.findChild<QDoubleSpinBox *>(QStringLiteral("network.responseLoss"));
    QCOMPARE(qRound(loss->value() * 10), qRound(s.network.responseLoss * 1000));
    auto *transport = editor.findChild<QGroupBox *>(QStringLiteral("client.transport.enabled"));
    QCOMPARE(transport->isChecked(), s.client.transport.enabled);
    auto *orders = editor.findChild<QSpinBox *>(QStringLiteral("workload.orders"));
    QCOMPARE(orders->value(), s.workload.orders);
    QCOMPARE(editor.findChild<ScriptTableEditor *>(QStringLiteral("network.script"))->rowCount(),
             int(s.network.script.size()));
    QVERIFY(!editor.hasInvalidFields());
    // The list shows where the scenario came from.
    QCOMPARE(editor.presetList()->currentItem()->data(PresetList::NameRole).toString(), preset);
}

void TestEditor::editEmitsValidatedScenario_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("input");
    QTest::addColumn<QJsonValue>("expected");
    QTest::addRow("key-placement-combo") << QStringLiteral("client.keyPlacement") << QStringLiteral("perOperation")
                                         << QJsonValue(QStringLiteral("perOperation"));
    QTest::addRow("idempotency-mode-combo") << QStringLiteral("server.idempotency.mode") << QStringLiteral("atomic")
                                            << QJsonValue(QStringLiteral("atomic"));
    QTest::addRow("transport-layer-switch") << QStringLiteral("client.transport.enabled") << QStringLiteral("false")
                                            << QJsonValue(false);
    QTest::addRow("wrapper-layer-switch") << QStringLiteral("client.wrapper.enabled") << QStringLiteral("false")
                                          << QJsonValue(false);
    QTest::addRow("response-loss-percent") << QStringLiteral("network.responseLoss") << QStringLiteral("45")
                                           << QJsonValue(0.45);
    QTest::addRow("wrapper-max-attempts") << QStringLiteral("client.wrapper.maxAttempts") << QStringLiteral("5")
                                          << QJsonValue(5);
    QTest::addRow("backoff-multiplier") << QStringLiteral("client.business.backoff.multiplier")
                                        << QStringLiteral("1.5") << QJsonValue(1.5);
    QTest::addRow("status-forcelist-text") << QStringLiteral("client.transport.statusForcelist")
                                           << QStringLiteral("500, 503") << QJsonValue(QJsonArray{500, 503});
    QTest::addRow("allowed-methods-post") << QStringLiteral("client.transport.allowedMethods")
                                          << QStringLiteral("POST")
                                          << QJsonValue(QJsonArray{QStringLiteral("GET"), QStringLiteral("HEAD"),
                                                                   QStringLiteral("PUT"), QStringLiteral("DELETE"),
                                                                   QStringLiteral("OPTIONS"), QStringLiteral("TRACE"),
                                                                   QStringLiteral("POST")});
    QTest::addRow("request-id-checkbox") << QStringLiteral("client.requestId") << QStringLiteral("false")
                                         << QJsonValue(false);
}

void TestEditor::editEmitsValidatedScenario()
{
    QFETCH(QString, path);
    QFETCH(QString, input);
    QFETCH(QJsonValue, expected);

    ScenarioEditor editor;
    editor.show();
    const Scenario before = editableScenario();
    editor.setScenario(before);
    QVERIFY(scenario::valueAt(before, path) != expected);
    QSignalSpy changed(&editor, &ScenarioEditor::scenarioChanged);

    QWidget *field = editor.field(path);
    QVERIFY(field);
    QVERIFY(field->isEnabled());
    QCOMPARE(field->objectName(), path);
    if (auto *combo = qobject_cast<QComboBox *>(field)) {
        combo->setCurrentIndex(combo->findData(input));
    } else if (auto *box = qobject_cast<QGroupBox *>(field)) {
        box->setChecked(input == QLatin1String("true"));
    } else if (auto *check = qobject_cast<QCheckBox *>(field)) {
        check->setChecked(input == QLatin1String("true"));
    } else if (auto *dspin = qobject_cast<QDoubleSpinBox *>(field)) {
        dspin->setValue(input.toDouble());
    } else if (auto *spin = qobject_cast<QSpinBox *>(field)) {
        spin->setValue(input.toInt());
    } else if (auto *edit = qobject_cast<QLineEdit *>(field)) {
        typeInto(edit, input);
    } else {
        auto *method = field->findChild<QCheckBox *>(QStringLiteral("method%1").arg(input));
        QVERIFY(method);
        method->setChecked(!method->isChecked());
    }

    QCOMPARE(changed.count(), 1);
    const Scenario emitted = changed.first().first().value<Scenario>();
    QCOMPARE(scenario::valueAt(emitted, path), expected);
    QCOMPARE(editor.scenario(), emitted);
    QVERIFY(!editor.hasInvalidFields());
    // Only the edited key changed.
    const ScenarioParse reverted = scenario::withValue(emitted, path, scenario::valueAt(before, path));
    QVERIFY(reverted.ok());
    QCOMPARE(reverted.scenario, before);
}

void TestEditor::invalidValueIsMarkedAndNotApplied_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("invalid");
    QTest::addColumn<QString>("valid");
    QTest::addRow("transport-total-above-range") << QStringLiteral("client.transport.total") << QStringLiteral("50")
                                                 << QStringLiteral("5");
    QTest::addRow("zero-orders") << QStringLiteral("workload.orders") << QStringLiteral("0") << QStringLiteral("7");
    QTest::addRow("forcelist-not-a-status") << QStringLiteral("client.transport.statusForcelist")
                                            << QStringLiteral("500,abc") << QStringLiteral("500,502");
    QTest::addRow("error-status-not-5xx") << QStringLiteral("server.errorStatus") << QStringLiteral("429")
                                          << QStringLiteral("502");
}

void TestEditor::invalidValueIsMarkedAndNotApplied()
{
    QFETCH(QString, path);
    QFETCH(QString, invalid);
    QFETCH(QString, valid);

    ScenarioEditor editor;
    editor.show();
    const Scenario before = editableScenario();
    editor.setScenario(before);
    QSignalSpy changed(&editor, &ScenarioEditor::scenarioChanged);
    QWidget *field = editor.field(path);
    QVERIFY(field);
    QVERIFY(field->isEnabled());
    auto enter = [&](const QString &text) {
        if (auto *spin = qobject_cast<QSpinBox *>(field))
            spin->setValue(text.toInt());
        else if (auto *edit = qobject_cast<QLineEdit *>(field))
            typeInto(edit, text);
    };

    enter(invalid);
    QCOMPARE(changed.count(), 0);
    QCOMPARE(editor.scenario(), before);
    QVERIFY(editor.hasInvalidFields());
    QVERIFY(field->property("invalid").toBool());
    QVERIFY(!editor.fieldError(path).isEmpty());
    QCOMPARE(field->toolTip(), editor.fieldError(path));
    QVERIFY2(editor.fieldError(path).contains(QLatin1String("expected")), qPrintable(editor.fieldError(path)));

    enter(valid);
    QCOMPARE(changed.count(), 1);
    QVERIFY(!field->property("invalid").toBool());
    QVERIFY(!editor.hasInvalidFields());
    QVERIFY(editor.scenario() != before);

    // Loading a scenario clears any leftover mark.
    enter(invalid);
    QVERIFY(field->property("invalid").toBool());
    editor.setScenario(before);
    QVERIFY(!field->property("invalid").toBool());
    QVERIFY(!editor.hasInvalidFields());
}

void TestEditor::presetListMatchesCatalogue()
{
    ScenarioEditor editor;
    PresetList *list = editor.presetList();
    QCOMPARE(list->names(), scenario::presetNames());
    QSignalSpy activated(&editor, &ScenarioEditor::presetActivated);
    const int row = list->count() - 1;
    QVERIFY(row >= 0);
    QListWidgetItem *item = list->item(row);
    QVERIFY(!item->text().isEmpty());
    QVERIFY(!item->data(PresetList::DescriptionRole).toString().isEmpty());
    Q_EMIT list->itemClicked(item);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.first().first().toString(), scenario::presetNames().at(row));
}

void TestEditor::scriptTableRoundTrip()
{
    ScenarioEditor editor;
    editor.show();
    editor.setScenario(loadPreset(QStringLiteral("ghost-request")));
    auto *script = editor.findChild<ScriptTableEditor *>(QStringLiteral("network.script"));
    QVERIFY(script);
    QSignalSpy changed(&editor, &ScenarioEditor::scenarioChanged);
    const int rows = script->rowCount();

    script->addRow();
    QCOMPARE(changed.count(), 1);
    Scenario s = editor.scenario();
    QCOMPARE(int(s.network.script.size()), rows + 1);
    QCOMPARE(s.network.script.last().fault, FaultKind::ResponseLost);

    // A bad attempt path is refused by the core and marked on the table.
    script->table()->item(rows, 1)->setText(QStringLiteral("b1/x"));
    QCOMPARE(changed.count(), 1);
    QVERIFY(script->property("invalid").toBool());
    QVERIFY(editor.fieldError(QStringLiteral("network.script")).contains(QLatin1String("attempt")));
    QCOMPARE(editor.scenario(), s);

    script->table()->item(rows, 0)->setText(QStringLiteral("*"));
    script->table()->item(rows, 1)->setText(QStringLiteral("b2/*/*"));
    QVERIFY(!script->property("invalid").toBool());
    s = editor.scenario();
    QCOMPARE(s.network.script.last().op, 0);
    QCOMPARE(s.network.script.last().attempt, QStringLiteral("b2/*/*"));

    script->table()->selectRow(rows);
    script->removeSelectedRows();
    QCOMPARE(int(editor.scenario().network.script.size()), rows);
}

QTEST_MAIN(TestEditor)
#include "tst_editor.moc"
