<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>content</name>
    <message>
        <source>Every order is submitted twice, 5 ms apart, with the same key, and the server checks the key before processing but stores it only when it commits. Both copies pass the check inside the 80 ms race window and two records appear; switch the mode to atomic and the second copy gets 409.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The concurrent race: a naive key check lets a double submit through</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each order carries a request ID that every retry layer propagates, so the log can group all attempts of one business operation. This run switches the ID off: toggle it on and compare how easily the duplicates can be traced back to their order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Correlation IDs: group every attempt of one order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A generated @retry wrapper sits inside a hand-written business loop, no idempotency key is sent and 30% of the responses are lost. Every lost response looks like a failure to the client, so it resends an order the server already created: duplicates appear, and the worst case is 3 x 3 = 9 POSTs per order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The ghost request: a @retry wrapper inside a business loop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fifty clients start at once and each updates the same row with optimistic concurrency (read the version, write with it, 409 if another write came first), retrying until it succeeds after min(2 s, 5 ms x 2^n): without jitter the clients that collided wait exactly as long as each other and collide again, 609 writes and 34 s for 50 updates. Set client.business.backoff.jitter to full and the writes almost halve (342) while the last update lands at 3.1 s; no backoff at all (kind constant, initialMs 0) is fastest (1.1 s) but makes the most writes (676), as in the AWS study &apos;Exponential Backoff And Jitter&apos;, whose figure a sweep of workload.clients against the jitter draws.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backoff without jitter: fifty clients collide on one row (the AWS study)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server forgets idempotency keys after 2 seconds, but the business loop waits 5 seconds before it retries the order whose response was lost. By then the key has expired, so the retry creates a second record despite carrying the right key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key expiry: a retry after the TTL creates a duplicate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every order carries one stable Idempotency-Key, but the server keeps its keys in memory and restarts right after committing ORD-0003, before answering. The client retries with the right key once the server is back, the key is gone and the order is inserted a second time; with a durable key store the retry would be replayed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key store restart: in-memory keys vanish</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For POST the transport layer retries only failed connections (urllib3 leaves POST out of allowed_methods), while the business loop retries timeouts and 5xx with one idempotency key per order against an atomic key store. However many responses are lost, every retry is recognised and replayed, so no order is ever created twice.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The layered fix: each layer retries only what it safely can</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Four slots serve about 80 orders a second and 60 arrive, until at 10 s the network delays every request by 1.5 s for two seconds, past the client&apos;s 1 s timeout: the server still holds every timed-out request, so its queue fills with work for clients that already left, stays longer than the timeout after the trigger ends, and the retries (urllib3 for POST, then the business loop) keep it full, so goodput stays at zero until the arrivals stop (670 of 3600 orders succeed). Turn on client.retryBudget (one budget for every client): with nothing succeeding no retry is paid for, the load falls below capacity, the queue drains within seconds and 3468 orders succeed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Metastable failure: two bad seconds, then retries keep the server down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The first response is lost and the client rebuilds the order with a changed payload but keeps the same idempotency key. The server compares payload fingerprints and answers 422 instead of silently creating or replaying a different order.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Same key, different payload: 422</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Without any idempotency key, the business loop first asks GET /orders?ref= whether the order already exists and resends only when it does not. With one request at a time this alone prevents duplicates, at the price of an extra round trip per retry.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Query before retry: ask the server before resending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The client still creates duplicates as in the ghost request, but a periodic job scans every 30 seconds for records sharing one business reference. It voids the extra copies, so the outstanding duplicates fall back to zero even though they were created.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconciliation: find and void the duplicates afterwards</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thirty clients send 100 orders a second to a server that finishes about 80 (4 slots of about 50 ms), so requests soon wait in the queue past the 1 s timeout: the server still processes each one for nobody (late commits) while three retry layers send it again, amplification passes 10 and the last order ends nearly a minute after the last arrival, where without retries the overload is over in 7 s with a quarter of the orders failed. The latency spikes are not the cause (set network.latencySpike to 0: the same storm); a retry budget stops it at the price of failing some orders fast, and one budget shared by every client (client.retryBudget.scope global) stops it sooner.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The retry storm: every layer retries a struggling server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key is minted inside the decorated send method, so the @retry wrapper sends a fresh key on its retry after the first response is lost. To the server the retry is a brand-new order: two records exist although the key store is atomic.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A rotating key: a new key on every retry defeats the server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same single-use tokens and lost responses as in server-token, but after a 409 (token already used) the client asks GET /orders?ref= whether its order exists before its next attempt. It finds the order and reports success, with neither a duplicate nor an orphan, at the price of one extra round trip after each 409.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server-issued tokens: query after the 409</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The client asks the server for a single-use order token and sends it with every retry, and the server spends the token when the order commits, so no order is ever created twice. But when the first response is lost the retry gets 409 (token already used), which the client takes as final: it reports a failure for an order that exists, an orphan.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server-issued tokens: single use, and an orphan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The response to the first attempt is lost, and the business loop retries with the same idempotency key it minted before the loop. The server recognises the key and replays the stored answer (Idempotent-Replayed: true), so exactly one record exists.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A stable key: the retry is replayed, not repeated</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
