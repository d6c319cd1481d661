#pragma once

#include "scenario.h"

#include <QHash>
#include <QJsonValue>
#include <QList>
#include <QWidget>

#include <functional>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTabWidget;
class QTimer;
class QToolBox;
class QFormLayout;
class QGroupBox;

namespace retrylab {

struct EntryColumn;
class PresetList;
class ScriptTableEditor;

// The Scenario dock: the preset catalogue and a form for every scenario key.
// Each edit goes through scenario::withValue, so the core decides what is valid;
// an invalid value is marked at its field and the last valid scenario stays in force.
class ScenarioEditor : public QWidget
{
    Q_OBJECT
public:
    explicit ScenarioEditor(QWidget *parent = nullptr);
    ~ScenarioEditor() override;

    // Reset: a scenario was loaded, its settings are the ones its title and description
    // describe. Keep: the same scenario shown again (new seed, a cancelled switch).
    enum class Baseline { Reset, Keep };

    // Shows the scenario in every field without emitting scenarioChanged.
    void setScenario(const retrylab::Scenario &scenario, Baseline baseline = Baseline::Reset);
    Scenario scenario() const { return m_scenario; }

    // True while the settings (everything but name, title, description and seed) differ from
    // the scenario last loaded: its title and description may no longer describe them.
    bool settingsModified() const { return m_settingsModified; }
    // The scenario as last loaded (setScenario with Baseline::Reset).
    Scenario originalScenario() const { return m_baseline; }
    // What to save or export: the current scenario, with " (modified)" after the title when the
    // settings changed but the title was not edited, so a saved file does not claim the old lesson.
    Scenario scenarioToSave() const;

    // JSON paths of all fields, in form order; each field widget has its path as objectName.
    QStringList fieldPaths() const;
    QWidget *field(const QString &path) const;
    // Why the field's current value was refused, or empty when it is valid.
    QString fieldError(const QString &path) const;
    bool hasInvalidFields() const;

    // How often the editor converted the whole scenario to JSON and back: once per setScenario and once
    // per edit, never per field (a long network.script makes each conversion cost time and memory).
    int scenarioRoundTrips() const { return m_roundTrips; }

    // Lesson highlight: brings the field of `path` into view (its tab, section and scroll position)
    // and outlines it with its label until clearHighlight(); false when no field has that path.
    bool highlightField(const QString &path);
    void clearHighlight();
    QString highlightedField() const { return m_highlighted; }

    PresetList *presetList() const { return m_presets; }
    QToolBox *sections() const { return m_sections; }
    // Presets or Settings.
    QTabWidget *tabs() const { return m_tabs; }

Q_SIGNALS:
    void scenarioChanged(const retrylab::Scenario &scenario);
    void presetActivated(const QString &name);
    void settingsModifiedChanged(bool modified);

private:
    enum class Kind { Int, Number, Percent, Bool, Group, Choice, StatusList, Methods, Script, Entries };
    struct Field
    {
        QString path;
        Kind kind = Kind::Int;
        QWidget *widget = nullptr;
    };

    QWidget *buildAboutPage();
    QWidget *buildWorkloadPage();
    QWidget *buildClientPage();
    QWidget *buildNetworkPage();
    QWidget *buildServerPage();
    QWidget *buildReconciliationPage();
    QGroupBox *buildLayerGroup(const QString &layer, const QString &title, const QString &help);
    QGroupBox *buildTransportGroup();
    void addPage(QWidget *content, const QString &title);

    // Field factories: create, name, register and connect one widget. Number and integer fields
    // take their range (scenario::editorRange), step, decimals and unit from the field table.
    QWidget *intField(const QString &path);
    QWidget *numberField(const QString &path);
    static QString unitSuffix(const QString &unit);
    QWidget *boolField(const QString &path, const QString &text);
    QGroupBox *groupField(const QString &path, const QString &title);
    // A combo box of the table's choices for path, each shown by its label (else its name).
    QWidget *choiceField(const QString &path, const QHash<QString, QString> &labels);
    QWidget *statusListField(const QString &path);
    QWidget *methodsField(const QString &path);
    QWidget *scriptField(const QString &path);
    QWidget *entryTableField(const QString &path, const QList<EntryColumn> &columns, const QStringList &newRow,
                             const QString &addText);
    void addRow(QFormLayout *form, const QString &label, QWidget *field, const QString &help = QString());
    void registerField(const Field &field);
    // The row of `field` in `form` (its label too), or a whole widget when form is null, is shown
    // only while `shown` holds for the scenario: settings that do not apply in a mode are hidden.
    // The rows of a Distribution (network.latencyMs, server.processingMs): its shape, then base and
    // jitter (uniform) or mean and sd (normal).
    void addDistributionRows(QFormLayout *form, const QString &prefix, const QString &name,
                             const std::function<DistributionShape(const Scenario &)> &shape);
    void showWhen(QFormLayout *form, QWidget *field, std::function<bool(const Scenario &)> shown);
    void updateVisibility();

    QJsonValue read(const Field &field) const;
    void write(const Field &field, const QJsonValue &value);
    void commit(const QString &path);
    void markInvalid(QWidget *widget, const QString &reason);
    void clearInvalid(QWidget *widget);
    void updateErrorLabel();
    // Title and description typed by the user.
    void commitText();
    void updateModified();
    void showAboutPage();

    struct VisibilityRule
    {
        QFormLayout *form = nullptr;
        QList<QWidget *> widgets; // the field, and its label when it has one
        std::function<bool(const Scenario &)> shown;
    };

    Scenario m_scenario;
    QList<Field> m_fields;
    QList<VisibilityRule> m_visibility;
    QHash<QWidget *, QLabel *> m_rowLabels;
    QHash<QString, int> m_index;
    QHash<QString, QString> m_errors;
    PresetList *m_presets = nullptr;
    QToolBox *m_sections = nullptr;
    QTabWidget *m_tabs = nullptr;
    QLabel *m_errorLabel = nullptr;
    QLabel *m_modifiedBanner = nullptr;
    QLineEdit *m_title = nullptr;
    QPlainTextEdit *m_description = nullptr;
    QObject *m_descriptionFocusFilter = nullptr;
    QTimer *m_textTimer = nullptr;
    Scenario m_baseline;
    bool m_settingsModified = false;
    int m_roundTrips = 0;
    QString m_highlighted;
};

} // namespace retrylab
