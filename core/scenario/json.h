#pragma once

#include "scenario.h"
#include "scenario/schema.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

// The pieces of the JSON reader and writer that the field table names (custom readers and
// writers of the fields that are more than a type and bounds) and that path editing reuses.
namespace retrylab::scenario::detail {

class ObjectReader;

// Every field of a scenario object, with all errors (uncapped).
ScenarioParse readObject(const QJsonObject &object);
// Every setting as JSON; complete: also the keys a saved file leaves out (a uniform distribution's
// distribution, mean and sd).
QJsonObject scenarioJson(const Scenario &s, bool complete);

// Readers of the fields with rules beyond a type and bounds.
void readSchema(ObjectReader &r, const FieldSpec &spec, Scenario &s);
void readSeed(ObjectReader &r, const FieldSpec &spec, Scenario &s);
void readTenacity(ObjectReader &r, const FieldSpec &spec, Scenario &s);
void readPhases(ObjectReader &r, const FieldSpec &spec, Scenario &s);
void readStatusForcelist(ObjectReader &r, const FieldSpec &spec, Scenario &s);
void readAllowedMethods(ObjectReader &r, const FieldSpec &spec, Scenario &s);
void readScript(ObjectReader &r, const FieldSpec &spec, Scenario &s);
void readRestarts(ObjectReader &r, const FieldSpec &spec, Scenario &s);
void readWindows(ObjectReader &r, const FieldSpec &spec, Scenario &s);

// Their writers.
QJsonValue writeSeed(const Scenario &s);
QJsonValue writePhases(const Scenario &s);
QJsonValue writeStatusForcelist(const Scenario &s);
QJsonValue writeAllowedMethods(const Scenario &s);
QJsonValue writeScript(const Scenario &s);
QJsonValue writeRestarts(const Scenario &s);
QJsonValue writeWindows(const Scenario &s);

// One entry of a list as a file writes it.
QJsonObject phaseJson(const LoadPhase &p);
QJsonObject windowJson(const FaultWindow &w);
QJsonObject scriptEntryJson(const ScriptEntry &e);
// backoff.tenacity: tenacity's wait_exponential by its own names, in seconds, computed from a backoff.
QJsonObject tenacityOf(const BackoffConfig &b);

// The methods client.transport.allowedMethods may name; the faults a window may set (all but serverRestart).
QStringList httpMethods();
QStringList windowFaults();

} // namespace retrylab::scenario::detail
