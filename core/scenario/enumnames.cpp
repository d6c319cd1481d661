#include "scenario/enumnames.h"

namespace retrylab::scenario {

using detail::enumName;

QString toString(BackoffKind v) { return enumName(v); }
QString toString(Jitter v) { return enumName(v); }
QString toString(KeyPlacement v) { return enumName(v); }
QString toString(IdempotencyMode v) { return enumName(v); }
QString toString(WrapperRetryOn v) { return enumName(v); }
QString toString(ReconcileAction v) { return enumName(v); }
QString toString(TokenReuse v) { return enumName(v); }
QString toString(KeyStore v) { return enumName(v); }
QString toString(UnknownQuery v) { return enumName(v); }
QString toString(OccRead v) { return enumName(v); }
QString toString(RestartInFlight v) { return enumName(v); }
QString toString(FaultKind v) { return enumName(v); }
QString toString(ScriptMethod v) { return enumName(v); }
QString toString(DistributionShape v) { return enumName(v); }
QString toString(BudgetScope v) { return enumName(v); }
QString toString(BreakerMode v) { return enumName(v); }
QString toString(BudgetKind v) { return enumName(v); }
QString toString(ServerModel v) { return enumName(v); }
QString toString(WorkloadMode v) { return enumName(v); }
QString toString(Arrivals v) { return enumName(v); }

} // namespace retrylab::scenario
