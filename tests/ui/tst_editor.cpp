#include "editor/editorentrytable.h"
#include "editor/editorpresetlist.h"
#include "editor/editorscripttable.h"
#include "editor/scenarioeditor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QJsonArray>
#include <QJsonObject>
#include <QApplication>
#include <QLabel>
#include <QScopeGuard>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBox>

#include "testsupport.h"

using namespace retrylab;

namespace {

// The shared loader: a preset that does not load stops the test instead of passing a default.
Scenario loadPreset(const QString &name)
{
    return test::presetScenario(name);
}

// ghost-request with every layer, the retry budget and the circuit breaker on, so every field of
// the form can be edited.
Scenario editableScenario()
{
    const ScenarioParse parsed = scenario::withSets(loadPreset(QStringLiteral("ghost-request")),
                                                    {QStringLiteral("client.transport.enabled=true"),
                                                     QStringLiteral("client.retryBudget.enabled=true"),
                                                     QStringLiteral("client.circuitBreaker.enabled=true")});
    return parsed.scenario;
}

// Whether the row of a field is shown on its page (the pages of the sections other than the
// current one are hidden as a whole, so this asks the page, not the window).
bool rowShown(const ScenarioEditor &editor, const QString &path)
{
    QWidget *field = editor.field(path);
    if (!field)
        return false;
    for (QWidget *p = field->parentWidget(); p; p = p->parentWidget()) {
        if (auto *scroll = qobject_cast<QScrollArea *>(p))
            return field->isVisibleTo(scroll->widget());
    }
    return false;
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
    void titleAndDescriptionAreEdited();
    void changedSettingsMarkTheTextModified();
    void everySettingCountsAsModified();
    void savedScenarioKeepsTheEditedTitle();
    void arrowKeysLoadThePreset();
    void enterLoadsAndFocusDoesNot();
    void connectionRefusedLabelIsPrecise();
    void settingsFitA350PixelDock();
    void longScriptConvertsOncePerLoadAndEdit();
    void longScriptMakesNoWidgetPerRow();
    void scriptFaultIsChosenInPlace();
    void scriptMethodIsChosenInPlace();
    void phasesTableEditsTheScenario();
    void windowsTableEditsTheScenario();
    void modeControlsShowAndHide();
    void initialTokensFullIsNull();
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
    retrylab::test::collectLeaves(Scenario().toJson(), QString(), &leaves);
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
    // Issue 11: one row per new control.
    QTest::addRow("workload-mode") << QStringLiteral("workload.mode") << QStringLiteral("closed")
                                   << QJsonValue(QStringLiteral("closed"));
    QTest::addRow("workload-arrivals") << QStringLiteral("workload.arrivals") << QStringLiteral("poisson")
                                       << QJsonValue(QStringLiteral("poisson"));
    QTest::addRow("workload-ops-per-client") << QStringLiteral("workload.opsPerClient") << QStringLiteral("4")
                                             << QJsonValue(4);
    QTest::addRow("workload-think-time") << QStringLiteral("workload.thinkTimeMs") << QStringLiteral("200")
                                         << QJsonValue(200);
    QTest::addRow("workload-start-together") << QStringLiteral("workload.startTogether") << QStringLiteral("false")
                                             << QJsonValue(false);
    QTest::addRow("latency-distribution") << QStringLiteral("network.latencyMs.distribution")
                                          << QStringLiteral("normal") << QJsonValue(QStringLiteral("normal"));
    QTest::addRow("latency-mean") << QStringLiteral("network.latencyMs.mean") << QStringLiteral("12.5")
                                  << QJsonValue(12.5);
    QTest::addRow("latency-sd") << QStringLiteral("network.latencyMs.sd") << QStringLiteral("3") << QJsonValue(3);
    QTest::addRow("processing-distribution") << QStringLiteral("server.processingMs.distribution")
                                             << QStringLiteral("normal") << QJsonValue(QStringLiteral("normal"));
    QTest::addRow("processing-mean") << QStringLiteral("server.processingMs.mean") << QStringLiteral("40")
                                     << QJsonValue(40);
    QTest::addRow("processing-sd") << QStringLiteral("server.processingMs.sd") << QStringLiteral("5") << QJsonValue(5);
    QTest::addRow("server-model") << QStringLiteral("server.model") << QStringLiteral("occ")
                                  << QJsonValue(QStringLiteral("occ"));
    QTest::addRow("server-occ-rows") << QStringLiteral("server.occ.rows") << QStringLiteral("8") << QJsonValue(8);
    QTest::addRow("server-latency-per-in-flight") << QStringLiteral("server.latencyPerInFlightMs")
                                                  << QStringLiteral("2.5") << QJsonValue(2.5);
    QTest::addRow("budget-scope") << QStringLiteral("client.retryBudget.scope") << QStringLiteral("global")
                                  << QJsonValue(QStringLiteral("global"));
    QTest::addRow("budget-initial-tokens") << QStringLiteral("client.retryBudget.initialTokens")
                                           << QStringLiteral("3") << QJsonValue(3);
    QTest::addRow("breaker-mode") << QStringLiteral("client.circuitBreaker.mode") << QStringLiteral("failureRate")
                                  << QJsonValue(QStringLiteral("failureRate"));
    QTest::addRow("breaker-window") << QStringLiteral("client.circuitBreaker.window") << QStringLiteral("40")
                                    << QJsonValue(40);
    QTest::addRow("breaker-failure-rate") << QStringLiteral("client.circuitBreaker.failureRatePercent")
                                          << QStringLiteral("30") << QJsonValue(30);
    QTest::addRow("breaker-retries-only") << QStringLiteral("client.circuitBreaker.retriesOnly")
                                          << QStringLiteral("true") << QJsonValue(true);
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
    QAbstractItemModel *model = script->table()->model();
    QVERIFY(model->setData(model->index(rows, ScriptTableModel::AttemptColumn), QStringLiteral("b1/x")));
    QCOMPARE(changed.count(), 1);
    QVERIFY(script->property("invalid").toBool());
    QVERIFY(editor.fieldError(QStringLiteral("network.script")).contains(QLatin1String("attempt")));
    QCOMPARE(editor.scenario(), s);

    QVERIFY(model->setData(model->index(rows, ScriptTableModel::OpColumn), QStringLiteral("*")));
    QVERIFY(model->setData(model->index(rows, ScriptTableModel::AttemptColumn), QStringLiteral("b2/*/*")));
    QVERIFY(!script->property("invalid").toBool());
    s = editor.scenario();
    QCOMPARE(s.network.script.last().op, 0);
    QCOMPARE(s.network.script.last().attempt, QStringLiteral("b2/*/*"));

    script->table()->selectRow(rows);
    script->removeSelectedRows();
    QCOMPARE(int(editor.scenario().network.script.size()), rows);
}

void TestEditor::titleAndDescriptionAreEdited()
{
    ScenarioEditor editor;
    editor.show();
    QVERIFY(QTest::qWaitForWindowActive(&editor));
    const Scenario before = loadPreset(QStringLiteral("ghost-request"));
    editor.setScenario(before);
    auto *title = editor.findChild<QLineEdit *>(QStringLiteral("scenarioTitle"));
    auto *description = editor.findChild<QPlainTextEdit *>(QStringLiteral("scenarioDescription"));
    QVERIFY(title);
    QVERIFY(description);
    QCOMPARE(title->text(), before.title);
    QCOMPARE(description->toPlainText(), before.description);
    QSignalSpy changed(&editor, &ScenarioEditor::scenarioChanged);

    editor.tabs()->setCurrentIndex(1);
    editor.sections()->setCurrentIndex(0);
    title->setFocus();
    title->selectAll();
    QTest::keyClicks(title, QStringLiteral("Ghost request, 60% lost"));
    QTest::keyClick(title, Qt::Key_Return);
    QCOMPARE(changed.count(), 1);
    Scenario emitted = changed.last().first().value<Scenario>();
    QCOMPARE(emitted.title, QStringLiteral("Ghost request, 60% lost"));
    QCOMPARE(emitted.description, before.description);
    QVERIFY(scenario::sameSettings(emitted, before));
    QCOMPARE(editor.scenario(), emitted);

    // The description commits after a pause in typing, without leaving the field.
    description->setFocus();
    description->selectAll();
    QTest::keyClicks(description, QStringLiteral("Most responses are lost."));
    QVERIFY(changed.wait());
    QCOMPARE(changed.count(), 2);
    emitted = changed.last().first().value<Scenario>();
    QCOMPARE(emitted.description, QStringLiteral("Most responses are lost."));
    QCOMPARE(emitted.title, QStringLiteral("Ghost request, 60% lost"));
    // Text alone does not mark the settings modified.
    QVERIFY(!editor.settingsModified());

    // Loading another scenario shows its text and emits nothing.
    editor.setScenario(loadPreset(QStringLiteral("stable-key")));
    QCOMPARE(title->text(), loadPreset(QStringLiteral("stable-key")).title);
    QCOMPARE(changed.count(), 2);
}

void TestEditor::changedSettingsMarkTheTextModified()
{
    ScenarioEditor editor;
    editor.show();
    const Scenario loaded = loadPreset(QStringLiteral("ghost-request"));
    editor.setScenario(loaded);
    auto *banner = editor.findChild<QLabel *>(QStringLiteral("scenarioModified"));
    QVERIFY(banner);
    QVERIFY(!editor.settingsModified());
    QVERIFY(!banner->isVisibleTo(&editor));
    QSignalSpy modified(&editor, &ScenarioEditor::settingsModifiedChanged);
    auto *loss = qobject_cast<QDoubleSpinBox *>(editor.field(QStringLiteral("network.responseLoss")));
    QVERIFY(loss);

    loss->setValue(60);
    QVERIFY(editor.settingsModified());
    QCOMPARE(modified.count(), 1);
    QCOMPARE(modified.last().first().toBool(), true);
    QVERIFY(banner->isVisibleTo(&editor));
    QVERIFY2(banner->text().contains(QLatin1String("(modified)")), qPrintable(banner->text()));
    QVERIFY2(banner->text().contains(QLatin1String("written for the original settings")), qPrintable(banner->text()));
    QVERIFY(editor.sections()->itemText(0).contains(QLatin1String("modified")));
    QCOMPARE(editor.originalScenario(), loaded);
    // The title itself is left alone; what gets saved says it was modified.
    QCOMPARE(editor.scenario().title, loaded.title);
    QCOMPARE(editor.scenarioToSave().title, loaded.title + QStringLiteral(" (modified)"));
    QCOMPARE(editor.scenarioToSave().network.responseLoss, 0.6);

    // A new seed tells the same lesson: not a modification.
    Scenario reseeded = loaded;
    reseeded.seed = loaded.seed + 1;
    QVERIFY(scenario::sameSettings(loaded, reseeded));
    QVERIFY(reseeded != loaded);

    // Showing the scenario again (e.g. with a new seed) keeps what it is compared with.
    Scenario shown = editor.scenario();
    shown.seed += 7;
    editor.setScenario(shown, ScenarioEditor::Baseline::Keep);
    QVERIFY(editor.settingsModified());
    QVERIFY(banner->isVisibleTo(&editor));

    // Back to the loaded value: the marker goes.
    loss->setValue(30);
    QVERIFY(!editor.settingsModified());
    QCOMPARE(modified.count(), 2);
    QCOMPARE(modified.last().first().toBool(), false);
    QVERIFY(!banner->isVisibleTo(&editor));
    QCOMPARE(editor.sections()->itemText(0), QStringLiteral("Title and description"));
    QCOMPARE(editor.scenarioToSave().title, loaded.title);

    // Loading (Baseline::Reset) makes the shown settings the original ones.
    loss->setValue(45);
    QVERIFY(editor.settingsModified());
    editor.setScenario(editor.scenario());
    QVERIFY(!editor.settingsModified());
    QVERIFY(!banner->isVisibleTo(&editor));
}

void TestEditor::everySettingCountsAsModified()
{
    // One script entry, so its keys can change too.
    const ScenarioParse withEntry = scenario::withSet(Scenario(), QStringLiteral("network.script[0].op=1"));
    QVERIFY(withEntry.ok());
    const Scenario base = withEntry.scenario;
    const QStringList metadata{QStringLiteral("schema"), QStringLiteral("name"), QStringLiteral("title"),
                               QStringLiteral("description"), QStringLiteral("seed")};
    const QList<FieldInfo> fields = scenario::fields();
    int checked = 0;
    for (const FieldInfo &f : fields) {
        if (f.bounded && f.minimum == f.maximum)
            continue; // schema: one allowed value
        ++checked;
        QString path = f.path;
        path.replace(QStringLiteral("[N]"), QStringLiteral("[0]"));
        const QJsonValue current = scenario::valueAt(base, path);
        QJsonValue other;
        if (f.type == QLatin1String("boolean"))
            other = !current.toBool();
        else if (f.type == QLatin1String("choice"))
            other = f.choices.at((f.choices.indexOf(current.toString()) + 1) % f.choices.size());
        else if (f.bounded)
            other = current.toDouble() == f.maximum ? f.minimum : f.maximum;
        else if (path == QLatin1String("network.script"))
            other = QJsonArray();
        else if (path == QLatin1String("network.script[0].attempt"))
            other = QStringLiteral("b2/*/*");
        else if (path == QLatin1String("client.transport.statusForcelist"))
            other = QJsonArray{429};
        else if (path == QLatin1String("client.transport.allowedMethods"))
            other = QJsonArray{QStringLiteral("POST")};
        else if (path == QLatin1String("server.restarts"))
            other = QJsonArray{QJsonObject{{QStringLiteral("atS"), 12}}};
        else if (path == QLatin1String("workload.phases"))
            other = QJsonArray{QJsonObject{{QStringLiteral("fromS"), 0}, {QStringLiteral("toS"), 10},
                                           {QStringLiteral("ratePerS"), 5}}};
        else if (path == QLatin1String("windows"))
            other = QJsonArray{QJsonObject{{QStringLiteral("fromS"), 0}, {QStringLiteral("toS"), 10},
                                           {QStringLiteral("fault"), QStringLiteral("responseLost")}}};
        else if (path.endsWith(QLatin1String("].fromS")))
            other = 5; // a fresh entry: before its toS (10)
        else if (path.endsWith(QLatin1String("].toS")))
            other = 20;
        else
            other = QStringLiteral("changed");
        const ScenarioParse changed = scenario::withValue(base, path, other);
        QVERIFY2(changed.ok(), qPrintable(path + QLatin1Char(' ') + changed.errors.join(QLatin1Char(';'))));
        QVERIFY2(changed.scenario != base, qPrintable(path));
        QCOMPARE(scenario::sameSettings(changed.scenario, base), metadata.contains(path));
    }
    QCOMPARE(checked, int(fields.size()) - 1);
}

void TestEditor::savedScenarioKeepsTheEditedTitle()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    ScenarioEditor editor;
    editor.show();
    editor.setScenario(loadPreset(QStringLiteral("ghost-request")));
    qobject_cast<QDoubleSpinBox *>(editor.field(QStringLiteral("network.responseLoss")))->setValue(60);
    QVERIFY(editor.settingsModified());
    auto *title = editor.findChild<QLineEdit *>(QStringLiteral("scenarioTitle"));
    title->setText(QStringLiteral("Most responses lost"));
    Q_EMIT title->editingFinished();
    QCOMPARE(editor.scenario().title, QStringLiteral("Most responses lost"));
    // An edited title is the user's own: no "(modified)" is added.
    QCOMPARE(editor.scenarioToSave().title, QStringLiteral("Most responses lost"));
    auto *banner = editor.findChild<QLabel *>(QStringLiteral("scenarioModified"));
    QVERIFY(!banner->text().contains(QLatin1String("written for the original settings")));

    const QString file = dir.filePath(QStringLiteral("saved.json"));
    QCOMPARE(scenario::save(editor.scenarioToSave(), file), QString());
    const ScenarioParse reloaded = scenario::load(file);
    QVERIFY(reloaded.ok());
    QCOMPARE(reloaded.scenario.title, QStringLiteral("Most responses lost"));
    QCOMPARE(reloaded.scenario.network.responseLoss, 0.6);
    QCOMPARE(reloaded.scenario, editor.scenario());
}

void TestEditor::arrowKeysLoadThePreset()
{
    ScenarioEditor editor;
    editor.show();
    QVERIFY(QTest::qWaitForWindowActive(&editor));
    PresetList *list = editor.presetList();
    const QStringList names = scenario::presetNames();
    QVERIFY(names.size() >= 4);
    editor.setScenario(loadPreset(names.at(0)));
    list->setFocus();
    QSignalSpy activated(&editor, &ScenarioEditor::presetActivated);

    QTest::keyClick(list, Qt::Key_Down);
    QCOMPARE(list->currentItem()->data(PresetList::NameRole).toString(), names.at(1));
    QTRY_COMPARE(activated.count(), 1);
    QCOMPARE(activated.last().first().toString(), names.at(1));

    // Quick presses load only where the keys come to rest.
    QTest::keyClick(list, Qt::Key_Down);
    QTest::keyClick(list, Qt::Key_Down);
    QTRY_COMPARE(activated.count(), 2);
    QCOMPARE(activated.last().first().toString(), names.at(3));
    QTest::keyClick(list, Qt::Key_Up);
    QTRY_COMPARE(activated.count(), 3);
    QCOMPARE(activated.last().first().toString(), names.at(2));

    // Selecting from code (a loaded scenario) loads nothing.
    editor.setScenario(loadPreset(names.at(0)));
    QVERIFY(!activated.wait(PresetList::KeyboardLoadDelayMs * 3));
    QCOMPARE(activated.count(), 3);
}

void TestEditor::enterLoadsAndFocusDoesNot()
{
    {
        ScenarioEditor editor;
        editor.show();
        QVERIFY(QTest::qWaitForWindowActive(&editor));
        PresetList *list = editor.presetList();
        QSignalSpy activated(&editor, &ScenarioEditor::presetActivated);
        editor.setScenario(loadPreset(QStringLiteral("stable-key")));
        list->setFocus();
        QTest::keyClick(list, Qt::Key_Return);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.last().first().toString(), QStringLiteral("stable-key"));
    }

    // Nothing current yet (a fresh list, as for a custom scenario): focusing the list makes
    // the first entry current, which must not load it.
    PresetList fresh;
    fresh.show();
    QVERIFY(QTest::qWaitForWindowActive(&fresh));
    QSignalSpy freshActivated(&fresh, &PresetList::presetActivated);
    fresh.setFocus(Qt::TabFocusReason);
    QVERIFY(!freshActivated.wait(PresetList::KeyboardLoadDelayMs * 3));
    QCOMPARE(freshActivated.count(), 0);
}

void TestEditor::connectionRefusedLabelIsPrecise()
{
    ScenarioEditor editor;
    QWidget *field = editor.field(QStringLiteral("client.connectFailMs"));
    QVERIFY(field);
    QLabel *label = nullptr;
    const QList<QLabel *> labels = editor.findChildren<QLabel *>();
    for (QLabel *l : labels) {
        if (l->buddy() == field)
            label = l;
    }
    QVERIFY(label);
    QCOMPARE(label->text(), QStringLiteral("Connection refused after"));
    QVERIFY(label->toolTip().contains(QLatin1String("refused")));
    QVERIFY(field->toolTip().contains(QLatin1String("safe to retry")));
}

void TestEditor::settingsFitA350PixelDock()
{
    // The lab's projector font (gui.cpp raises smaller system fonts to 11 pt) in a 350 px dock.
    const QFont systemFont = QApplication::font();
    QFont font = systemFont;
    font.setPointSizeF(qMax(11.0, font.pointSizeF()));
    QApplication::setFont(font);
    const auto restoreFont = qScopeGuard([&] { QApplication::setFont(systemFont); });
    // Twice: as loaded, and with the rows that other modes show (closed load, OCC, normal
    // distributions, budget and a failure-rate breaker).
    const ScenarioParse otherModes = scenario::withSets(
        editableScenario(),
        {QStringLiteral("workload.mode=closed"), QStringLiteral("workload.startTogether=false"),
         QStringLiteral("server.model=occ"), QStringLiteral("network.latencyMs.distribution=normal"),
         QStringLiteral("server.processingMs.distribution=normal"), QStringLiteral("client.retryBudget.enabled=true"),
         QStringLiteral("client.circuitBreaker.enabled=true"), QStringLiteral("client.circuitBreaker.mode=failureRate")});
    QVERIFY2(otherModes.ok(), qPrintable(otherModes.errors.join(QLatin1Char('\n'))));
    for (const Scenario &shown : {editableScenario(), otherModes.scenario}) {
    ScenarioEditor editor;
    editor.setScenario(shown);
    editor.resize(344, 700);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    editor.tabs()->setCurrentIndex(1);
    QToolBox *sections = editor.sections();
    for (int i = 0; i < sections->count(); ++i) {
        sections->setCurrentIndex(i);
        for (int pass = 0; pass < 3; ++pass)
            QCoreApplication::processEvents();
        auto *scroll = qobject_cast<QScrollArea *>(sections->widget(i));
        QVERIFY(scroll);
        const QString page = sections->itemText(i);
        QVERIFY2(scroll->viewport()->width() > 250, qPrintable(page));
        QVERIFY2(scroll->widget()->minimumSizeHint().width() <= scroll->viewport()->width(),
                 qPrintable(QStringLiteral("%1: content needs %2 px, the dock shows %3 px")
                                    .arg(page)
                                    .arg(scroll->widget()->minimumSizeHint().width())
                                    .arg(scroll->viewport()->width())));
        QVERIFY2(scroll->horizontalScrollBar()->maximum() == 0, qPrintable(page));

        // Every choice box shows its longest choice in full.
        const QList<QComboBox *> combos = scroll->widget()->findChildren<QComboBox *>();
        for (QComboBox *combo : combos) {
            if (!combo->isVisibleTo(scroll->widget()))
                continue; // a setting of another mode: checked in the other pass
            int text = 0;
            for (int c = 0; c < combo->count(); ++c)
                text = qMax(text, combo->fontMetrics().horizontalAdvance(combo->itemText(c)));
            QStyleOptionComboBox option;
            option.initFrom(combo);
            option.editable = false;
            const QSize needed = combo->style()->sizeFromContents(QStyle::CT_ComboBox, &option,
                                                                  QSize(text, combo->height()), combo);
            // The layout may still be settling on a loaded machine (a scroll bar coming or going
            // moves every width by a pixel): the final width is what counts.
            QTRY_VERIFY2_WITH_TIMEOUT(combo->width() >= needed.width(),
                     qPrintable(QStringLiteral("%1 is %2 px wide, its longest choice needs %3 px")
                                        .arg(combo->objectName())
                                        .arg(combo->width())
                                        .arg(needed.width())),
                     2000);
            QVERIFY2(combo->geometry().right() < scroll->widget()->width(), qPrintable(combo->objectName()));
        }
    }
    }
}

namespace {

// ghost-request with a network.script of `entries` rows (op 1..20, b1..b3, two faults).
Scenario withLongScript(int entries)
{
    Scenario s = loadPreset(QStringLiteral("ghost-request"));
    for (int i = 0; i < entries; ++i) {
        ScriptEntry e;
        e.op = i % 20 + 1;
        e.attempt = QStringLiteral("b%1/*/*").arg(i % 3 + 1);
        e.fault = i % 2 ? FaultKind::ResponseLost : FaultKind::RequestLost;
        s.network.script.append(e);
    }
    return s;
}

} // namespace

void TestEditor::longScriptConvertsOncePerLoadAndEdit()
{
    // Converting the scenario to JSON costs O(script): once per load and once per edit, never per field.
    ScenarioEditor editor;
    const Scenario s = withLongScript(scenario::MaxScriptEntries); // the longest a file may hold
    const int before = editor.scenarioRoundTrips();
    editor.setScenario(s);
    QCOMPARE(editor.scenarioRoundTrips(), before + 1);
    QCOMPARE(editor.scenario(), s);
    auto *script = editor.findChild<ScriptTableEditor *>(QStringLiteral("network.script"));
    QCOMPARE(script->rowCount(), scenario::MaxScriptEntries);
    QCOMPARE(QJsonValue(script->value()), s.toJson().value(QStringLiteral("network")).toObject().value(QStringLiteral("script")));

    // A plain field: one conversion, the script kept as it was.
    auto *orders = editor.findChild<QSpinBox *>(QStringLiteral("workload.orders"));
    orders->setValue(orders->value() + 1);
    QCOMPARE(editor.scenarioRoundTrips(), before + 2);
    QCOMPARE(editor.scenario().workload.orders, s.workload.orders + 1);
    QCOMPARE(editor.scenario().network.script, s.network.script);

    // One cell of the script, in the middle: one conversion, exactly that entry changed.
    QAbstractItemModel *model = script->table()->model();
    QVERIFY(model->setData(model->index(scenario::MaxScriptEntries / 2, ScriptTableModel::AttemptColumn), QStringLiteral("b2/w1/*")));
    QCOMPARE(editor.scenarioRoundTrips(), before + 3);
    Scenario expected = s;
    expected.workload.orders += 1;
    expected.network.script[scenario::MaxScriptEntries / 2].attempt = QStringLiteral("b2/w1/*");
    QCOMPARE(editor.scenario(), expected);
}

void TestEditor::longScriptMakesNoWidgetPerRow()
{
    // The longest script a file may hold costs no more widgets than none: the table is a model,
    // not a grid of combo boxes.
    ScenarioEditor editor;
    editor.resize(420, 800);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    editor.setScenario(loadPreset(QStringLiteral("ghost-request")));
    QCoreApplication::processEvents();
    const qsizetype widgets = editor.findChildren<QWidget *>().size();
    editor.setScenario(withLongScript(scenario::MaxScriptEntries));
    QCoreApplication::processEvents();
    QCOMPARE(editor.findChild<ScriptTableEditor *>(QStringLiteral("network.script"))->rowCount(),
             scenario::MaxScriptEntries);
    QCOMPARE(editor.findChildren<QWidget *>().size(), widgets);
}

void TestEditor::scriptFaultIsChosenInPlace()
{
    ScenarioEditor editor;
    editor.resize(420, 800);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    const Scenario s = withLongScript(3);
    editor.setScenario(s);
    auto *script = editor.findChild<ScriptTableEditor *>(QStringLiteral("network.script"));
    QSignalSpy changed(&editor, &ScenarioEditor::scenarioChanged);
    const QModelIndex fault = script->table()->model()->index(1, ScriptTableModel::FaultColumn);
    QCOMPARE(fault.data().toString(), scenario::toString(s.network.script.at(1).fault));
    // The drop-down list exists only while the cell is edited, and choosing applies at once.
    QVERIFY(!script->findChild<QComboBox *>(QStringLiteral("faultEditor")));
    script->table()->edit(fault);
    auto *combo = script->findChild<QComboBox *>(QStringLiteral("faultEditor"));
    QVERIFY(combo);
    QCOMPARE(combo->currentText(), scenario::toString(s.network.script.at(1).fault));
    // Every script fault is offered, the last one of the list included.
    QVERIFY(combo->findText(scenario::toString(FaultKind::ServerRestart)) >= 0);
    QCOMPARE(combo->count(), int(FaultKind::ServerRestart) + 1);
    const int index = combo->findText(scenario::toString(FaultKind::ResetAfterCommit));
    QVERIFY(index >= 0);
    combo->setCurrentIndex(index);
    Q_EMIT combo->activated(index);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(editor.scenario().network.script.at(1).fault, FaultKind::ResetAfterCommit);
    QCOMPARE(editor.scenario().network.script.at(0), s.network.script.at(0));
    QCOMPARE(editor.scenario().network.script.at(2), s.network.script.at(2));
}

void TestEditor::scriptMethodIsChosenInPlace()
{
    // A script entry may address the status query (GET) instead of the order's POST.
    ScenarioEditor editor;
    editor.resize(420, 800);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    Scenario s = withLongScript(3);
    s.client.queryBeforeRetry = true;
    editor.setScenario(s);
    auto *script = editor.findChild<ScriptTableEditor *>(QStringLiteral("network.script"));
    const QModelIndex method = script->table()->model()->index(2, ScriptTableModel::MethodColumn);
    QCOMPARE(method.data().toString(), QStringLiteral("POST"));
    QSignalSpy changed(&editor, &ScenarioEditor::scenarioChanged);
    script->table()->edit(method);
    auto *combo = script->findChild<QComboBox *>(QStringLiteral("methodEditor"));
    QVERIFY(combo);
    QCOMPARE(combo->count(), 2);
    const int get = combo->findText(QStringLiteral("GET"));
    QVERIFY(get >= 0);
    combo->setCurrentIndex(get);
    Q_EMIT combo->activated(get);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(editor.scenario().network.script.at(2).method, ScriptMethod::Get);
    QCOMPARE(editor.scenario().network.script.at(1).method, ScriptMethod::Post);
    // And a GET entry read from a file shows as GET.
    s.network.script[0].method = ScriptMethod::Get;
    s.network.script[0].attempt = QStringLiteral("b2/w1/t1");
    editor.setScenario(s);
    QCOMPARE(script->table()->model()->index(0, ScriptTableModel::MethodColumn).data().toString(), QStringLiteral("GET"));
    QCOMPARE(editor.scenario().network.script.at(0), s.network.script.at(0));
}

void TestEditor::phasesTableEditsTheScenario()
{
    ScenarioEditor editor;
    editor.show();
    editor.setScenario(editableScenario());
    auto *phases = editor.findChild<EntryTableEditor *>(QStringLiteral("workload.phases"));
    QVERIFY(phases);
    QCOMPARE(phases->rowCount(), 0);
    QSignalSpy changed(&editor, &ScenarioEditor::scenarioChanged);

    phases->addRow();
    QCOMPARE(changed.count(), 1);
    QCOMPARE(editor.scenario().workload.phases, (QList<LoadPhase>{LoadPhase{0, 10, 10}}));
    // A second row starts where the first ends, so the two do not overlap.
    phases->addRow();
    QCOMPARE(editor.scenario().workload.phases, (QList<LoadPhase>{LoadPhase{0, 10, 10}, LoadPhase{10, 20, 10}}));

    QAbstractItemModel *model = phases->table()->model();
    QVERIFY(model->setData(model->index(1, 2), QStringLiteral("2.5")));
    QCOMPARE(editor.scenario().workload.phases.at(1).ratePerS, 2.5);
    // An overlap is refused, marked, and the last valid phases stay in force.
    QVERIFY(model->setData(model->index(1, 0), QStringLiteral("5")));
    QVERIFY(phases->property("invalid").toBool());
    QVERIFY2(editor.fieldError(QStringLiteral("workload.phases")).contains(QLatin1String("overlaps")),
             qPrintable(editor.fieldError(QStringLiteral("workload.phases"))));
    QCOMPARE(editor.scenario().workload.phases.at(1).fromS, 10.0);
    QVERIFY(model->setData(model->index(1, 0), QStringLiteral("12")));
    QVERIFY(!phases->property("invalid").toBool());
    QCOMPARE(editor.scenario().workload.phases.at(1).fromS, 12.0);

    phases->table()->selectRow(0);
    phases->removeSelectedRows();
    QCOMPARE(editor.scenario().workload.phases, (QList<LoadPhase>{LoadPhase{12, 20, 2.5}}));

    // Loading shows the scenario's phases, without a signal.
    const int before = int(changed.count());
    editor.setScenario(editableScenario());
    QCOMPARE(phases->rowCount(), 0);
    QCOMPARE(int(changed.count()), before);
}

void TestEditor::windowsTableEditsTheScenario()
{
    ScenarioEditor editor;
    editor.show();
    editor.setScenario(editableScenario());
    auto *windows = editor.findChild<EntryTableEditor *>(QStringLiteral("windows"));
    QVERIFY(windows);
    windows->addRow();
    QCOMPARE(editor.scenario().windows, (QList<FaultWindow>{FaultWindow{0, 10, FaultKind::ConnectFailure, 1}}));

    QAbstractItemModel *model = windows->table()->model();
    QVERIFY(model->setData(model->index(0, 2), scenario::toString(FaultKind::ResponseLost)));
    QVERIFY(model->setData(model->index(0, 3), QStringLiteral("0.5")));
    QVERIFY(model->setData(model->index(0, 1), QStringLiteral("4.5")));
    QCOMPARE(editor.scenario().windows, (QList<FaultWindow>{FaultWindow{0, 4.5, FaultKind::ResponseLost, 0.5}}));

    // serverRestart is refused by the core, which names the field.
    QVERIFY(model->setData(model->index(0, 2), QStringLiteral("serverRestart")));
    QVERIFY(windows->property("invalid").toBool());
    QVERIFY(editor.fieldError(QStringLiteral("windows")).contains(QLatin1String("server.restarts")));
    QCOMPARE(editor.scenario().windows.first().fault, FaultKind::ResponseLost);
    // The fault column offers every fault but serverRestart.
    auto *delegate = windows->table()->itemDelegateForColumn(2);
    QVERIFY(delegate);
    QWidget *combo = delegate->createEditor(windows->table()->viewport(), QStyleOptionViewItem(), model->index(0, 2));
    auto *faults = qobject_cast<QComboBox *>(combo);
    QVERIFY(faults);
    QCOMPARE(faults->count(), int(FaultKind::ServerRestart));
    QCOMPARE(faults->findText(QStringLiteral("serverRestart")), -1);
    delete combo;

    QVERIFY(model->setData(model->index(0, 2), QStringLiteral("latencySpike")));
    QVERIFY(!windows->property("invalid").toBool());
    QCOMPARE(editor.scenario().windows.first().fault, FaultKind::LatencySpike);
    windows->table()->selectRow(0);
    windows->removeSelectedRows();
    QVERIFY(editor.scenario().windows.isEmpty());
}

void TestEditor::modeControlsShowAndHide()
{
    ScenarioEditor editor;
    editor.resize(344, 700);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    const ScenarioParse parsed = scenario::withValue(editableScenario(), QStringLiteral("client.circuitBreaker.enabled"),
                                                     false);
    QVERIFY(parsed.ok());
    editor.setScenario(parsed.scenario);
    const auto shown = [&](const char *path) { return rowShown(editor, QLatin1String(path)); };
    const auto choose = [&](const char *path, const QString &value) {
        auto *combo = qobject_cast<QComboBox *>(editor.field(QLatin1String(path)));
        QVERIFY(combo);
        combo->setCurrentIndex(combo->findData(value));
        QCOMPARE(scenario::valueAt(editor.scenario(), QLatin1String(path)).toString(), value);
    };
    auto *phasesBox = editor.findChild<QGroupBox *>(QStringLiteral("workloadPhasesBox"));
    QVERIFY(phasesBox);
    const auto phasesShown = [&] { return phasesBox->isVisibleTo(phasesBox->parentWidget()); };

    // Open load: a schedule; the closed-loop settings are hidden.
    QVERIFY(shown("workload.orders"));
    QVERIFY(shown("workload.arrivals"));
    QVERIFY(shown("workload.interArrivalMs"));
    QVERIFY(shown("workload.clients"));
    QVERIFY(phasesShown());
    QVERIFY(!shown("workload.opsPerClient"));
    QVERIFY(!shown("workload.thinkTimeMs"));
    QVERIFY(!shown("workload.startTogether"));
    choose("workload.mode", QStringLiteral("closed"));
    QVERIFY(!shown("workload.orders"));
    QVERIFY(!shown("workload.arrivals"));
    QVERIFY(!phasesShown());
    QVERIFY(shown("workload.clients"));
    QVERIFY(shown("workload.opsPerClient"));
    QVERIFY(shown("workload.thinkTimeMs"));
    QVERIFY(shown("workload.startTogether"));
    QVERIFY(!shown("workload.interArrivalMs")); // all clients start at 0 s: no spacing
    qobject_cast<QCheckBox *>(editor.field(QStringLiteral("workload.startTogether")))->setChecked(false);
    QCOMPARE(editor.scenario().workload.startTogether, false);
    QVERIFY(shown("workload.interArrivalMs")); // clients start spread out by it

    // Distributions: base and jitter for uniform, mean and sd for normal.
    for (const char *prefix : {"network.latencyMs", "server.processingMs"}) {
        const QString p = QLatin1String(prefix);
        const auto at = [&](const char *key) { return rowShown(editor, p + QLatin1Char('.') + QLatin1String(key)); };
        QVERIFY(at("distribution"));
        QVERIFY(at("base") && at("jitter"));
        QVERIFY(!at("mean") && !at("sd"));
        choose(qPrintable(p + QStringLiteral(".distribution")), QStringLiteral("normal"));
        QVERIFY(!at("base") && !at("jitter"));
        QVERIFY(at("mean") && at("sd"));
    }

    // OCC rows only for the OCC model.
    QVERIFY(!shown("server.occ.rows"));
    choose("server.model", QStringLiteral("occ"));
    QVERIFY(shown("server.occ.rows"));

    // The budget's settings while it is on.
    QVERIFY(shown("client.retryBudget.scope"));
    QVERIFY(shown("client.retryBudget.initialTokens"));
    qobject_cast<QGroupBox *>(editor.field(QStringLiteral("client.retryBudget.enabled")))->setChecked(false);
    QVERIFY(!shown("client.retryBudget.scope"));
    QVERIFY(!shown("client.retryBudget.initialTokens"));

    // The breaker's settings while it is on; threshold for consecutive, window and rate for failureRate.
    QVERIFY(!shown("client.circuitBreaker.mode"));
    QVERIFY(!shown("client.circuitBreaker.retriesOnly"));
    QVERIFY(!shown("client.circuitBreaker.window"));
    qobject_cast<QGroupBox *>(editor.field(QStringLiteral("client.circuitBreaker.enabled")))->setChecked(true);
    QVERIFY(editor.scenario().client.circuitBreaker.enabled);
    QVERIFY(shown("client.circuitBreaker.mode"));
    QVERIFY(shown("client.circuitBreaker.retriesOnly"));
    QVERIFY(shown("client.circuitBreaker.failureThreshold"));
    QVERIFY(!shown("client.circuitBreaker.window"));
    QVERIFY(!shown("client.circuitBreaker.failureRatePercent"));
    choose("client.circuitBreaker.mode", QStringLiteral("failureRate"));
    QVERIFY(!shown("client.circuitBreaker.failureThreshold"));
    QVERIFY(shown("client.circuitBreaker.window"));
    QVERIFY(shown("client.circuitBreaker.failureRatePercent"));

    // Loading a scenario shows the rows of its modes.
    editor.setScenario(editableScenario());
    QVERIFY(shown("workload.orders"));
    QVERIFY(!shown("workload.opsPerClient"));
    QVERIFY(shown("network.latencyMs.base"));
    QVERIFY(!shown("server.occ.rows"));
    QVERIFY(shown("client.circuitBreaker.failureThreshold"));
}

void TestEditor::initialTokensFullIsNull()
{
    ScenarioEditor editor;
    editor.show();
    editor.setScenario(editableScenario());
    auto *initial = qobject_cast<QDoubleSpinBox *>(editor.field(QStringLiteral("client.retryBudget.initialTokens")));
    QVERIFY(initial);
    // null (a full bucket) shows as "full", at the spin box's minimum.
    QCOMPARE(initial->value(), initial->minimum());
    QCOMPARE(initial->text(), QStringLiteral("full"));
    initial->setValue(0);
    QCOMPARE(editor.scenario().client.retryBudget.initialTokens, 0.0); // empty, not full
    initial->setValue(initial->minimum());
    QCOMPARE(editor.scenario().client.retryBudget.initialTokens, -1.0);
    QCOMPARE(scenario::valueAt(editor.scenario(), QStringLiteral("client.retryBudget.initialTokens")),
             QJsonValue(QJsonValue::Null));
}

QTEST_MAIN(TestEditor)
#include "tst_editor.moc"
