#include "server/serverpipelineimpl.h"

namespace retrylab {

// The pipeline behind the ServerHost interface: the live server and the tests.
template class BasicServerPipeline<ServerHost>;

} // namespace retrylab
