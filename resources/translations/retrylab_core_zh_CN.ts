<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>OrderServiceFixture</name>
    <message>
        <source>(no key)</source>
        <translation>(无幂等键)</translation>
    </message>
    <message>
        <source>the order service is not running: call start() first</source>
        <translation>订单服务未运行：请先调用 start()</translation>
    </message>
    <message>
        <source>preset %1: %2 (presets: %3)</source>
        <translation>预设 %1：%2（可用的预设：%3）</translation>
    </message>
    <message>
        <source>scriptFault: the order (%1) counts from 1 to %3 and the POST (%2) from 1 to %4; 0 means every one</source>
        <translation>scriptFault：订单序号（%1）取 1 到 %3，POST 序号（%2）取 1 到 %4；0 表示全部</translation>
    </message>
    <message>
        <source>%1: the order service received no request for it.</source>
        <translation>%1：订单服务没有收到它的任何请求。</translation>
    </message>
    <message>
        <source>  +%1 ms  %2  %3</source>
        <translation>  +%1 毫秒  %2  %3</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1 was created %2 times: %3 POST /orders received, Idempotency-Key values sent: %4</source>
        <translation>%1 被创建了 %2 次：共收到 %3 个 POST /orders，发送的 Idempotency-Key：%4</translation>
    </message>
    <message>
        <source>%1: the order service received no POST /orders for it</source>
        <translation>%1：订单服务没有收到它的 POST /orders</translation>
    </message>
    <message>
        <source>%1: its POST /orders carried no Idempotency-Key</source>
        <translation>%1：它的 POST /orders 没有携带 Idempotency-Key</translation>
    </message>
    <message>
        <source>%1: its POST /orders carried %2 different Idempotency-Key values: %3</source>
        <translation>%1：它的 POST /orders 携带了 %2 个不同的 Idempotency-Key：%3</translation>
    </message>
    <message>
        <source>%1 has %2 record(s), expected %3</source>
        <translation>%1 有 %2 条记录，预期 %3 条</translation>
    </message>
</context>
<context>
    <name>check</name>
    <message>
        <source>%1: missing</source>
        <translation>%1：缺失</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; comes twice</source>
        <translation>%1：“%2”出现了两次</translation>
    </message>
    <message>
        <source>format: expected &quot;%1&quot; (a report of retrylab check --save), got %2</source>
        <translation>format：应为“%1”（retrylab check --save 写出的报告），实际为 %2</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>空</translation>
    </message>
    <message>
        <source>version: %1 is newer than this RetryLab reads (%2)</source>
        <translation>version：%1 比此版本 RetryLab 能读取的版本（%2）更新</translation>
    </message>
    <message>
        <source>the file is larger than %1 bytes, the most a check report may hold</source>
        <translation>文件大于 %1 字节，超过检查报告的上限</translation>
    </message>
    <message>
        <source>malformed JSON at byte %1: %2</source>
        <translation>JSON 格式错误，位于第 %1 字节：%2</translation>
    </message>
    <message>
        <source>%1: not a regular file</source>
        <translation>%1：不是普通文件</translation>
    </message>
    <message>
        <source>cannot read check report &quot;%1&quot;: %2</source>
        <translation>无法读取检查报告“%1”：%2</translation>
    </message>
    <message>
        <source>pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>warn</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>cannot tell</source>
        <translation>无法判断</translation>
    </message>
    <message>
        <source>FAIL</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>same key, same body, twice</source>
        <translation>同键同体，发送两次</translation>
    </message>
    <message>
        <source>same key, other body</source>
        <translation>同键，不同请求体</translation>
    </message>
    <message>
        <source>same key while in flight</source>
        <translation>首个请求处理中再发同键</translation>
    </message>
    <message>
        <source>answer lost, retry (ghost)</source>
        <translation>响应丢失后重试（幽灵）</translation>
    </message>
    <message>
        <source>no key</source>
        <translation>不带键</translation>
    </message>
    <message>
        <source>no key, same body, twice</source>
        <translation>不带键，同体发送两次</translation>
    </message>
    <message>
        <source>5xx before commit, retry</source>
        <translation>提交前 5xx，再重试</translation>
    </message>
    <message>
        <source>the first request got %1: nothing to compare with (check --body and -H)</source>
        <translation>第一个请求得到 %1：没有可比较的对象（请检查 --body 和 -H）</translation>
    </message>
    <message>
        <source>a request got no answer within --timeout</source>
        <translation>有请求在 --timeout 内没有得到响应</translation>
    </message>
    <message>
        <source>the answers name no resource (no &quot;%1&quot;, no Location) and there is no --list: the creations cannot be counted</source>
        <translation>响应未标识资源（没有“%1”，没有 Location），也没有 --list：无法统计创建次数</translation>
    </message>
    <message>
        <source>replayed: same status, body and resource; created once</source>
        <translation>已重放：状态、响应体和资源都相同；只创建一次</translation>
    </message>
    <message>
        <source>the same key created a second resource</source>
        <translation>同一个键创建了第二个资源</translation>
    </message>
    <message>
        <source>the second answer differs from the first (status or body): not a replay</source>
        <translation>第二个响应与第一个不同（状态或响应体）：不是重放</translation>
    </message>
    <message>
        <source>422 for the key reused with another body</source>
        <translation>同一个键配不同请求体得到 422</translation>
    </message>
    <message>
        <source>the other body got the first answer: the body is not compared with the key&apos;s (expected 422)</source>
        <translation>不同的请求体得到了第一次的响应：未比较请求体与该键的原请求体（应为 422）</translation>
    </message>
    <message>
        <source>the other body created a second resource under the same key</source>
        <translation>不同的请求体在同一个键下创建了第二个资源</translation>
    </message>
    <message>
        <source>refused with %1; the draft says 422</source>
        <translation>以 %1 拒绝；草案规定为 422</translation>
    </message>
    <message>
        <source>--body has no {n}: there is no other body to send</source>
        <translation>--body 中没有 {n}：无法构造不同的请求体</translation>
    </message>
    <message>
        <source>409 while the first was in flight; created once</source>
        <translation>第一个请求处理中时得到 409；只创建一次</translation>
    </message>
    <message>
        <source>created once; the others waited and replayed</source>
        <translation>只创建一次；其余请求等待后得到重放</translation>
    </message>
    <message numerus="yes">
        <source>%n resources for one key sent at once: a check-then-insert race</source>
        <translation>
            <numerusform>同时发送的同一个键产生了 %n 个资源：先检查后插入的竞态</numerusform>
        </translation>
    </message>
    <message>
        <source>an answer came before the last request was sent: nothing was in flight together</source>
        <translation>最后一个请求发出前已有响应返回：请求并未同时处于处理中</translation>
    </message>
    <message>
        <source>the retry got the resource the lost answer created; no second one</source>
        <translation>重试得到了丢失响应所创建的资源；没有第二个</translation>
    </message>
    <message>
        <source>the retry created a second resource: a duplicate after a lost answer</source>
        <translation>重试创建了第二个资源：响应丢失后产生了重复</translation>
    </message>
    <message>
        <source>the endpoint answered the lost request with %1: nothing was committed</source>
        <translation>接口对丢失响应的请求回答了 %1：没有提交任何内容</translation>
    </message>
    <message>
        <source>no duplicate, but the retry got %1: the client never learns its request succeeded</source>
        <translation>没有重复，但重试得到 %1：客户端永远不知道它的请求已经成功</translation>
    </message>
    <message>
        <source>400 without a key: keys are required</source>
        <translation>不带键得到 400：键是必需的</translation>
    </message>
    <message>
        <source>accepts POST without a key</source>
        <translation>接受不带键的 POST</translation>
    </message>
    <message>
        <source>refused with %1 without a key; the draft says 400</source>
        <translation>不带键时以 %1 拒绝；草案规定为 400</translation>
    </message>
    <message>
        <source>one resource: it deduplicates the same body without a key</source>
        <translation>一个资源：不带键时也会对相同请求体去重</translation>
    </message>
    <message>
        <source>two resources: a client that retries without a key creates a duplicate</source>
        <translation>两个资源：不带键重试的客户端会产生重复</translation>
    </message>
    <message>
        <source>refused without a key</source>
        <translation>不带键被拒绝</translation>
    </message>
    <message>
        <source>the retry succeeded. The proxy answered the 503 itself, so this shows that nothing holds the key of a request the endpoint never saw, not whether it stores its own errors</source>
        <translation>重试成功。503 由代理自己回答，因此这只说明接口从未见过的请求不会占用其键，并不能说明接口是否保存自己的错误响应</translation>
    </message>
    <message>
        <source>the retry got %1 although the endpoint never saw the first request (the proxy answered its 503)</source>
        <translation>接口从未见过第一个请求（503 由代理回答），重试却得到 %1</translation>
    </message>
</context>
<context>
    <name>retrylab::RecordsModel</name>
    <message>
        <source>first</source>
        <translation>首次</translation>
    </message>
    <message>
        <source>duplicate</source>
        <translation>重复</translation>
    </message>
    <message>
        <source>flagged</source>
        <translation>已标记</translation>
    </message>
    <message>
        <source>voided</source>
        <translation>已作废</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>记录</translation>
    </message>
    <message>
        <source>Business ref</source>
        <translation>业务编号</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Idempotency key</source>
        <translation>幂等键</translation>
    </message>
    <message>
        <source>Request ID</source>
        <translation>请求 ID</translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation>时间 (ms)</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
</context>
<context>
    <name>retrylab::TraceModel</name>
    <message>
        <source>Time (ms)</source>
        <translation>时间 (ms)</translation>
    </message>
    <message>
        <source>Lane</source>
        <translation>泳道</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>尝试</translation>
    </message>
    <message>
        <source>Request ID</source>
        <translation>请求 ID</translation>
    </message>
    <message>
        <source>Idempotency key</source>
        <translation>幂等键</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>记录</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
</context>
<context>
    <name>retrylab::compare</name>
    <message>
        <source>Records on the server</source>
        <translation>服务端的记录</translation>
    </message>
    <message>
        <source>Duplicate records</source>
        <translation>重复记录</translation>
    </message>
    <message>
        <source>Orphans (record, but the client gave up)</source>
        <translation>孤儿订单（有记录，但客户端已放弃）</translation>
    </message>
    <message>
        <source>POST attempts</source>
        <translation>POST 尝试次数</translation>
    </message>
    <message>
        <source>Operations succeeded</source>
        <translation>成功的操作</translation>
    </message>
    <message>
        <source>Operations failed</source>
        <translation>失败的操作</translation>
    </message>
    <message>
        <source>Latency p50 (ms)</source>
        <translation>延迟 p50 (ms)</translation>
    </message>
    <message>
        <source>Latency p99 (ms)</source>
        <translation>延迟 p99 (ms)</translation>
    </message>
    <message>
        <source>Goodput (successful orders per second)</source>
        <translation>有效吞吐量（每秒成功的订单数）</translation>
    </message>
    <message>
        <source>%1: %2 → %3</source>
        <translation>%1：%2 → %3</translation>
    </message>
    <message>
        <source>full jitter</source>
        <translation>全抖动</translation>
    </message>
    <message>
        <source>global retry budget</source>
        <translation>全局重试预算</translation>
    </message>
</context>
<context>
    <name>retrylab::whatif</name>
    <message>
        <source>current settings</source>
        <translation>当前设置</translation>
    </message>
    <message>
        <source>server ignores keys (mode off)</source>
        <translation>服务端忽略幂等键（mode off）</translation>
    </message>
    <message>
        <source>no key, server requires one (400)</source>
        <translation>不带幂等键，服务端要求带键（400）</translation>
    </message>
    <message>
        <source>no key</source>
        <translation>不带幂等键</translation>
    </message>
    <message>
        <source>key per op, %1</source>
        <translation>每个操作一个幂等键，%1</translation>
    </message>
    <message>
        <source>key per op</source>
        <translation>每个操作一个幂等键</translation>
    </message>
    <message>
        <source>atomic server (same key per op)</source>
        <translation>原子化服务端（每个操作同一个键）</translation>
    </message>
    <message>
        <source>key per op + atomic server</source>
        <translation>每个操作一个幂等键 + 原子化服务端</translation>
    </message>
    <message>
        <source>new key per @retry attempt, %1</source>
        <translation>每次 @retry 尝试换新键，%1</translation>
    </message>
    <message>
        <source>new key per @retry attempt</source>
        <translation>每次 @retry 尝试换新键</translation>
    </message>
    <message>
        <source>no business retry loop</source>
        <translation>无业务重试循环</translation>
    </message>
    <message>
        <source>no @retry wrapper</source>
        <translation>无 @retry 重试装饰器</translation>
    </message>
    <message>
        <source>no transport retries (urllib3)</source>
        <translation>无传输层重试（urllib3）</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
</context>
<context>
    <name>scenario</name>
    <message>
        <source>the file is larger than %1 bytes, the most a scenario file may hold</source>
        <translation>文件大于 %1 字节，超出了场景文件的上限</translation>
    </message>
    <message>
        <source>malformed JSON at %1: %2</source>
        <translation>JSON 格式错误，位于 %1：%2</translation>
    </message>
    <message>
        <source>expected a JSON object at the top level</source>
        <translation>顶层应为 JSON 对象</translation>
    </message>
    <message>
        <source>cannot read scenario file &quot;%1&quot;: %2</source>
        <translation>无法读取场景文件“%1”：%2</translation>
    </message>
    <message>
        <source>cannot write scenario file &quot;%1&quot;: %2</source>
        <translation>无法写入场景文件“%1”：%2</translation>
    </message>
    <message>
        <source>unknown preset &quot;%1&quot;; available presets: %2</source>
        <translation>未知预设“%1”；可用的预设：%2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is neither a scenario file nor a preset; available presets: %2</source>
        <translation>“%1”既不是场景文件，也不是预设；可用的预设：%2</translation>
    </message>
    <message>
        <source>and 1 more error</source>
        <translation>另有 1 个错误</translation>
    </message>
    <message>
        <source>and %1 more errors</source>
        <translation>另有 %1 个错误</translation>
    </message>
    <message>
        <source>%1: %2, got %3</source>
        <translation>%1: %2，实际为 %3</translation>
    </message>
    <message>
        <source>expected an integer from %1 to %2</source>
        <translation>应为 %1 到 %2 之间的整数</translation>
    </message>
    <message>
        <source>%1: expected an integer from %2 to %3, got %4 (or null for unlimited)</source>
        <translation>%1: 应为 %2 到 %3 之间的整数，实际为 %4（或用 null 表示不限）</translation>
    </message>
    <message>
        <source>%1: expected a number from %2 to %3, got %4 (or null for %5)</source>
        <translation>%1: 应为 %2 到 %3 之间的数，实际为 %4（或用 null 表示 %5）</translation>
    </message>
    <message>
        <source>expected a number from %1 to %2</source>
        <translation>应为 %1 到 %2 之间的数</translation>
    </message>
    <message>
        <source>expected true or false</source>
        <translation>应为 true 或 false</translation>
    </message>
    <message>
        <source>expected a string</source>
        <translation>应为字符串</translation>
    </message>
    <message>
        <source>expected a non-empty string</source>
        <translation>应为非空字符串</translation>
    </message>
    <message>
        <source>%1: at most %2 characters, got %3</source>
        <translation>%1: 最多 %2 个字符，实际为 %3 个</translation>
    </message>
    <message>
        <source>%1: at most %2 entries, got %3</source>
        <translation>%1: 最多 %2 个条目，实际为 %3 个</translation>
    </message>
    <message>
        <source>expected one of %1</source>
        <translation>应为以下之一：%1</translation>
    </message>
    <message>
        <source>expected an object</source>
        <translation>应为对象</translation>
    </message>
    <message>
        <source>expected an array</source>
        <translation>应为数组</translation>
    </message>
</context>
<context>
    <name>series</name>
    <message>
        <source>expected a duration like 1s, 0.02s or 250ms, got &apos;%1&apos;</source>
        <translation>应为时长，例如 1s、0.02s 或 250ms，实际为“%1”</translation>
    </message>
    <message>
        <source>a bucket must be at least 1 ms, got &apos;%1&apos;</source>
        <translation>时间桶至少为 1 ms，实际为“%1”</translation>
    </message>
    <message>
        <source>a bucket must be at most 3600 s, got &apos;%1&apos;</source>
        <translation>时间桶至多为 3600 s，实际为“%1”</translation>
    </message>
</context>
<context>
    <name>story</name>
    <message>
        <source>duplicate</source>
        <translation>重复订单</translation>
    </message>
    <message>
        <source>orphan</source>
        <translation>孤儿订单</translation>
    </message>
    <message>
        <source>422 payload mismatch</source>
        <translation>422 请求体不一致</translation>
    </message>
    <message>
        <source>409 conflict</source>
        <translation>409 冲突</translation>
    </message>
    <message>
        <source>replay</source>
        <translation>重放</translation>
    </message>
    <message>
        <source>query found the order</source>
        <translation>查询找到了订单</translation>
    </message>
    <message>
        <source>status query</source>
        <translation>状态查询</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>The server holds no record of %1: nothing to clean up.</source>
        <translation>服务端没有 %1 的记录：无需清理。</translation>
    </message>
    <message>
        <source>Yet the server holds a record of %1: an orphan the client will not know about.</source>
        <translation>然而服务端存有 %1 的一条记录：这是客户端不会知道的孤儿订单。</translation>
    </message>
    <message>
        <source>The server holds 2 records of %1: 1 is a duplicate.</source>
        <translation>服务端存有 %1 的 2 条记录：其中 1 条是重复订单。</translation>
    </message>
    <message>
        <source>Yet the server holds 2 records of %1: 1 is a duplicate.</source>
        <translation>然而服务端存有 %1 的 2 条记录：其中 1 条是重复订单。</translation>
    </message>
    <message>
        <source>The server holds %1 records of %2: %3 are duplicates.</source>
        <translation>服务端存有 %2 的 %1 条记录：其中 %3 条是重复订单。</translation>
    </message>
    <message>
        <source>Yet the server holds %1 records of %2: %3 are duplicates.</source>
        <translation>然而服务端存有 %2 的 %1 条记录：其中 %3 条是重复订单。</translation>
    </message>
</context>
<context>
    <name>sweep</name>
    <message>
        <source>%1: expected a scenario field path, e.g. network.responseLoss</source>
        <translation>%1：应为场景字段路径，例如 network.responseLoss</translation>
    </message>
    <message>
        <source>%1: the seed is varied by --seed and --seeds, not swept</source>
        <translation>%1：随机种子由 --seed 和 --seeds 改变，不能用于参数扫描</translation>
    </message>
    <message>
        <source>%1: unknown scenario field &quot;%2&quot;</source>
        <translation>%1：未知的场景字段“%2”</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is a group of fields, not one field (a group&apos;s values must be JSON objects, e.g. {&quot;jitter&quot;:&quot;full&quot;})</source>
        <translation>%1：“%2”是一组字段，而不是单个字段（一组字段的值必须是 JSON 对象，例如 {&quot;jitter&quot;:&quot;full&quot;}）</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is not a numeric field; give its values with %3, e.g. %3 a,b</source>
        <translation>%1：“%2”不是数值字段；请用 %3 给出它的取值，例如 %3 a,b</translation>
    </message>
    <message>
        <source>%1: at most %2 values, got %3</source>
        <translation>%1：最多 %2 个取值，实际为 %3 个</translation>
    </message>
    <message>
        <source>%1: an empty value (two commas in a row, or one at an end)</source>
        <translation>%1：有空值（两个逗号相连，或逗号在开头或末尾）</translation>
    </message>
    <message>
        <source>%1: expected a finite number</source>
        <translation>%1：应为有限的数字</translation>
    </message>
    <message>
        <source>%1/%2: the range from %3 to %4 is too wide to divide into steps</source>
        <translation>%1/%2：从 %3 到 %4 的范围太宽，无法划分步长</translation>
    </message>
    <message>
        <source>%1: expected an integer from 1 to %2, got %3</source>
        <translation>%1：应为 1 到 %2 之间的整数，实际为 %3</translation>
    </message>
    <message>
        <source>%1: %2 is out of range for the integer field %3 (beyond 2^53 either side of 0)</source>
        <translation>%1：%2 超出了整数字段 %3 的范围（绝对值超过 2^53）</translation>
    </message>
    <message>
        <source>--param2: &quot;%1&quot; is already --param; name another field</source>
        <translation>--param2：“%1”已经是 --param；请指定另一个字段</translation>
    </message>
    <message>
        <source>--seed/--seeds: --seed %1 with --seeds %2 would go past the largest seed, 18446744073709551615 (2^64 - 1), and wrap around to 0; use --seed %3 or lower</source>
        <translation>--seed/--seeds：--seed %1 配合 --seeds %2 会超过最大的随机种子 18446744073709551615（2^64 - 1）并回绕到 0；请使用 --seed %3 或更小的值</translation>
    </message>
    <message>
        <source>--seeds: expected an integer from 1 to 10000, got %1</source>
        <translation>--seeds：应为 1 到 10000 之间的整数，实际为 %1</translation>
    </message>
    <message>
        <source>%1 x %2: at most %3 cells per sweep, got %4 x %5</source>
        <translation>%1 x %2：每次参数扫描最多 %3 个单元格，实际为 %4 x %5</translation>
    </message>
    <message>
        <source>%1 x %2 x --seeds: at most %3 runs per sweep, got %4 x %5 x %6 = %7; lower --seeds or the number of values</source>
        <translation>%1 x %2 x --seeds：每次参数扫描最多运行 %3 次，实际为 %4 x %5 x %6 = %7；请减小 --seeds 或取值的个数</translation>
    </message>
    <message>
        <source>%1 x --seeds: at most %2 runs per sweep, got %3 x %4 = %5; lower --seeds or %1</source>
        <translation>%1 x --seeds：每次参数扫描最多运行 %2 次，实际为 %3 x %4 = %5；请减小 --seeds 或 %1</translation>
    </message>
    <message>
        <source>under a second</source>
        <translation>不到一秒</translation>
    </message>
    <message>
        <source>about %1 s</source>
        <translation>约 %1 秒</translation>
    </message>
    <message>
        <source>about %1 min</source>
        <translation>约 %1 分钟</translation>
    </message>
    <message>
        <source>about %1 h</source>
        <translation>约 %1 小时</translation>
    </message>
    <message>
        <source>about %1 days</source>
        <translation>约 %1 天</translation>
    </message>
    <message>
        <source>this sweep is expected to make about %1 HTTP requests (%2 runs, about %3 each)</source>
        <translation>此参数扫描预计发出约 %1 个 HTTP 请求（%2 次运行，每次约 %3 个）</translation>
    </message>
    <message>
        <source>, %1 at this machine&apos;s measured rate (%2 requests/s)</source>
        <translation>，按本机实测速度（每秒 %2 个请求）需%1</translation>
    </message>
    <message>
        <source>; over the limit of %1: --max-attempts %2 to allow</source>
        <translation>；超过上限 %1：用 --max-attempts %2 允许运行</translation>
    </message>
    <message>
        <source>sweep: %1/%2 runs (%3%)</source>
        <translation>sweep：%1/%2 次运行（%3%）</translation>
    </message>
    <message>
        <source>, %1 left</source>
        <translation>，剩余%1</translation>
    </message>
    <message>
        <source>--shard: expected K/N, the K-th of N slices, with 1 &lt;= K &lt;= N &lt;= %1 (e.g. 3/8), got &apos;%2&apos;</source>
        <translation>--shard：应为 K/N，即 N 份中的第 K 份，1 &lt;= K &lt;= N &lt;= %1（例如 3/8），得到“%2”</translation>
    </message>
</context>
<context>
    <name>trace</name>
    <message>
        <source>business</source>
        <translation>业务</translation>
    </message>
    <message>
        <source>wrapper</source>
        <translation>重试装饰器</translation>
    </message>
    <message>
        <source>transport</source>
        <translation>传输</translation>
    </message>
    <message>
        <source>network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>server</source>
        <translation>服务端</translation>
    </message>
    <message>
        <source>database</source>
        <translation>数据库</translation>
    </message>
    <message>
        <source>A second submission of %1 starts (a double click or a second tab).</source>
        <translation>%1 的第二次提交开始了（双击或第二个标签页）。</translation>
    </message>
    <message>
        <source>Order %1 starts: the client wants it created exactly once.</source>
        <translation>订单 %1 开始：客户端希望它恰好被创建一次。</translation>
    </message>
    <message>
        <source>The client minted idempotency key %1.</source>
        <translation>客户端生成了幂等键 %1。</translation>
    </message>
    <message>
        <source>The server issued the single-use token %1 for %2.</source>
        <translation>服务端为 %2 签发了一次性令牌 %1。</translation>
    </message>
    <message>
        <source>The business loop starts attempt %1 for %2.</source>
        <translation>业务重试循环为 %2 开始第 %1 次尝试。</translation>
    </message>
    <message>
        <source>The @retry wrapper starts attempt %1.</source>
        <translation>@retry 重试装饰器开始第 %1 次尝试。</translation>
    </message>
    <message>
        <source>Before retrying, the client asks whether %1 already exists (GET /orders?ref=%1).</source>
        <translation>重试之前，客户端先查询 %1 是否已经存在（GET /orders?ref=%1）。</translation>
    </message>
    <message>
        <source>%1 already exists: the client does not send it again.</source>
        <translation>%1 已经存在：客户端不再重新发送。</translation>
    </message>
    <message>
        <source>The server has no %1 yet: resending is safe.</source>
        <translation>服务端还没有 %1：重新发送是安全的。</translation>
    </message>
    <message>
        <source>The status query answered %1: the client still does not know.</source>
        <translation>状态查询返回 %1：客户端仍然无从得知。</translation>
    </message>
    <message>
        <source>The connection was refused before anything was sent: this one is safe to retry.</source>
        <translation>连接在发送任何内容之前就被拒绝：这种情况可以安全重试。</translation>
    </message>
    <message>
        <source>The circuit breaker is open: the attempt fails at once without reaching the server.</source>
        <translation>熔断器处于断开状态：这次尝试立即失败，请求不会到达服务端。</translation>
    </message>
    <message>
        <source>The request was lost on the way: the server never saw it.</source>
        <translation>请求在途中丢失：服务端从未收到它。</translation>
    </message>
    <message>
        <source>A latency spike holds the request: it will reach the server after the client has given up.</source>
        <translation>延迟尖峰拖住了请求：它会在客户端放弃之后才到达服务端。</translation>
    </message>
    <message>
        <source>The server received the request, without an idempotency key.</source>
        <translation>服务端收到了请求，请求不带幂等键。</translation>
    </message>
    <message>
        <source>The server received the request with key %1.</source>
        <translation>服务端收到了带幂等键 %1 的请求。</translation>
    </message>
    <message>
        <source>All processing slots are busy: the request waits in the queue.</source>
        <translation>所有处理槽都在忙：请求在队列中等待。</translation>
    </message>
    <message>
        <source>Rejected with 400: the server requires an Idempotency-Key header.</source>
        <translation>以 400 拒绝：服务端要求带 Idempotency-Key 请求头。</translation>
    </message>
    <message>
        <source>Rejected with 409: a request with the same key is still being processed.</source>
        <translation>以 409 拒绝：带相同幂等键的请求仍在处理中。</translation>
    </message>
    <message>
        <source>Rejected with 422: the same key came back with a different payload.</source>
        <translation>以 422 拒绝：相同的幂等键带着不同的请求体再次到来。</translation>
    </message>
    <message>
        <source>Throttled with 429: the server asks the client to slow down and wait (Retry-After).</source>
        <translation>以 429 限流：服务端要求客户端放慢速度并等待（Retry-After）。</translation>
    </message>
    <message>
        <source>Rejected with 503: every slot and the whole queue are full.</source>
        <translation>以 503 拒绝：所有处理槽和整个队列都已满。</translation>
    </message>
    <message>
        <source>The server rejected the request with status %1 before processing it.</source>
        <translation>服务端在处理之前以状态 %1 拒绝了请求。</translation>
    </message>
    <message>
        <source>The server starts processing the order.</source>
        <translation>服务端开始处理订单。</translation>
    </message>
    <message>
        <source>The server reserved key %1 as in flight: a concurrent copy will get 409.</source>
        <translation>服务端将幂等键 %1 标记为进行中：并发的副本将收到 409。</translation>
    </message>
    <message>
        <source>Key %1 expired: the server has forgotten it, so a late retry looks brand new.</source>
        <translation>幂等键 %1 已过期：服务端已经忘记它，所以迟到的重试看起来是全新的请求。</translation>
    </message>
    <message>
        <source>The server committed record #%1 for %2.</source>
        <translation>服务端为 %2 提交了记录 #%1。</translation>
    </message>
    <message>
        <source>Same key seen before: the server replays the stored response (Idempotent-Replayed: true) instead of creating a new order.</source>
        <translation>之前见过相同的幂等键：服务端重放已存储的响应（Idempotent-Replayed: true），而不是创建新订单。</translation>
    </message>
    <message>
        <source>The server failed with %1 after committing: the order exists although the client sees an error.</source>
        <translation>服务端在提交之后以 %1 失败：虽然客户端看到的是错误，订单却已经存在。</translation>
    </message>
    <message>
        <source>The server failed with %1 before committing: nothing was written.</source>
        <translation>服务端在提交之前以 %1 失败：什么都没有写入。</translation>
    </message>
    <message>
        <source>The server failed with %1.</source>
        <translation>服务端以 %1 失败。</translation>
    </message>
    <message>
        <source>The server sends its answer: %1.</source>
        <translation>服务端发回应答：%1。</translation>
    </message>
    <message>
        <source>The server committed, but the response was lost: the client will only see a timeout.</source>
        <translation>服务端已提交，但响应丢失了：客户端只会看到超时。</translation>
    </message>
    <message>
        <source>The connection was reset after the commit: the client sees an error, yet the order exists.</source>
        <translation>提交之后连接被重置：客户端看到错误，而订单却已经存在。</translation>
    </message>
    <message>
        <source>The client received %1: the order is confirmed.</source>
        <translation>客户端收到 %1：订单已确认。</translation>
    </message>
    <message>
        <source>The client received status %1.</source>
        <translation>客户端收到状态 %1。</translation>
    </message>
    <message>
        <source>A response arrived after the client&apos;s timeout: nobody is listening any more, so it is ignored.</source>
        <translation>响应在客户端超时之后才到达：已经没有人在等它，所以被忽略。</translation>
    </message>
    <message>
        <source>No answer within the timeout: the client cannot know whether the order was created.</source>
        <translation>超时之内没有应答：客户端无法知道订单是否已经创建。</translation>
    </message>
    <message>
        <source>The %1 layer retries after %2.</source>
        <translation>%1层在 %2 之后重试。</translation>
    </message>
    <message>
        <source>The %1 layer retries after %2 (last outcome: %3).</source>
        <translation>%1层在 %2 之后重试（上次结果：%3）。</translation>
    </message>
    <message>
        <source>The %1 layer gives up.</source>
        <translation>%1层放弃。</translation>
    </message>
    <message>
        <source>The %1 layer gives up: %2.</source>
        <translation>%1层放弃：%2。</translation>
    </message>
    <message>
        <source>The retry budget is empty: the %1 layer may not retry, which keeps a retry storm from growing.</source>
        <translation>重试预算已用完：%1层不得重试，这样可以防止重试风暴扩大。</translation>
    </message>
    <message>
        <source>The circuit breaker opens: every call fails at once for %1; answers to calls sent earlier neither close it nor keep it open longer.</source>
        <translation>断路器打开：在接下来的 %1 内每个调用都立即失败；此前已发出的调用的应答既不会关闭它，也不会延长它的打开时间。</translation>
    </message>
    <message>
        <source>The open time is over: the circuit breaker is half-open and lets %1 trial call(s) through; their outcome closes it or opens it again.</source>
        <translation>打开时间已过：断路器进入半开状态，放行 %1 个试探调用；它们的结果决定断路器关闭还是再次打开。</translation>
    </message>
    <message>
        <source>The trial calls succeeded: the circuit breaker closes and calls flow again.</source>
        <translation>试探调用成功：断路器关闭，调用恢复通行。</translation>
    </message>
    <message>
        <source>The circuit breaker changes state.</source>
        <translation>断路器的状态发生变化。</translation>
    </message>
    <message>
        <source>%1 succeeded as far as the client can tell.</source>
        <translation>就客户端所知，%1 已成功。</translation>
    </message>
    <message>
        <source>The client reports %1 as failed; if a record exists anyway, it is an orphan.</source>
        <translation>客户端报告 %1 失败；如果仍然存在记录，那就是孤儿订单。</translation>
    </message>
    <message>
        <source>Reconciliation flagged record #%1 as an extra copy of %2.</source>
        <translation>对账将记录 #%1 标记为 %2 的多余副本。</translation>
    </message>
    <message>
        <source>Reconciliation voided record #%1, an extra copy of %2.</source>
        <translation>对账作废了记录 #%1，它是 %2 的多余副本。</translation>
    </message>
    <message>
        <source>its in-memory idempotency keys are gone</source>
        <translation>它保存在内存中的幂等键都丢失了</translation>
    </message>
    <message>
        <source>its durable idempotency keys survive</source>
        <translation>它持久化保存的幂等键依然保留</translation>
    </message>
    <message>
        <source>The server committed record #%1, then restarted before answering: the client will only see a timeout, and %2.</source>
        <translation>服务端提交了记录 #%1，随后在应答之前重启：客户端只会看到超时，而且%2。</translation>
    </message>
    <message>
        <source>The server restarted and dropped this request unanswered; %1.</source>
        <translation>服务端重启，这个请求未获应答就被丢弃；%1。</translation>
    </message>
    <message>
        <source>The client reads the row&apos;s current version before writing.</source>
        <translation>客户端在写入之前读取该行的当前版本。</translation>
    </message>
    <message>
        <source>Another client wrote the row since this one read it: 409, and nothing is written.</source>
        <translation>在本客户端读取之后，另一个客户端写入了该行：409，什么都没有写入。</translation>
    </message>
    <message>
        <source>cannot write trace file &quot;%1&quot;: %2</source>
        <translation>无法写入跟踪记录文件“%1”：%2</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>status %1</source>
        <translation>状态 %1</translation>
    </message>
    <message>
        <source>status %1, replayed</source>
        <translation>状态 %1（重放）</translation>
    </message>
    <message>
        <source>too many %1 error responses (MaxRetryError)</source>
        <translation>%1 错误响应过多（MaxRetryError）</translation>
    </message>
    <message>
        <source>connect error</source>
        <translation>连接错误</translation>
    </message>
    <message>
        <source>read timeout</source>
        <translation>读取超时</translation>
    </message>
    <message>
        <source>connection reset</source>
        <translation>连接被重置</translation>
    </message>
    <message>
        <source>circuit open</source>
        <translation>熔断器断开</translation>
    </message>
    <message>
        <source>connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>read</source>
        <translation>读取</translation>
    </message>
    <message>
        <source>status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>its %1 ms deadline is reached</source>
        <translation>已到达 %1 毫秒的截止时间</translation>
    </message>
    <message>
        <source>all %1 attempts are used</source>
        <translation>%1 次尝试已全部用完</translation>
    </message>
    <message>
        <source>%1 is not retried</source>
        <translation>%1 不会重试</translation>
    </message>
    <message>
        <source>the order token is already used, so every answer is final</source>
        <translation>订单令牌已被使用，所以每个应答都是最终结果</translation>
    </message>
    <message>
        <source>transport retries are off</source>
        <translation>传输层重试已关闭</translation>
    </message>
    <message>
        <source>%1 is not in allowed_methods</source>
        <translation>%1 不在 allowed_methods 中</translation>
    </message>
    <message>
        <source>a read error on %1, which is not in allowed_methods</source>
        <translation>%1 发生读取错误，而它不在 allowed_methods 中</translation>
    </message>
    <message>
        <source>status %1 is not retryable</source>
        <translation>状态 %1 不可重试</translation>
    </message>
    <message>
        <source>the %1 retries (%2) are used up</source>
        <translation>%1重试次数（%2）已用完</translation>
    </message>
    <message>
        <source>the circuit is open</source>
        <translation>熔断器处于断开状态</translation>
    </message>
    <message>
        <source>The client minted idempotency key %1, one for the whole operation.</source>
        <translation>客户端生成了幂等键 %1，整个操作共用这一个。</translation>
    </message>
    <message>
        <source>The client minted idempotency key %1, a new one for each business attempt.</source>
        <translation>客户端生成了幂等键 %1，每次业务尝试都换一个新的。</translation>
    </message>
    <message>
        <source>The client minted idempotency key %1, a new one for each @retry attempt.</source>
        <translation>客户端生成了幂等键 %1，每次 @retry 尝试都换一个新的。</translation>
    </message>
    <message>
        <source>The transport sends POST /orders (HTTP attempt %1) without an idempotency key.</source>
        <translation>传输层发送 POST /orders（第 %1 次 HTTP 尝试），不带幂等键。</translation>
    </message>
    <message>
        <source>The transport sends POST /orders (HTTP attempt %1) with key %2.</source>
        <translation>传输层发送 POST /orders（第 %1 次 HTTP 尝试），带幂等键 %2。</translation>
    </message>
    <message>
        <source>The client reads version %2 of row %1 before writing.</source>
        <translation>客户端在写入之前读取第 %1 行的版本 %2。</translation>
    </message>
    <message>
        <source>Another client wrote row %1 since this one read it (it read version %2, the row is now at %3): 409, and nothing is written.</source>
        <translation>在本客户端读取之后，另一个客户端写入了第 %1 行（读取时为版本 %2，现在为版本 %3）：409，什么都没有写入。</translation>
    </message>
    <message>
        <source>Same key seen before: the server answers with the order it created before, without an Idempotent-Replayed header, instead of creating a new one.</source>
        <translation>之前见过同一个键：服务端用之前创建的订单作答（没有 Idempotent-Replayed 头），而不是再创建一个新订单。</translation>
    </message>
</context>
</TS>
