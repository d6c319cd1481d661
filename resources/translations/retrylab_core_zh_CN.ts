<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>retrylab</name>
    <message>
        <source>business</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wrapper</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>transport</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>network</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>database</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>retrylab::ChangesVisitor</name>
    <message>
        <source>(none)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>retrylab::RecordsModel</name>
    <message>
        <source>first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>duplicate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>flagged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>voided</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Record</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Business ref</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idempotency key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>retrylab::TraceModel</name>
    <message>
        <source>Time (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lane</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idempotency key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Record</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Detail</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>retrylab::trace</name>
    <message>
        <source>A second submission of %1 starts (a double click or a second tab).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Order %1 starts: the client wants it created exactly once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The client minted idempotency key %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The client minted idempotency key %1 (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server issued the single-use token %1 for %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The business loop starts attempt %1 for %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The @retry wrapper starts attempt %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The transport sends POST /orders (attempt %1) without an idempotency key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The transport sends POST /orders (attempt %1) with key %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before retrying, the client asks whether %1 already exists (GET /orders?ref=%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 already exists: the client does not send it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server has no %1 yet: resending is safe.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The status query answered %1: the client still does not know.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The connection was refused before anything was sent: this one is safe to retry.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The circuit breaker is open: the attempt fails at once without reaching the server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The request was lost on the way: the server never saw it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A latency spike holds the request: it will reach the server after the client has given up.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server received the request, without an idempotency key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server received the request with key %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All processing slots are busy: the request waits in the queue.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rejected with 400: the server requires an Idempotency-Key header.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rejected with 409: a request with the same key is still being processed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rejected with 422: the same key came back with a different payload.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throttled with 429: the server asks the client to slow down and wait (Retry-After).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rejected with 503: every slot and the whole queue are full.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server rejected the request with status %1 before processing it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server starts processing the order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server reserved key %1 as in flight: a concurrent copy will get 409.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key %1 expired: the server has forgotten it, so a late retry looks brand new.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server committed record #%1 for %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Same key seen before: the server replays the stored response (Idempotent-Replayed: true) instead of creating a new order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server failed with %1 after committing: the order exists although the client sees an error.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server failed with %1 before committing: nothing was written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server failed with %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server sends its answer: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server committed, but the response was lost: the client will only see a timeout.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The connection was reset after the commit: the client sees an error, yet the order exists.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The client received %1: the order is confirmed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The client received status %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A response arrived after the client&apos;s timeout: nobody is listening any more, so it is ignored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No answer within the timeout: the client cannot know whether the order was created.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The %1 layer retries at once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The %1 layer retries after %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The %1 layer retries after %2 (last outcome: %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The %1 layer gives up.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The %1 layer gives up: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The retry budget is empty: the %1 layer may not retry, which keeps a retry storm from growing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 succeeded as far as the client can tell.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The client reports %1 as failed; if a record exists anyway, it is an orphan.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconciliation flagged record #%1 as an extra copy of %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconciliation voided record #%1, an extra copy of %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its in-memory idempotency keys are gone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its durable idempotency keys survive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server committed record #%1, then restarted before answering: the client will only see a timeout, and %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server restarted and dropped this request unanswered; %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The client reads the row&apos;s current version before writing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The client reads the row&apos;s current version (%1) before writing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another client wrote the row since this one read it: 409, and nothing is written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another client wrote the row since this one read it (%1): 409, and nothing is written.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>retrylab::whatif</name>
    <message>
        <source>current settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>server ignores keys (mode off)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no key, server requires one (400)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key per op, %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key per op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>atomic server (same key per op)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key per op + atomic server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>new key per @retry attempt, %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>new key per @retry attempt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no business retry loop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no @retry wrapper</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no transport retries (urllib3)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
