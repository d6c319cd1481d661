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
    <message>
        <source>Each of the 5 orders is submitted twice. How many records?</source>
        <translation>5 个订单每个都提交两次。会有多少条记录？</translation>
    </message>
    <message>
        <source>Both copies pass the check inside the race window: the key did not protect anything.</source>
        <translation>两份副本都在竞争窗口内通过了检查：幂等键什么也没保护住。</translation>
    </message>
    <message>
        <source>A naive check</source>
        <translation>朴素的检查</translation>
    </message>
    <message>
        <source>The server looks the key up before processing but stores it only when it commits, 80 ms later.</source>
        <translation>服务端在处理之前查找幂等键，却要到 80 ms 后提交时才保存它。</translation>
    </message>
    <message>
        <source>How many records now?</source>
        <translation>现在有多少条记录？</translation>
    </message>
    <message>
        <source>The second copy finds the key reserved and gets 409 while the first is in flight.</source>
        <translation>第二份副本发现幂等键已被预留，在第一份还在进行中时收到 409。</translation>
    </message>
    <message>
        <source>An atomic check</source>
        <translation>原子化的检查</translation>
    </message>
    <message>
        <source>Now the key is reserved in the same step as the check, like a unique constraint on the key column.</source>
        <translation>现在幂等键在检查的同一步就被预留，就像键列上的唯一约束。</translation>
    </message>
    <message>
        <source>How many records?</source>
        <translation>有多少条记录？</translation>
    </message>
    <message>
        <source>A naive check works only when duplicates never overlap, and retries under load do overlap.</source>
        <translation>朴素的检查只在重复请求从不重叠时才有效，而负载下的重试恰恰会重叠。</translation>
    </message>
    <message>
        <source>Far enough apart</source>
        <translation>间隔足够远</translation>
    </message>
    <message>
        <source>The naive check again, but the second copy arrives 200 ms after the first, after it committed.</source>
        <translation>还是朴素的检查，但第二份副本在第一份提交之后、200 ms 后才到达。</translation>
    </message>
    <message>
        <source>Two copies of one order arrive 5 ms apart with the same key. A key check that is not atomic lets both through.</source>
        <translation>同一订单的两份副本带着同一个幂等键、相隔 5 ms 到达。非原子的幂等键检查会让两份都通过。</translation>
    </message>
    <message>
        <source>The concurrent race and the unique constraint</source>
        <translation>并发竞争与唯一约束</translation>
    </message>
    <message>
        <source>How many writes do 50 updates take?</source>
        <translation>50 次更新需要写入多少次？</translation>
    </message>
    <message>
        <source>Clients that collided wait exactly as long as each other and collide again.</source>
        <translation>相撞的客户端等待的时间完全一样，于是再次相撞。</translation>
    </message>
    <message>
        <source>Backoff without jitter</source>
        <translation>没有抖动的退避</translation>
    </message>
    <message>
        <source>50 clients update one row at once with optimistic concurrency and the same exponential backoff.</source>
        <translation>50 个客户端用乐观并发同时更新同一行，并使用相同的指数退避。</translation>
    </message>
    <message>
        <source>How many writes now?</source>
        <translation>现在要写入多少次？</translation>
    </message>
    <message>
        <source>Random waits spread the clients out: fewer writes and a much earlier finish.</source>
        <translation>随机的等待让客户端错开：写入更少，完成得也早得多。</translation>
    </message>
    <message>
        <source>Full jitter</source>
        <translation>全抖动</translation>
    </message>
    <message>
        <source>Each wait is now drawn at random between zero and the backoff.</source>
        <translation>现在每次等待都在零到退避时长之间随机抽取。</translation>
    </message>
    <message>
        <source>Of 3600 orders, how many succeed?</source>
        <translation>3600 个订单中有多少个成功？</translation>
    </message>
    <message>
        <source>A metastable failure</source>
        <translation>亚稳态故障</translation>
    </message>
    <message>
        <source>A two-second network slowdown pushes requests past the timeout, and the retries keep the server full after it ends.</source>
        <translation>两秒钟的网络变慢把请求推过了超时，而重试在变慢结束后仍让服务端一直满载。</translation>
    </message>
    <message>
        <source>How many orders succeed now?</source>
        <translation>现在有多少个订单成功？</translation>
    </message>
    <message>
        <source>One budget for every client</source>
        <translation>所有客户端共用一个预算</translation>
    </message>
    <message>
        <source>With a shared retry budget, nothing succeeding means no retry is paid for.</source>
        <translation>有了共享的重试预算，没有成功就意味着没有重试能得到预算。</translation>
    </message>
    <message>
        <source>The AWS study on backoff and jitter: clients that back off by the same amount collide again. And a server can stay down after the trigger is gone.</source>
        <translation>AWS 关于退避与抖动的研究：退避时长相同的客户端会再次相撞。而且在触发因素消失后，服务端仍可能一直瘫痪。</translation>
    </message>
    <message>
        <source>Jitter, and the metastable server</source>
        <translation>抖动，以及亚稳态的服务端</translation>
    </message>
    <message>
        <source>How many records of ORD-0001?</source>
        <translation>ORD-0001 有多少条记录？</translation>
    </message>
    <message>
        <source>The retry carried the right key, but the server had already forgotten it.</source>
        <translation>重试带着正确的幂等键，但服务端早已忘记了它。</translation>
    </message>
    <message>
        <source>The retry comes after the TTL</source>
        <translation>重试晚于有效期</translation>
    </message>
    <message>
        <source>The server forgets keys after 2 s, and the business loop waits 5 s before it retries the lost response.</source>
        <translation>服务端在 2 s 后忘记幂等键，而业务重试循环要等 5 s 才重试丢失响应的订单。</translation>
    </message>
    <message>
        <source>The key outlives every retry, so the retry is replayed.</source>
        <translation>幂等键比每次重试都活得久，所以重试被重放。</translation>
    </message>
    <message>
        <source>A longer TTL</source>
        <translation>更长的有效期</translation>
    </message>
    <message>
        <source>The TTL is now 10 s, longer than the client&apos;s whole retry schedule.</source>
        <translation>现在有效期为 10 s，比客户端的整个重试计划还长。</translation>
    </message>
    <message>
        <source>The wait starts only after the 3 s timeout: the retry still arrives after the key has expired.</source>
        <translation>等待要在 3 s 超时之后才开始：重试仍然在幂等键过期之后才到达。</translation>
    </message>
    <message>
        <source>A faster retry</source>
        <translation>更快的重试</translation>
    </message>
    <message>
        <source>Back to a 2 s TTL, but the client now waits only 1 s before it retries.</source>
        <translation>有效期回到 2 s，但客户端现在只等 1 s 就重试。</translation>
    </message>
    <message>
        <source>Size the TTL from the client&apos;s whole schedule: every timeout and every wait, summed over all retries.</source>
        <translation>按客户端的整个重试计划来确定有效期：把所有重试中的每次超时和每次等待加起来。</translation>
    </message>
    <message>
        <source>A TTL that covers timeout and wait</source>
        <translation>覆盖超时和等待的有效期</translation>
    </message>
    <message>
        <source>A 5 s TTL is longer than the 3 s timeout plus the 1 s wait.</source>
        <translation>5 s 的有效期长于 3 s 超时加上 1 s 等待。</translation>
    </message>
    <message>
        <source>A key store forgets keys after a time to live. A retry that comes later than that is a new order again.</source>
        <translation>幂等键存储会在有效期过后忘记幂等键。晚于有效期到达的重试又成了一个新订单。</translation>
    </message>
    <message>
        <source>Key expiry</source>
        <translation>幂等键过期</translation>
    </message>
    <message>
        <source>How many records of ORD-0003?</source>
        <translation>ORD-0003 有多少条记录？</translation>
    </message>
    <message>
        <source>The client retried with the right key, but the key was gone with the restart.</source>
        <translation>客户端带着正确的幂等键重试，但幂等键随着重启消失了。</translation>
    </message>
    <message>
        <source>Restart after a commit</source>
        <translation>提交之后重启</translation>
    </message>
    <message>
        <source>The server restarts right after committing ORD-0003, before it answers, and its keys were only in memory.</source>
        <translation>服务端在提交 ORD-0003 之后、应答之前立即重启，而它的幂等键只保存在内存中。</translation>
    </message>
    <message>
        <source>How many duplicates?</source>
        <translation>有多少条重复订单？</translation>
    </message>
    <message>
        <source>Store the key with the order, in one transaction, and it survives whatever the order survives.</source>
        <translation>把幂等键和订单放在同一个事务里保存，订单能保留下来，幂等键也就能保留下来。</translation>
    </message>
    <message>
        <source>A durable key store</source>
        <translation>持久化的幂等键存储</translation>
    </message>
    <message>
        <source>The keys now live in the database, in the same transaction as the order.</source>
        <translation>现在幂等键保存在数据库中，和订单在同一个事务里。</translation>
    </message>
    <message>
        <source>How many duplicates in the whole run?</source>
        <translation>整个运行中有多少条重复订单？</translation>
    </message>
    <message>
        <source>Rare events still happen: one restart at the wrong moment is enough.</source>
        <translation>罕见的事件依然会发生：一次时机不巧的重启就足够了。</translation>
    </message>
    <message>
        <source>The whole run</source>
        <translation>整个运行</translation>
    </message>
    <message>
        <source>Look at all 20 orders of the memory store run: only the order caught by the restart was hit.</source>
        <translation>看一看内存存储这次运行中的全部 20 个订单：只有恰好碰上重启的那个订单受到了影响。</translation>
    </message>
    <message>
        <source>Keys kept in memory vanish when the server restarts. A retry that arrives after the restart is not recognised.</source>
        <translation>保存在内存中的幂等键会在服务端重启时消失。重启之后到达的重试不会被识别。</translation>
    </message>
    <message>
        <source>A key store that forgets on restart</source>
        <translation>重启就遗忘的幂等键存储</translation>
    </message>
    <message>
        <source>At most how many POSTs can one order cost?</source>
        <translation>一个订单最多会发出多少次 POST？</translation>
    </message>
    <message>
        <source>3 x 3 = 9: the layers multiply, they do not add.</source>
        <translation>3 x 3 = 9：各层是相乘，而不是相加。</translation>
    </message>
    <message>
        <source>Two layers, three tries each</source>
        <translation>两层，每层三次尝试</translation>
    </message>
    <message>
        <source>The business loop tries each order 3 times, and the @retry wrapper inside it tries every one of those 3 times.</source>
        <translation>业务重试循环对每个订单尝试 3 次，而它内部的 @retry 重试装饰器又把其中每一次尝试 3 次。</translation>
    </message>
    <message>
        <source>At most how many POSTs can one order cost now?</source>
        <translation>现在一个订单最多会发出多少次 POST？</translation>
    </message>
    <message>
        <source>Every try of the wrapper is now a first POST plus up to 3 retries of urllib3: 36 POSTs in the worst case, from three reasonable-looking settings.</source>
        <translation>装饰器的每次尝试现在都是一次首发 POST 加上 urllib3 最多 3 次重试：最坏情况下 36 次 POST，来自三个看似合理的设置。</translation>
    </message>
    <message>
        <source>Add urllib3 underneath</source>
        <translation>在下面加上 urllib3</translation>
    </message>
    <message>
        <source>urllib3&apos;s Retry with total=3 and allowed_methods=None now also retries every POST, below the wrapper.</source>
        <translation>urllib3 的 Retry 设置 total=3 和 allowed_methods=None，现在在装饰器下面连每个 POST 也会重试。</translation>
    </message>
    <message>
        <source>How many duplicate orders will the server hold?</source>
        <translation>服务端会存有多少条重复订单？</translation>
    </message>
    <message>
        <source>Each duplicate is an order the server had already created when the client resent it.</source>
        <translation>每条重复订单都是客户端重新发送时服务端早已创建了的订单。</translation>
    </message>
    <message>
        <source>What lost responses make of it</source>
        <translation>丢失的响应造成了什么</translation>
    </message>
    <message>
        <source>20 orders, 30% of the responses lost, and no idempotency key: every lost response is retried as if nothing had happened.</source>
        <translation>20 个订单，30% 的响应丢失，没有幂等键：每个丢失的响应都被当作什么都没发生过而重试。</translation>
    </message>
    <message>
        <source>How many duplicates now?</source>
        <translation>现在有多少条重复订单？</translation>
    </message>
    <message>
        <source>Fewer layers, fewer resends, fewer duplicates: but only a key makes the number zero.</source>
        <translation>层数越少，重发越少，重复订单越少：但只有幂等键能让它归零。</translation>
    </message>
    <message>
        <source>Switch the wrapper off</source>
        <translation>关掉重试装饰器</translation>
    </message>
    <message>
        <source>The same run with only the business loop retrying.</source>
        <translation>同样的运行，只有业务重试循环在重试。</translation>
    </message>
    <message>
        <source>A generated @retry wrapper inside a hand-written business loop, and urllib3 underneath: each layer retries the layer below, so the attempts multiply.</source>
        <translation>自动生成的 @retry 重试装饰器嵌在手写的业务重试循环里，下面还有 urllib3：每一层都重试下面那一层，于是尝试次数相乘。</translation>
    </message>
    <message>
        <source>Nested retry layers multiply attempts</source>
        <translation>嵌套的重试层让尝试次数相乘</translation>
    </message>
    <message>
        <source>No key</source>
        <translation>没有幂等键</translation>
    </message>
    <message>
        <source>20 orders, 30% of the responses lost, two retry layers, and no key on the requests.</source>
        <translation>20 个订单，30% 的响应丢失，两个重试层，请求都不带幂等键。</translation>
    </message>
    <message>
        <source>The keys are all unique, so the server sees only new orders.</source>
        <translation>幂等键全都各不相同，所以服务端看到的只有新订单。</translation>
    </message>
    <message>
        <source>A new key on each wrapper retry</source>
        <translation>装饰器每次重试都换新键</translation>
    </message>
    <message>
        <source>Every request now carries a key, but each retry of the wrapper sends a different one.</source>
        <translation>现在每个请求都带着幂等键，但装饰器的每次重试发送的都是不同的键。</translation>
    </message>
    <message>
        <source>Better, but an order whose business loop retried after a lost response still doubled.</source>
        <translation>好一些了，但业务重试循环在响应丢失后重试过的订单仍然翻了倍。</translation>
    </message>
    <message>
        <source>A new key on each business retry</source>
        <translation>业务循环每次重试都换新键</translation>
    </message>
    <message>
        <source>Now the wrapper&apos;s retries share a key, but the business loop mints a new one for each of its attempts.</source>
        <translation>现在装饰器的重试共用一个幂等键，但业务重试循环在它的每次尝试中都生成一个新键。</translation>
    </message>
    <message>
        <source>Every one of the 12 resends after a lost response is recognised and replayed instead of repeated.</source>
        <translation>响应丢失后的全部 12 次重发都被识别并重放，而不是重复执行。</translation>
    </message>
    <message>
        <source>One key per order</source>
        <translation>每个订单一个幂等键</translation>
    </message>
    <message>
        <source>One key per order, reused by every retry of every layer.</source>
        <translation>每个订单一个幂等键，每一层的每次重试都重复使用它。</translation>
    </message>
    <message>
        <source>At scale, a key that changes between retries gives the same duplicates as no key. Only a key that stays the same through every retry stops them.</source>
        <translation>在大规模下，重试之间会变化的幂等键造成的重复订单与没有幂等键一样多。只有在每次重试中都保持不变的幂等键才能阻止它们。</translation>
    </message>
    <message>
        <source>A new key on every retry is no key at all</source>
        <translation>每次重试都换新键，等于没有幂等键</translation>
    </message>
    <message>
        <source>A replay of the first answer</source>
        <translation>第一次应答的重放</translation>
    </message>
    <message>
        <source>422: the key was used with another payload</source>
        <translation>422：该幂等键已用于另一个请求体</translation>
    </message>
    <message>
        <source>What does the server answer the retry?</source>
        <translation>服务端对这次重试如何应答？</translation>
    </message>
    <message>
        <source>422 tells the client it has a bug, instead of hiding it.</source>
        <translation>422 告诉客户端它有 bug，而不是把 bug 掩盖起来。</translation>
    </message>
    <message>
        <source>Same key, changed payload</source>
        <translation>相同的幂等键，改动过的请求体</translation>
    </message>
    <message>
        <source>The first response is lost, and the client rebuilds the order with a changed payload but keeps the key.</source>
        <translation>第一个响应丢失了，客户端用改动过的请求体重新构造订单，却保留了幂等键。</translation>
    </message>
    <message>
        <source>How many replays does the client get?</source>
        <translation>客户端得到多少次重放？</translation>
    </message>
    <message>
        <source>The client is told its changed order succeeded, but the server holds the old one.</source>
        <translation>客户端被告知它改动过的订单已成功，可服务端存的却是旧订单。</translation>
    </message>
    <message>
        <source>No fingerprint</source>
        <translation>没有指纹</translation>
    </message>
    <message>
        <source>The server stops comparing payloads and trusts the key alone.</source>
        <translation>服务端不再比较请求体，只信任幂等键。</translation>
    </message>
    <message>
        <source>How many records does the server hold?</source>
        <translation>服务端存有多少条记录？</translation>
    </message>
    <message>
        <source>Build the request once, before the retry loop, and resend it unchanged.</source>
        <translation>在重试循环之前只构造一次请求，然后原样重新发送。</translation>
    </message>
    <message>
        <source>Rebuild nothing on retry</source>
        <translation>重试时什么都不要重新构造</translation>
    </message>
    <message>
        <source>The client now resends exactly the bytes it sent the first time.</source>
        <translation>现在客户端重新发送的正是第一次发送的那些字节。</translation>
    </message>
    <message>
        <source>An idempotency key says &quot;this is the same request&quot;. The server checks that claim by comparing a fingerprint of the payload.</source>
        <translation>幂等键表示“这是同一个请求”。服务端通过比较请求体指纹来核实这一说法。</translation>
    </message>
    <message>
        <source>The payload fingerprint</source>
        <translation>请求体指纹</translation>
    </message>
    <message>
        <source>With one request per order at a time, asking first is enough.</source>
        <translation>在每个订单同一时间只有一个请求的情况下，先问一问就够了。</translation>
    </message>
    <message>
        <source>Ask first</source>
        <translation>先问一问</translation>
    </message>
    <message>
        <source>No idempotency key, but before each retry the business loop sends GET /orders?ref= and resends only if the order is missing.</source>
        <translation>没有幂等键，但在每次重试之前，业务重试循环先发送 GET /orders?ref=，只有订单不存在时才重新发送。</translation>
    </message>
    <message>
        <source>How many status queries did the run send?</source>
        <translation>这次运行发送了多少次状态查询？</translation>
    </message>
    <message>
        <source>The price: extra round trips</source>
        <translation>代价：额外的往返</translation>
    </message>
    <message>
        <source>Each retry now costs a query as well as a POST.</source>
        <translation>现在每次重试除了一次 POST，还要多一次查询。</translation>
    </message>
    <message>
        <source>The query does not work when two copies can be in flight at once: then only an atomic key does.</source>
        <translation>当同一订单可能有两份副本同时在进行中时，查询就不管用了：这时只有原子化的幂等键才行。</translation>
    </message>
    <message>
        <source>Stop asking</source>
        <translation>不再询问</translation>
    </message>
    <message>
        <source>The same run, with the client resending blindly.</source>
        <translation>同样的运行，客户端盲目地重新发送。</translation>
    </message>
    <message>
        <source>Before resending, the client asks the server whether the order already exists.</source>
        <translation>重新发送之前，客户端先问服务端订单是否已经存在。</translation>
    </message>
    <message>
        <source>Query status before resending</source>
        <translation>重新发送之前先查询状态</translation>
    </message>
    <message>
        <source>How many duplicates remain outstanding at the end?</source>
        <translation>到最后还有多少条重复订单未处理？</translation>
    </message>
    <message>
        <source>Duplicates without a net</source>
        <translation>没有安全网的重复订单</translation>
    </message>
    <message>
        <source>The ghost request again: two retry layers, no key, lost responses.</source>
        <translation>又是幽灵请求：两个重试层，没有幂等键，响应会丢失。</translation>
    </message>
    <message>
        <source>The duplicates were still created: for up to 30 s they were real orders.</source>
        <translation>重复订单仍然被创建了：在长达 30 s 的时间里，它们都是真实的订单。</translation>
    </message>
    <message>
        <source>A job every 30 s</source>
        <translation>每 30 s 一次的任务</translation>
    </message>
    <message>
        <source>A job scans the orders every 30 s for records that share one reference and voids the extra copies.</source>
        <translation>一个任务每 30 s 扫描一次订单，找出共享同一业务编号的记录，并作废多余的副本。</translation>
    </message>
    <message>
        <source>How many orders are voided?</source>
        <translation>有多少个订单被作废？</translation>
    </message>
    <message>
        <source>Reconciliation repairs after the fact; idempotency prevents. Use both.</source>
        <translation>对账是事后修复；幂等性是事前预防。两者都要用。</translation>
    </message>
    <message>
        <source>Flag instead of void</source>
        <translation>标记而不是作废</translation>
    </message>
    <message>
        <source>Many shops only flag suspected duplicates for a person to check.</source>
        <translation>很多商家只把疑似重复的订单标记出来，交给人工核查。</translation>
    </message>
    <message>
        <source>Whatever the client does, a periodic job can find orders that share a business reference and void the extra copies.</source>
        <translation>无论客户端怎么做，一个定时任务都能找出共享同一业务编号的订单，并作废多余的副本。</translation>
    </message>
    <message>
        <source>Reconciliation, the last safety net</source>
        <translation>对账，最后一道安全网</translation>
    </message>
    <message>
        <source>How many duplicates does this run make?</source>
        <translation>这次运行产生了多少条重复订单？</translation>
    </message>
    <message>
        <source>No request ID</source>
        <translation>没有请求 ID</translation>
    </message>
    <message>
        <source>The requests carry no ID, so the log shows attempts that cannot be tied to their order.</source>
        <translation>请求不带 ID，所以日志中显示的尝试无法与它们的订单对应起来。</translation>
    </message>
    <message>
        <source>Still 6</source>
        <translation>仍然是 6</translation>
    </message>
    <message>
        <source>None</source>
        <translation>没有</translation>
    </message>
    <message>
        <source>What happens to the duplicates?</source>
        <translation>重复订单会怎样？</translation>
    </message>
    <message>
        <source>An ID changes nothing about the outcome: it makes the duplicates traceable, not fewer.</source>
        <translation>ID 不会改变结果：它让重复订单可以追溯，而不会让它们变少。</translation>
    </message>
    <message>
        <source>Switch the ID on</source>
        <translation>打开请求 ID</translation>
    </message>
    <message>
        <source>Every retry layer now sends the order&apos;s X-Request-ID with each attempt.</source>
        <translation>现在每个重试层在每次尝试中都发送订单的 X-Request-ID。</translation>
    </message>
    <message>
        <source>How many POST attempts did the shown order make?</source>
        <translation>所显示的订单发出了多少次 POST 尝试？</translation>
    </message>
    <message>
        <source>Follow one order</source>
        <translation>跟踪一个订单</translation>
    </message>
    <message>
        <source>A request ID that every retry layer propagates groups all attempts of one business operation in the log.</source>
        <translation>每个重试层都传递的请求 ID，能在日志中把同一个业务操作的所有尝试归到一起。</translation>
    </message>
    <message>
        <source>Request IDs make the log readable</source>
        <translation>请求 ID 让日志变得可读</translation>
    </message>
    <message>
        <source>Fewer than 2</source>
        <translation>少于 2</translation>
    </message>
    <message>
        <source>2 to 10</source>
        <translation>2 到 10</translation>
    </message>
    <message>
        <source>More than 10</source>
        <translation>多于 10</translation>
    </message>
    <message>
        <source>An overloaded server</source>
        <translation>过载的服务端</translation>
    </message>
    <message>
        <source>Orders arrive faster than the server can finish them, and three retry layers resend every timeout.</source>
        <translation>订单到达的速度快于服务端完成它们的速度，而三个重试层会重新发送每一次超时。</translation>
    </message>
    <message>
        <source>How many commits came too late for their client?</source>
        <translation>有多少次提交来得太晚，客户端已经不再等待？</translation>
    </message>
    <message>
        <source>Late commits</source>
        <translation>迟到的提交</translation>
    </message>
    <message>
        <source>Requests wait in the queue past the client&apos;s timeout, so the server commits orders nobody waits for.</source>
        <translation>请求在队列中等待超过了客户端的超时，于是服务端提交的是没人在等的订单。</translation>
    </message>
    <message>
        <source>How many POSTs per order now?</source>
        <translation>现在每个订单多少次 POST？</translation>
    </message>
    <message>
        <source>A retry budget</source>
        <translation>重试预算</translation>
    </message>
    <message>
        <source>Each client may retry only while its token bucket has tokens, refilled by successes.</source>
        <translation>每个客户端只有在令牌桶里还有令牌时才能重试，成功会补充令牌。</translation>
    </message>
    <message>
        <source>When a server is overloaded, every layer&apos;s retries add load exactly when it can least take it.</source>
        <translation>服务端过载时，每一层的重试恰好在它最承受不起的时候增加负载。</translation>
    </message>
    <message>
        <source>Retry storms</source>
        <translation>重试风暴</translation>
    </message>
    <message>
        <source>A used token is refused, so no order is created twice.</source>
        <translation>用过的令牌会被拒绝，所以任何订单都不会被创建两次。</translation>
    </message>
    <message>
        <source>Tokens spent on commit</source>
        <translation>令牌在提交时用掉</translation>
    </message>
    <message>
        <source>Each order asks the server for a token first, and the token is spent when the order commits.</source>
        <translation>每个订单先向服务端申请一个令牌，令牌在订单提交时被用掉。</translation>
    </message>
    <message>
        <source>How many orphans: orders that exist but that the client reports as failed?</source>
        <translation>有多少个孤儿订单：订单存在，但客户端报告为失败？</translation>
    </message>
    <message>
        <source>The order exists, the client says it failed: an orphan.</source>
        <translation>订单存在，客户端却说它失败了：这就是孤儿订单。</translation>
    </message>
    <message>
        <source>The retry after a lost response</source>
        <translation>响应丢失后的重试</translation>
    </message>
    <message>
        <source>When the first response is lost, the retry gets 409: token already used. The client takes that as final.</source>
        <translation>当第一个响应丢失时，重试会收到 409：令牌已被使用。客户端把它当作最终结果。</translation>
    </message>
    <message>
        <source>How many orphans?</source>
        <translation>有多少个孤儿订单？</translation>
    </message>
    <message>
        <source>All 12 retries after a lost response now get the stored answer: no orphan, no duplicate.</source>
        <translation>响应丢失后的全部 12 次重试现在都得到了已存储的应答：没有孤儿订单，也没有重复订单。</translation>
    </message>
    <message>
        <source>Replay instead of 409</source>
        <translation>用重放代替 409</translation>
    </message>
    <message>
        <source>The server now answers a used token with the stored response instead of 409.</source>
        <translation>现在服务端对用过的令牌返回已存储的响应，而不是 409。</translation>
    </message>
    <message>
        <source>How many orders does the client report as succeeded?</source>
        <translation>客户端报告有多少个订单成功？</translation>
    </message>
    <message>
        <source>A 409 on a used token means &quot;ask&quot;, not &quot;failed&quot;.</source>
        <translation>用过的令牌返回 409，意思是“去问一问”，而不是“失败了”。</translation>
    </message>
    <message>
        <source>Ask after the 409</source>
        <translation>收到 409 后先问一问</translation>
    </message>
    <message>
        <source>Tokens are refused again, but after a 409 the client asks GET /orders?ref= whether its order exists.</source>
        <translation>令牌再次被拒绝，但收到 409 之后，客户端用 GET /orders?ref= 查询它的订单是否存在。</translation>
    </message>
    <message>
        <source>The server issues a single-use token for each order. No order is created twice, but a lost response turns into a failure the client believes.</source>
        <translation>服务端为每个订单签发一次性令牌。任何订单都不会被创建两次，但一个丢失的响应会变成客户端信以为真的失败。</translation>
    </message>
    <message>
        <source>Single-use tokens and the orphan</source>
        <translation>一次性令牌与孤儿订单</translation>
    </message>
    <message>
        <source>How many records of this one order will the server hold?</source>
        <translation>这一个订单在服务端会有多少条记录？</translation>
    </message>
    <message>
        <source>The first attempt did succeed: the client could not know, and its retry created a second order.</source>
        <translation>第一次尝试其实成功了：客户端无从得知，它的重试又创建了第二个订单。</translation>
    </message>
    <message>
        <source>One order, one lost response</source>
        <translation>一个订单，一个丢失的响应</translation>
    </message>
    <message>
        <source>The server commits ORD-0001, then its response is lost on the way back. The client sees nothing but its own timeout and tries again.</source>
        <translation>服务端提交了 ORD-0001，然后它的响应在返回途中丢失了。客户端只看到自己的超时，于是再试一次。</translation>
    </message>
    <message>
        <source>The client says the order failed. How many records does the server hold?</source>
        <translation>客户端说订单失败了。服务端存有多少条记录？</translation>
    </message>
    <message>
        <source>A reported failure with a committed order is an orphan: the customer is charged and told it did not work.</source>
        <translation>报告为失败而订单已提交，这就是孤儿订单：顾客被扣了款，却被告知没有成功。</translation>
    </message>
    <message>
        <source>Without a retry</source>
        <translation>不重试</translation>
    </message>
    <message>
        <source>Now the client gives up after the timeout and reports the order as failed.</source>
        <translation>现在客户端在超时后放弃，并报告订单失败。</translation>
    </message>
    <message>
        <source>With a 10 s timeout, how many records exist?</source>
        <translation>超时设为 10 s 时，有多少条记录？</translation>
    </message>
    <message>
        <source>The outcome of a timed-out request is unknown, whatever the timeout. Only the server can tell whether it happened.</source>
        <translation>超时的请求结果是未知的，无论超时设多长。只有服务端知道它是否发生了。</translation>
    </message>
    <message>
        <source>A timeout means: unknown</source>
        <translation>超时意味着：未知</translation>
    </message>
    <message>
        <source>A longer timeout does not help: the response is lost, not late, so the client still waits in vain.</source>
        <translation>更长的超时没有用：响应是丢失了，而不是迟到了，所以客户端仍然白等。</translation>
    </message>
    <message>
        <source>The client stops waiting, but the server may already have done the work. One order and one lost response show why a retry can create a second order.</source>
        <translation>客户端不再等待，但服务端可能已经完成了工作。一个订单和一个丢失的响应就能说明，为什么重试会创建第二个订单。</translation>
    </message>
    <message>
        <source>A timeout is not a failure</source>
        <translation>超时不等于失败</translation>
    </message>
    <message>
        <source>How many POST attempts does urllib3 send?</source>
        <translation>urllib3 发送了多少次 POST 尝试？</translation>
    </message>
    <message>
        <source>A POST is not idempotent, so urllib3 does not resend it after a read timeout: the error reaches the caller.</source>
        <translation>POST 不是幂等的，所以 urllib3 在读取超时后不会重新发送它：错误会传到调用者那里。</translation>
    </message>
    <message>
        <source>The default: POST is left out</source>
        <translation>默认情况：不包括 POST</translation>
    </message>
    <message>
        <source>Only urllib3 retries here, with total=3, and the first response to ORD-0001 is lost.</source>
        <translation>这里只有 urllib3 在重试，设置为 total=3，而 ORD-0001 的第一个响应丢失了。</translation>
    </message>
    <message>
        <source>The transport layer made a duplicate that no line of the application asked for.</source>
        <translation>传输层制造了一条应用代码中没有任何一行要求过的重复订单。</translation>
    </message>
    <message>
        <source>allowed_methods=None</source>
        <translation>设置 allowed_methods=None</translation>
    </message>
    <message>
        <source>allowed_methods=None means every method, POST included: urllib3 now resends the order after the timeout.</source>
        <translation>allowed_methods=None 表示所有方法，包括 POST：urllib3 现在会在超时后重新发送订单。</translation>
    </message>
    <message>
        <source>The stored answer, replayed</source>
        <translation>已存储的应答，被重放</translation>
    </message>
    <message>
        <source>A new order</source>
        <translation>一个新订单</translation>
    </message>
    <message>
        <source>What does urllib3&apos;s resend get?</source>
        <translation>urllib3 的重发得到了什么？</translation>
    </message>
    <message>
        <source>A retry is only safe when the server can recognise it.</source>
        <translation>只有当服务端能识别重试时，重试才是安全的。</translation>
    </message>
    <message>
        <source>The same with a key</source>
        <translation>带上幂等键再来一次</translation>
    </message>
    <message>
        <source>The order now carries one Idempotency-Key, minted before the first try, and urllib3 resends the same headers.</source>
        <translation>现在订单带着一个在第一次尝试之前生成的 Idempotency-Key，urllib3 重发时请求头保持不变。</translation>
    </message>
    <message>
        <source>urllib3&apos;s Retry retries a read timeout only for the methods in allowed_methods, and POST is not among them by default. allowed_methods=None changes that.</source>
        <translation>urllib3 的 Retry 只对 allowed_methods 中的方法重试读取超时，而 POST 默认不在其中。allowed_methods=None 改变了这一点。</translation>
    </message>
    <message>
        <source>urllib3 does not retry POST</source>
        <translation>urllib3 不重试 POST</translation>
    </message>
    <message>
        <source>How many records does the server hold for ORD-0001?</source>
        <translation>服务端为 ORD-0001 存有多少条记录？</translation>
    </message>
    <message>
        <source>The atomic key store cannot help: to the server the retry is a brand-new order.</source>
        <translation>原子化的幂等键存储也帮不上忙：在服务端看来，这次重试是一个全新的订单。</translation>
    </message>
    <message>
        <source>Minted inside the decorated method</source>
        <translation>在被装饰的方法内部生成</translation>
    </message>
    <message>
        <source>The key is generated inside the method that @retry decorates, so every retry of the wrapper mints a new one.</source>
        <translation>幂等键是在被 @retry 装饰的方法内部生成的，所以重试装饰器的每次重试都会生成一个新键。</translation>
    </message>
    <message>
        <source>Same fault, same retry: the server recognises the key and replays its stored answer.</source>
        <translation>同样的故障，同样的重试：服务端认出了幂等键，并重放已存储的应答。</translation>
    </message>
    <message>
        <source>Minted once per operation</source>
        <translation>每个操作生成一次</translation>
    </message>
    <message>
        <source>Now the key is minted before any retry loop starts, once per business operation.</source>
        <translation>现在幂等键在任何重试循环开始之前生成，每个业务操作一次。</translation>
    </message>
    <message>
        <source>Mint the key where the business operation begins, outside every retry loop.</source>
        <translation>在业务操作开始的地方生成幂等键，放在所有重试循环之外。</translation>
    </message>
    <message>
        <source>Minted per business attempt</source>
        <translation>每次业务尝试生成一次</translation>
    </message>
    <message>
        <source>Here the business loop retries and mints a fresh key at the top of each of its attempts.</source>
        <translation>这里业务重试循环在重试，并在它每次尝试的开头生成一个新键。</translation>
    </message>
    <message>
        <source>An idempotency key protects only the retries that reuse it. Where the code mints the key decides which layer&apos;s retries are recognised.</source>
        <translation>幂等键只保护重复使用它的那些重试。代码在哪里生成幂等键，决定了哪一层的重试能被识别。</translation>
    </message>
    <message>
        <source>Where the key is minted</source>
        <translation>幂等键在哪里生成</translation>
    </message>
    <message>
        <source>How many records does this server create for ORD-0001 if the client sends it twice with one key?</source>
        <translation>如果客户端用同一个幂等键把 ORD-0001 发送两次，这个服务端会为它创建多少条记录？</translation>
    </message>
    <message>
        <source>Start the server</source>
        <translation>启动服务端</translation>
    </message>
    <message>
        <source>In a terminal run: retrylab serve --scenario stable-key. It listens on http://127.0.0.1:8080 and loses the first response to ORD-0001.</source>
        <translation>在终端中运行：retrylab serve --scenario stable-key。它监听 http://127.0.0.1:8080，并会丢失 ORD-0001 的第一个响应。</translation>
    </message>
    <message>
        <source>201 with Idempotent-Replayed: true</source>
        <translation>201，带 Idempotent-Replayed: true</translation>
    </message>
    <message>
        <source>A second order</source>
        <translation>第二个订单</translation>
    </message>
    <message>
        <source>Send the same command again. What comes back?</source>
        <translation>再发送一次同样的命令。返回的是什么？</translation>
    </message>
    <message>
        <source>Send the order with a key</source>
        <translation>带着幂等键发送订单</translation>
    </message>
    <message>
        <source>How many records does curl http://127.0.0.1:8080/metrics report?</source>
        <translation>curl http://127.0.0.1:8080/metrics 报告了多少条记录？</translation>
    </message>
    <message>
        <source>Your own client makes the same duplicate as the simulated one.</source>
        <translation>你自己的客户端产生了与模拟客户端相同的重复订单。</translation>
    </message>
    <message>
        <source>Without the key</source>
        <translation>不带幂等键</translation>
    </message>
    <message>
        <source>retrylab serve runs the same order service over real HTTP. Point curl or your own code at it and watch the same lessons happen.</source>
        <translation>retrylab serve 通过真实 HTTP 运行同样的订单服务。把 curl 或你自己的代码指向它，看同样的课程内容在眼前发生。</translation>
    </message>
    <message>
        <source>Use your own client against the live server</source>
        <translation>用你自己的客户端访问实时服务端</translation>
    </message>
    <message>
        <source>Fewer than 1000</source>
        <translation>少于 1000</translation>
    </message>
    <message>
        <source>1000 to 3000</source>
        <translation>1000 到 3000</translation>
    </message>
    <message>
        <source>More than 3000</source>
        <translation>多于 3000</translation>
    </message>
    <message>
        <source>Only 670 succeed: the server stays full of retries for clients that have already given up.</source>
        <translation>只有 670 个成功：服务端一直塞满了重试请求，而发出它们的客户端早已放弃。</translation>
    </message>
    <message>
        <source>3468 succeed: the load falls below capacity, the queue drains and the server recovers.</source>
        <translation>3468 个成功：负载降到容量以下，队列排空，服务端恢复了。</translation>
    </message>
    <message>
        <source>The timeline shows an order with duplicates: click each of its attempts and read its request ID.</source>
        <translation>时间线显示了一个有重复记录的订单：点击它的每次尝试，读一读它的请求 ID。</translation>
    </message>
    <message>
        <source>How many POSTs per order do the clients send on average?</source>
        <translation>客户端平均每个订单发送多少次 POST？</translation>
    </message>
    <message>
        <source>The second answer is the stored one, replayed: the same status and body, and Idempotent-Replayed: true.</source>
        <translation>第二次的应答是已存储的那个，被重放了：状态和响应体都相同，并带有 Idempotent-Replayed: true。</translation>
    </message>
    <message>
        <source>Run: curl -i -m 3 -X POST http://127.0.0.1:8080/orders -H &apos;Idempotency-Key: ord-1-a&apos; -d &apos;{&quot;ref&quot;:&quot;ORD-0001&quot;,&quot;item&quot;:&quot;book&quot;}&apos;. curl gives up after 3 s: the response is lost.</source>
        <translation>运行：curl -i -m 3 -X POST http://127.0.0.1:8080/orders -H &apos;Idempotency-Key: ord-1-a&apos; -d &apos;{&quot;ref&quot;:&quot;ORD-0001&quot;,&quot;item&quot;:&quot;book&quot;}&apos;。curl 在 3 s 后放弃：响应丢失了。</translation>
    </message>
    <message>
        <source>Restart it with retrylab serve --scenario stable-key --set server.idempotency.mode=off and send the same order twice without the header.</source>
        <translation>用 retrylab serve --scenario stable-key --set server.idempotency.mode=off 重启服务端，然后不带该请求头把同一个订单发送两次。</translation>
    </message>
    <message>
        <source>The retries multiply the load on a server that was already behind: ORD-0307 alone sends 36 POSTs, and most of its copies are committed for nobody.</source>
        <translation>重试让一个本已跟不上的服务端负载成倍增加：仅 ORD-0307 就发送了 36 次 POST，其中大多数副本提交时已无人等待。</translation>
    </message>
    <message>
        <source>4012 of the 4530 records were committed after their client had given up on that attempt: the server did the work for nobody, and each of those timeouts sent another copy.</source>
        <translation>4530 条记录中有 4012 条是在客户端已放弃那次尝试之后才提交的：服务端白白做了工作，而每一次这样的超时又发出了一份副本。</translation>
    </message>
    <message>
        <source>The budget ends the storm: 901 POSTs in all, 1.5 per order, and the last order is over after 9 s instead of a minute. It cannot save the orders already queued past their timeout: 205 fail fast instead of being retried, ORD-0307 after 3 POSTs.</source>
        <translation>预算终结了风暴：总共 901 次 POST，每个订单 1.5 次，最后一个订单在 9 s 后结束，而不是一分钟。它救不了已在队列中等过超时的订单：205 个订单快速失败而不再重试，ORD-0307 在 3 次 POST 后失败。</translation>
    </message>
</context>
</TS>
