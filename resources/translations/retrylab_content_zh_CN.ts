<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>content</name>
    <message>
        <source>Every order is submitted twice, 5 ms apart, with the same key, and the server checks the key before processing but stores it only when it commits. Both copies pass the check inside the 80 ms race window and two records appear; switch the mode to atomic and the second copy gets 409.</source>
        <translation>每个订单都用同一个幂等键提交两次，间隔 5 ms；服务端在处理之前检查幂等键，却要到提交时才保存它。两份副本都在 80 ms 的竞争窗口内通过了检查，于是出现了两条记录；把模式切换为 atomic，第二份副本就会收到 409。</translation>
    </message>
    <message>
        <source>The concurrent race: a naive key check lets a double submit through</source>
        <translation>并发竞争：简单的幂等键检查放过了重复提交</translation>
    </message>
    <message>
        <source>Each order carries a request ID that every retry layer propagates, so the log can group all attempts of one business operation. This run switches the ID off: toggle it on and compare how easily the duplicates can be traced back to their order.</source>
        <translation>每个订单都带有一个请求 ID，每个重试层都会把它传下去，这样日志就能把同一个业务操作的所有尝试归到一起。这次运行关闭了请求 ID：把它打开，比较一下把重复订单追溯到原始订单有多容易。</translation>
    </message>
    <message>
        <source>Correlation IDs: group every attempt of one order</source>
        <translation>关联 ID：把一个订单的所有尝试归到一起</translation>
    </message>
    <message>
        <source>A generated @retry wrapper sits inside a hand-written business loop, no idempotency key is sent and 30% of the responses are lost. Every lost response looks like a failure to the client, so it resends an order the server already created: duplicates appear, and the worst case is 3 x 3 = 9 POSTs per order.</source>
        <translation>自动生成的 @retry 重试装饰器嵌在手写的业务重试循环里，请求不带幂等键，且 30% 的响应会丢失。每个丢失的响应在客户端看来都是失败，于是它重新发送服务端早已创建的订单：出现了重复订单，最坏情况下每个订单要发 3 x 3 = 9 次 POST。</translation>
    </message>
    <message>
        <source>The ghost request: a @retry wrapper inside a business loop</source>
        <translation>幽灵请求：业务重试循环里的 @retry 重试装饰器</translation>
    </message>
    <message>
        <source>Fifty clients start at once and each updates the same row with optimistic concurrency (read the version, write with it, 409 if another write came first), retrying until it succeeds after min(2 s, 5 ms x 2^n): without jitter the clients that collided wait exactly as long as each other and collide again, 609 writes and 34 s for 50 updates. Set client.business.backoff.jitter to full and the writes almost halve (342) while the last update lands at 3.1 s; no backoff at all (kind constant, initialMs 0) is fastest (1.1 s) but makes the most writes (676), as in the AWS study &apos;Exponential Backoff And Jitter&apos;, whose figure a sweep of workload.clients against the jitter draws.</source>
        <translation>五十个客户端同时启动，每个都用乐观并发更新同一行（读取版本号，带着它写入，若别人先写了则得到 409），并在 min(2 s, 5 ms x 2^n) 之后重试直到成功：没有抖动时，相撞的客户端等待的时间完全一样，于是再次相撞，50 次更新要写 609 次、耗时 34 s。把 client.business.backoff.jitter 设为 full，写入次数几乎减半（342 次），最后一次更新在 3.1 s 完成；完全不退避（kind constant，initialMs 0）最快（1.1 s），但写入次数最多（676 次）。这与 AWS 的研究《Exponential Backoff And Jitter》一致，对 workload.clients 与抖动做参数扫描即可画出那篇文章中的图。</translation>
    </message>
    <message>
        <source>Backoff without jitter: fifty clients collide on one row (the AWS study)</source>
        <translation>没有抖动的退避：五十个客户端在同一行上相撞（AWS 的研究）</translation>
    </message>
    <message>
        <source>The server forgets idempotency keys after 2 seconds, but the business loop waits 5 seconds before it retries the order whose response was lost. By then the key has expired, so the retry creates a second record despite carrying the right key.</source>
        <translation>服务端在 2 秒后就会忘记幂等键，而业务重试循环要等 5 秒才重试响应丢失的订单。到那时幂等键已经过期，所以尽管重试带着正确的幂等键，还是创建了第二条记录。</translation>
    </message>
    <message>
        <source>Key expiry: a retry after the TTL creates a duplicate</source>
        <translation>幂等键过期：超过有效期的重试产生了重复订单</translation>
    </message>
    <message>
        <source>Every order carries one stable Idempotency-Key, but the server keeps its keys in memory and restarts right after committing ORD-0003, before answering. The client retries with the right key once the server is back, the key is gone and the order is inserted a second time; with a durable key store the retry would be replayed.</source>
        <translation>每个订单都带着一个固定的 Idempotency-Key，但服务端把幂等键保存在内存中，并在提交 ORD-0003 之后、应答之前重启了。服务端恢复后客户端带着正确的幂等键重试，可幂等键已经丢失，订单被第二次插入；如果幂等键存储是持久化的，这次重试就会被重放。</translation>
    </message>
    <message>
        <source>Key store restart: in-memory keys vanish</source>
        <translation>幂等键存储重启：内存中的幂等键消失了</translation>
    </message>
    <message>
        <source>For POST the transport layer retries only failed connections (urllib3 leaves POST out of allowed_methods), while the business loop retries timeouts and 5xx with one idempotency key per order against an atomic key store. However many responses are lost, every retry is recognised and replayed, so no order is ever created twice.</source>
        <translation>对于 POST，传输层只重试连接失败（urllib3 的 allowed_methods 不包含 POST），而业务重试循环在超时和 5xx 时重试，每个订单使用一个幂等键，服务端的幂等键存储是原子的。无论丢失多少响应，每次重试都会被识别并重放，所以任何订单都不会被创建两次。</translation>
    </message>
    <message>
        <source>The layered fix: each layer retries only what it safely can</source>
        <translation>分层修复：每一层只重试它能安全重试的部分</translation>
    </message>
    <message>
        <source>Four slots serve about 80 orders a second and 60 arrive, until at 10 s the network delays every request by 1.5 s for two seconds, past the client&apos;s 1 s timeout: the server still holds every timed-out request, so its queue fills with work for clients that already left, stays longer than the timeout after the trigger ends, and the retries (urllib3 for POST, then the business loop) keep it full, so goodput stays at zero until the arrivals stop (670 of 3600 orders succeed). Turn on client.retryBudget (one budget for every client): with nothing succeeding no retry is paid for, the load falls below capacity, the queue drains within seconds and 3468 orders succeed.</source>
        <translation>四个处理槽每秒约能处理 80 个订单，每秒到达 60 个；直到第 10 s，网络把每个请求延迟 1.5 s，持续两秒，超过了客户端 1 s 的超时：服务端仍持有每个已超时的请求，于是队列里塞满了客户端早已离开的工作，在触发因素结束后排队时间依然超过超时，而重试（先是 urllib3 对 POST 的重试，然后是业务重试循环）让队列一直满着，所以在到达停止之前有效吞吐量始终为零（3600 个订单中只有 670 个成功）。打开 client.retryBudget（所有客户端共用一个预算）：没有任何成功时，重试就得不到预算，负载降到容量以下，队列在几秒内排空，3468 个订单成功。</translation>
    </message>
    <message>
        <source>Metastable failure: two bad seconds, then retries keep the server down</source>
        <translation>亚稳态故障：糟糕的两秒过后，重试让服务端一直无法恢复</translation>
    </message>
    <message>
        <source>The first response is lost and the client rebuilds the order with a changed payload but keeps the same idempotency key. The server compares payload fingerprints and answers 422 instead of silently creating or replaying a different order.</source>
        <translation>第一个响应丢失了，客户端用改动过的请求体重新构造订单，却保留了同一个幂等键。服务端比较请求体指纹并返回 422，而不是悄悄地创建或重放一个不同的订单。</translation>
    </message>
    <message>
        <source>Same key, different payload: 422</source>
        <translation>相同的幂等键，不同的请求体：422</translation>
    </message>
    <message>
        <source>Without any idempotency key, the business loop first asks GET /orders?ref= whether the order already exists and resends only when it does not. With one request at a time this alone prevents duplicates, at the price of an extra round trip per retry.</source>
        <translation>不使用任何幂等键，业务重试循环先用 GET /orders?ref= 查询订单是否已经存在，只有不存在时才重新发送。在一次只有一个请求的情况下，仅此一项就能防止重复订单，代价是每次重试多一次往返。</translation>
    </message>
    <message>
        <source>Query before retry: ask the server before resending</source>
        <translation>重试前先查询：重新发送之前先问服务端</translation>
    </message>
    <message>
        <source>The client still creates duplicates as in the ghost request, but a periodic job scans every 30 seconds for records sharing one business reference. It voids the extra copies, so the outstanding duplicates fall back to zero even though they were created.</source>
        <translation>客户端仍像幽灵请求中那样产生重复订单，但一个定时任务每 30 秒扫描一次共享同一业务编号的记录，并作废多余的副本；所以尽管重复订单被创建了，未处理的重复订单数最终会回落到零。</translation>
    </message>
    <message>
        <source>Reconciliation: find and void the duplicates afterwards</source>
        <translation>对账：事后找出并作废重复订单</translation>
    </message>
    <message>
        <source>Thirty clients send 100 orders a second to a server that finishes about 80 (4 slots of about 50 ms), so requests soon wait in the queue past the 1 s timeout: the server still processes each one for nobody (late commits) while three retry layers send it again, amplification passes 10 and the last order ends nearly a minute after the last arrival, where without retries the overload is over in 7 s with a quarter of the orders failed. The latency spikes are not the cause (set network.latencySpike to 0: the same storm); a retry budget stops it at the price of failing some orders fast, and one budget shared by every client (client.retryBudget.scope global) stops it sooner.</source>
        <translation>三十个客户端每秒向服务端发送 100 个订单，而服务端每秒只能完成约 80 个（4 个处理槽，每个约 50 ms），于是请求很快就在队列中等待超过 1 s 的超时：服务端仍在为已经没人等待的请求做处理（迟到的提交），而三个重试层又把它们重新发送，放大倍数超过 10，最后一个订单在最后一次到达之后将近一分钟才结束；如果没有重试，过载在 7 s 内就会结束，只有四分之一的订单失败。延迟尖峰并不是原因（把 network.latencySpike 设为 0：同样的风暴）；重试预算能止住风暴，代价是让部分订单快速失败，而所有客户端共用一个预算（client.retryBudget.scope global）能更早止住它。</translation>
    </message>
    <message>
        <source>The retry storm: every layer retries a struggling server</source>
        <translation>重试风暴：每一层都在重试一个不堪重负的服务端</translation>
    </message>
    <message>
        <source>The key is minted inside the decorated send method, so the @retry wrapper sends a fresh key on its retry after the first response is lost. To the server the retry is a brand-new order: two records exist although the key store is atomic.</source>
        <translation>幂等键是在被装饰的发送方法内部生成的，所以第一个响应丢失后，@retry 重试装饰器在重试时发送的是一个新键。在服务端看来，这次重试是一个全新的订单：尽管幂等键存储是原子的，还是出现了两条记录。</translation>
    </message>
    <message>
        <source>A rotating key: a new key on every retry defeats the server</source>
        <translation>轮换的幂等键：每次重试换新键让服务端无从防范</translation>
    </message>
    <message>
        <source>The same single-use tokens and lost responses as in server-token, but after a 409 (token already used) the client asks GET /orders?ref= whether its order exists before its next attempt. It finds the order and reports success, with neither a duplicate nor an orphan, at the price of one extra round trip after each 409.</source>
        <translation>与 server-token 相同的一次性令牌和丢失的响应，但在收到 409（令牌已被使用）之后，客户端在下一次尝试之前先用 GET /orders?ref= 查询订单是否存在。它找到了订单并报告成功，既没有重复订单，也没有孤儿订单，代价是每次 409 之后多一次往返。</translation>
    </message>
    <message>
        <source>Server-issued tokens: query after the 409</source>
        <translation>服务端签发的令牌：收到 409 后先查询</translation>
    </message>
    <message>
        <source>The client asks the server for a single-use order token and sends it with every retry, and the server spends the token when the order commits, so no order is ever created twice. But when the first response is lost the retry gets 409 (token already used), which the client takes as final: it reports a failure for an order that exists, an orphan.</source>
        <translation>客户端向服务端申请一个一次性订单令牌，每次重试都带上它；服务端在订单提交时用掉这个令牌，所以任何订单都不会被创建两次。但当第一个响应丢失时，重试会收到 409（令牌已被使用），客户端把它当作最终结果：为一个实际存在的订单报告失败，这就是孤儿订单。</translation>
    </message>
    <message>
        <source>Server-issued tokens: single use, and an orphan</source>
        <translation>服务端签发的令牌：一次性使用，以及一个孤儿订单</translation>
    </message>
    <message>
        <source>The response to the first attempt is lost, and the business loop retries with the same idempotency key it minted before the loop. The server recognises the key and replays the stored answer (Idempotent-Replayed: true), so exactly one record exists.</source>
        <translation>第一次尝试的响应丢失了，业务重试循环用它在循环之前生成的同一个幂等键重试。服务端认出了这个幂等键并重放已存储的应答（Idempotent-Replayed: true），所以恰好只有一条记录。</translation>
    </message>
    <message>
        <source>A stable key: the retry is replayed, not repeated</source>
        <translation>固定的幂等键：重试被重放，而不是重复执行</translation>
    </message>
</context>
</TS>
