<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>cli</name>
    <message>
        <source>unknown field %1 (see &apos;retrylab fields&apos; for every path)</source>
        <translation>未知字段 %1（所有路径见 &apos;retrylab fields&apos;）</translation>
    </message>
    <message>
        <source>unknown field %1; did you mean %2?</source>
        <translation>未知字段 %1；您是否想输入 %2？</translation>
    </message>
    <message>
        <source>%1: %2 (see &apos;retrylab %1 --help&apos;)</source>
        <translation>%1：%2（见 &apos;retrylab %1 --help&apos;）</translation>
    </message>
    <message>
        <source>%1: unexpected argument &apos;%2&apos; (see &apos;retrylab %1 --help&apos;)</source>
        <translation>%1：多余的参数“%2”（见 &apos;retrylab %1 --help&apos;）</translation>
    </message>
    <message>
        <source>Usage: retrylab %1 %2</source>
        <translation>用法：retrylab %1 %2</translation>
    </message>
    <message>
        <source>Preset name (see &apos;retrylab list&apos;) or scenario JSON file.</source>
        <translation>预设名称（见 &apos;retrylab list&apos;）或场景 JSON 文件。</translation>
    </message>
    <message>
        <source>Random seed (overrides the scenario&apos;s).</source>
        <translation>随机种子（覆盖场景中的设置）。</translation>
    </message>
    <message>
        <source>Change one scenario field, e.g. network.responseLoss=0.3 (repeatable; &apos;retrylab fields&apos; lists every path with its type, range and default).</source>
        <translation>修改一个场景字段，例如 network.responseLoss=0.3（可重复使用；&apos;retrylab fields&apos; 列出每个路径及其类型、范围和默认值）。</translation>
    </message>
    <message>
        <source>Output format: %1 (default table).</source>
        <translation>输出格式：%1（默认 table）。</translation>
    </message>
    <message>
        <source>%1: --format: expected %2, got &apos;%3&apos;</source>
        <translation>%1：--format：应为 %2，实际为“%3”</translation>
    </message>
    <message>
        <source>table, json or csv</source>
        <translation>table、json 或 csv</translation>
    </message>
    <message>
        <source>table or json</source>
        <translation>table 或 json</translation>
    </message>
    <message>
        <source>%1: --set &apos;%2&apos;: expected path=value, e.g. network.responseLoss=0.3</source>
        <translation>%1：--set“%2”：应为 path=value，例如 network.responseLoss=0.3</translation>
    </message>
    <message>
        <source>%1: --seed: expected a non-negative integer, got &apos;%2&apos;</source>
        <translation>%1：--seed：应为非负整数，实际为“%2”</translation>
    </message>
    <message>
        <source>%1: missing --scenario NAME|FILE (presets: %2)</source>
        <translation>%1：缺少 --scenario NAME|FILE（预设：%2）</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is a directory, not a scenario file</source>
        <translation>“%1”是目录，不是场景文件</translation>
    </message>
    <message>
        <source>no such scenario file &quot;%1&quot;</source>
        <translation>没有场景文件“%1”</translation>
    </message>
    <message>
        <source>%1 (seed %2)

</source>
        <translation>%1（随机种子 %2）

</translation>
    </message>
    <message>
        <source>metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>%1: --max-attempts: expected a positive whole number such as 500000000 or 5e8, got &apos;%2&apos;</source>
        <translation>%1：--max-attempts：应为正整数，例如 500000000 或 5e8，实际为“%2”</translation>
    </message>
    <message>
        <source>
Load per %1 bucket (%2): every column with --format json or csv

</source>
        <translation>
每 %1 时间桶的负载（%2）：所有列请用 --format json 或 csv 查看

</translation>
    </message>
    <message>
        <source>1 bucket</source>
        <translation>1 个时间桶</translation>
    </message>
    <message>
        <source>%1 buckets</source>
        <translation>%1 个时间桶</translation>
    </message>
    <message>
        <source>Simulates one scenario and prints its metrics. With --live the same client layers send real HTTP requests to an order service, and the metrics come from what it stored.</source>
        <translation>模拟一个场景并输出其指标。使用 --live 时，同样的客户端各层向订单服务发送真实的 HTTP 请求，指标来自服务端实际存储的内容。</translation>
    </message>
    <message>
        <source>Write every event as JSON lines to FILE as the run goes. &apos;-&apos; (or /dev/stdout) writes the events to standard output and the metrics to standard error. A regular file is replaced only once the whole trace is written; a FIFO or a device is written directly. A write error stops the run with exit code 1.</source>
        <translation>运行时把每个事件以 JSON Lines 写入 FILE。&apos;-&apos;（或 /dev/stdout）把事件写到标准输出、把指标写到标准错误。普通文件在整个跟踪记录写完后才被替换；FIFO 或设备则直接写入。写入出错时运行停止，退出码为 1。</translation>
    </message>
    <message>
        <source>Refuse the run (exit code 2) if it could make more than N HTTP attempts at worst: every submission exhausting every enabled retry layer, plus status queries and token round trips. N is digits or a number like 5e8. Default %1, or %2 with --trace, or %3 with --live (real requests, in real time).</source>
        <translation>如果最坏情况下可能发出超过 N 次 HTTP 尝试，则拒绝运行（退出码 2）：每次提交都用尽所有已启用的重试层，再加上状态查询和令牌往返。N 为数字或形如 5e8 的数。默认 %1，使用 --trace 时为 %2，使用 --live 时为 %3（真实请求，真实时间）。</translation>
    </message>
    <message>
        <source>Run over real HTTP on this machine&apos;s clock: an order service is started on a free loopback port with the scenario&apos;s service and fault settings (or --url is used), and every attempt carries Idempotency-Key, X-Request-ID and X-RetryLab-Attempt, so the service applies the scenario&apos;s faults to the same attempts as the simulation.</source>
        <translation>按本机时钟通过真实 HTTP 运行：在一个空闲的回环端口上启动订单服务，使用场景中的服务端和故障设置（或使用 --url 指定的服务），每次尝试都带上 Idempotency-Key、X-Request-ID 和 X-RetryLab-Attempt，使服务把场景中的故障施加到与模拟相同的尝试上。</translation>
    </message>
    <message>
        <source>With --live: send the orders to this order service (another RetryLab&apos;s, or any with the same endpoints) instead of an embedded one. Its own fault settings apply; counts include records it already held for the same references (ORD-0001, ...).</source>
        <translation>配合 --live：把订单发送到这个订单服务（另一个 RetryLab 的，或任何具有相同接口的服务），而不是内嵌的服务。此时适用它自己的故障设置；计数包括它此前已为相同编号（ORD-0001, ...）保存的记录。</translation>
    </message>
    <message>
        <source>With --live: real milliseconds per simulated millisecond (default 1). 0.1 runs ten times faster: waits, timeouts, order spacing and the embedded service&apos;s processing, restart and spike times and key TTLs are scaled; Retry-After is read in simulated seconds. From 0.001 to 1000.</source>
        <translation>配合 --live：每个模拟毫秒对应的真实毫秒数（默认 1）。0.1 表示快十倍：等待、超时、订单间隔，以及内嵌服务的处理、重启和尖峰时间与幂等键有效期都按比例缩放；Retry-After 按模拟秒读取。取值 0.001 到 1000。</translation>
    </message>
    <message>
        <source>Also count the run per bucket of virtual time SIZE (1s, 0.02s, 250ms; from 1 ms to 3600 s, at most 1,000,000 buckets): POST attempts, first tries, retries, responses served, commits, successes, failures, timeouts, 409 conflicts, 503s, retry budget refusals and requests in flight at the server. With --format json it is the member &quot;series&quot; of the output; with --format csv it replaces the metrics row (one row per bucket); with table it follows the metrics. The buckets add up to the metrics.</source>
        <translation>同时按大小为 SIZE 的虚拟时间桶统计这次运行（1s、0.02s、250ms；从 1 ms 到 3600 s，最多 1,000,000 个时间桶）：POST 尝试、首次尝试、重试、已发回的响应、提交、成功、失败、超时、409 冲突、503、重试预算拒绝，以及服务端进行中的请求。使用 --format json 时它是输出中的成员 &quot;series&quot;；使用 --format csv 时它取代指标行（每个时间桶一行）；使用 table 时它跟在指标之后。各时间桶之和等于指标。</translation>
    </message>
    <message>
        <source>With --series: write the series to FILE instead of standard output, as CSV if FILE ends in .csv, else as JSON; the metrics are printed as without --series.</source>
        <translation>配合 --series：把时间序列写入 FILE 而不是标准输出，FILE 以 .csv 结尾时为 CSV，否则为 JSON；指标照常输出，与不带 --series 时相同。</translation>
    </message>
    <message>
        <source>run: --%1 needs --live</source>
        <translation>run：--%1 需要配合 --live</translation>
    </message>
    <message>
        <source>run: --url: expected an http:// or https:// address such as http://127.0.0.1:8080, got &apos;%1&apos;</source>
        <translation>run：--url：应为 http:// 或 https:// 地址，例如 http://127.0.0.1:8080，实际为“%1”</translation>
    </message>
    <message>
        <source>run: --time-scale: expected a number from 0.001 to 1000, got &apos;%1&apos;</source>
        <translation>run：--time-scale：应为 0.001 到 1000 之间的数，实际为“%1”</translation>
    </message>
    <message>
        <source>run: --trace: expected a file name</source>
        <translation>run：--trace：应为文件名</translation>
    </message>
    <message>
        <source>run: --series-out needs --series</source>
        <translation>run：--series-out 需要配合 --series</translation>
    </message>
    <message>
        <source>run: --series-out: expected a file name</source>
        <translation>run：--series-out：应为文件名</translation>
    </message>
    <message>
        <source>run: --trace: %1</source>
        <translation>run：--trace：%1</translation>
    </message>
    <message>
        <source>run: --trace: cannot write trace file &quot;%1&quot;: %2</source>
        <translation>run：--trace：无法写入跟踪记录文件“%1”：%2</translation>
    </message>
    <message>
        <source>run: --series-out: cannot write &quot;%1&quot;: %2</source>
        <translation>run：--series-out：无法写入“%1”：%2</translation>
    </message>
    <message>
        <source>run: --series: %1 cuts this run (its last event at %2 s) into %3 buckets, more than the %4 a series may hold; use --series %5 or more</source>
        <translation>run：--series：%1 会把这次运行（最后一个事件在 %2 s）切成 %3 个时间桶，超过了时间序列最多可容纳的 %4 个；请使用 --series %5 或更大的值</translation>
    </message>
    <message>
        <source>from %1 to %2, %3</source>
        <translation>从 %1 到 %2，%3</translation>
    </message>
    <message>
        <source>1 value</source>
        <translation>1 个取值</translation>
    </message>
    <message>
        <source>%1 values</source>
        <translation>%1 个取值</translation>
    </message>
    <message>
        <source>%1 (seeds %2..%3)</source>
        <translation>%1（随机种子 %2..%3）</translation>
    </message>
    <message>
        <source>1 seed</source>
        <translation>1 个随机种子</translation>
    </message>
    <message>
        <source>%1 seeds</source>
        <translation>%1 个随机种子</translation>
    </message>
    <message>
        <source>%1
sweep %2: %3
</source>
        <translation>%1
参数扫描 %2：%3
</translation>
    </message>
    <message>
        <source>%1 per value; mean [min..max]

</source>
        <translation>每个取值 %1；均值 [最小..最大]

</translation>
    </message>
    <message>
        <source>   by %1: %2
%3 per cell; mean ±sd (sample standard deviation)
</source>
        <translation>   按 %1：%2
每个单元格 %3；均值 ±sd（样本标准差）
</translation>
    </message>
    <message>
        <source>sweep: --%1: expected a number, got &apos;%2&apos;</source>
        <translation>sweep：--%1：应为数字，实际为“%2”</translation>
    </message>
    <message>
        <source>sweep: --%1: expected an integer from %2 to %3, got &apos;%4&apos;</source>
        <translation>sweep：--%1：应为 %2 到 %3 之间的整数，实际为“%4”</translation>
    </message>
    <message>
        <source>sweep: --param%1: give its values either with --%2 or with --%3/--%4/--%5, not both</source>
        <translation>sweep：--param%1：请用 --%2 或者 --%3/--%4/--%5 给出取值，不能同时使用</translation>
    </message>
    <message>
        <source>sweep: --param%1: missing its values: --%2 a,b,c or --%3 A --%4 B --%5 K</source>
        <translation>sweep：--param%1：缺少取值：--%2 a,b,c 或 --%3 A --%4 B --%5 K</translation>
    </message>
    <message>
        <source>sweep: missing --%1 %2</source>
        <translation>sweep：缺少 --%1 %2</translation>
    </message>
    <message>
        <source>Scenario field to vary, e.g. network.responseLoss or client.business.backoff.jitter (&apos;retrylab fields&apos; lists them).</source>
        <translation>要改变的场景字段，例如 network.responseLoss 或 client.business.backoff.jitter（&apos;retrylab fields&apos; 会列出它们）。</translation>
    </message>
    <message>
        <source>Values of --param, comma-separated, any type: numbers, true/false, names such as none,full,equal,decorrelated (each read as JSON if it is JSON, else as text, as --set does). Instead of --from/--to/--steps.</source>
        <translation>--param 的取值，以逗号分隔，可以是任意类型：数字、true/false、名称如 none,full,equal,decorrelated（与 --set 相同，能按 JSON 解析的按 JSON 读取，否则按文本读取）。用来代替 --from/--to/--steps。</translation>
    </message>
    <message>
        <source>Number of values from A to B inclusive (1-1000).</source>
        <translation>从 A 到 B（含两端）的取值个数（1-1000）。</translation>
    </message>
    <message>
        <source>A second field to vary: every (value, value2) pair is a cell, e.g. client.business.backoff.jitter.</source>
        <translation>要改变的第二个字段：每对 (value, value2) 是一个单元格，例如 client.business.backoff.jitter。</translation>
    </message>
    <message>
        <source>Number of values of --param2 from A to B (1-1000).</source>
        <translation>--param2 从 A 到 B 的取值个数（1-1000）。</translation>
    </message>
    <message>
        <source>Names for the values of --values in the table and chart, comma-separated, one per value.</source>
        <translation>表格和图表中 --values 各取值的名称，以逗号分隔，每个取值一个。</translation>
    </message>
    <message>
        <source>Names for the values of --values2, one per value.</source>
        <translation>--values2 各取值的名称，每个取值一个。</translation>
    </message>
    <message>
        <source>Also draw the sweep to FILE (.png or .svg): one chart per metric of the table, x = --param, one line per value of --param2. Works without a display.</source>
        <translation>同时把参数扫描画到 FILE（.png 或 .svg）：表格中每个指标一张图，x 轴为 --param，--param2 的每个取值一条线。无需显示器即可使用。</translation>
    </message>
    <message>
        <source>The --chart figure&apos;s title.</source>
        <translation>--chart 图的标题。</translation>
    </message>
    <message>
        <source>Runs per value (per cell), seeds N, N+1, ... (1-10000, default 10). At most 1,000,000 runs per sweep.</source>
        <translation>每个取值（每个单元格）的运行次数，随机种子为 N, N+1, ...（1-10000，默认 10）。每次参数扫描最多运行 1,000,000 次。</translation>
    </message>
    <message>
        <source>Metrics of the table and CSV, comma-separated (default: duplicates, records, amplification, httpAttempts, clientFailed, orphans; with --param2: httpAttempts, completionS). JSON always has every metric.</source>
        <translation>表格和 CSV 中的指标，以逗号分隔（默认：duplicates, records, amplification, httpAttempts, clientFailed, orphans；使用 --param2 时：httpAttempts, completionS）。JSON 总是包含全部指标。</translation>
    </message>
    <message>
        <source>sweep: missing --param PATH</source>
        <translation>sweep：缺少 --param PATH</translation>
    </message>
    <message>
        <source>sweep: --param2: expected a scenario field path, e.g. client.business.backoff.jitter</source>
        <translation>sweep：--param2：应为场景字段路径，例如 client.business.backoff.jitter</translation>
    </message>
    <message>
        <source>sweep: --%1 needs --param2 PATH</source>
        <translation>sweep：--%1 需要配合 --param2 PATH</translation>
    </message>
    <message>
        <source>sweep: --%1: %2 for %3 values</source>
        <translation>sweep：--%1：%3 个取值却有 %2</translation>
    </message>
    <message>
        <source>1 name</source>
        <translation>1 个名称</translation>
    </message>
    <message>
        <source>%1 names</source>
        <translation>%1 个名称</translation>
    </message>
    <message>
        <source>sweep: --title needs --chart FILE</source>
        <translation>sweep：--title 需要配合 --chart FILE</translation>
    </message>
    <message>
        <source>sweep: --chart: expected a file name ending in .png or .svg, got &apos;%1&apos;</source>
        <translation>sweep：--chart：应为以 .png 或 .svg 结尾的文件名，实际为“%1”</translation>
    </message>
    <message>
        <source>sweep: --chart: cannot draw here (no graphics)</source>
        <translation>sweep：--chart：此处无法绘图（没有图形环境）</translation>
    </message>
    <message>
        <source>Lists the built-in scenario presets and what each one teaches.</source>
        <translation>列出内置的场景预设，以及每个预设讲授的内容。</translation>
    </message>
    <message>
        <source>Also print each preset&apos;s whole lesson text.</source>
        <translation>同时输出每个预设的完整讲解文字。</translation>
    </message>
    <message>
        <source>PRESET</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>WHAT IT TEACHES</source>
        <translation>讲授内容</translation>
    </message>
    <message>
        <source>(invalid preset: %1)</source>
        <translation>（无效的预设：%1）</translation>
    </message>
    <message>
        <source>Run one with &apos;retrylab run --scenario PRESET&apos;; change it with --set (see &apos;retrylab fields&apos;).</source>
        <translation>用 &apos;retrylab run --scenario PRESET&apos; 运行一个预设；用 --set 修改它（见 &apos;retrylab fields&apos;）。</translation>
    </message>
    <message>
        <source>Run one with &apos;retrylab run --scenario PRESET&apos;, read every lesson with &apos;retrylab list --long&apos;; change it with --set (see &apos;retrylab fields&apos;).</source>
        <translation>用 &apos;retrylab run --scenario PRESET&apos; 运行一个预设，用 &apos;retrylab list --long&apos; 阅读每个预设的讲解；用 --set 修改它（见 &apos;retrylab fields&apos;）。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Lists every scenario field that --set path=value and sweep --param accept, with its type, allowed values and default.</source>
        <translation>列出 --set path=value 和 sweep --param 接受的每个场景字段，及其类型、允许的取值和默认值。</translation>
    </message>
    <message>
        <source>Every field of a scenario, for --set path=value (run, sweep) and --param PATH (sweep). Durations end in Ms (milliseconds) or S (seconds); rates are fractions from 0 to 1. In network.script[N], workload.phases[N] and windows[N], N is an entry&apos;s index; the next free index appends an entry.</source>
        <translation>场景的每个字段，用于 --set path=value（run、sweep）和 --param PATH（sweep）。时长字段以 Ms（毫秒）或 S（秒）结尾；比率是 0 到 1 之间的小数。在 network.script[N]、workload.phases[N] 和 windows[N] 中，N 是条目的序号；使用下一个空闲序号即追加一个条目。</translation>
    </message>
    <message>
        <source>FIELD</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>TYPE</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>ALLOWED (DEFAULT)</source>
        <translation>允许的取值（默认值）</translation>
    </message>
    <message>
        <source>%1 (default %2)</source>
        <translation>%1（默认 %2）</translation>
    </message>
    <message>
        <source>Serves the order service over real HTTP/1.1: POST /orders, GET /orders/{id}, GET /orders?ref=, POST /order-tokens, GET /metrics, GET /healthz, GET /problems/{type}, GET|PUT /admin/faults, POST /admin/reset. Stop it with Ctrl+C.</source>
        <translation>通过真实的 HTTP/1.1 提供订单服务：POST /orders、GET /orders/{id}、GET /orders?ref=、POST /order-tokens、GET /metrics、GET /healthz、GET /problems/{type}、GET|PUT /admin/faults、POST /admin/reset。按 Ctrl+C 停止。</translation>
    </message>
    <message>
        <source>TCP port (default 8080; 0 picks a free port and prints it).</source>
        <translation>TCP 端口（默认 8080；0 表示选择一个空闲端口并输出它）。</translation>
    </message>
    <message>
        <source>Address to listen on (default 127.0.0.1). Any other address protects the admin endpoints with a bearer token printed at start-up.</source>
        <translation>监听地址（默认 127.0.0.1）。使用其他地址时，管理接口由启动时输出的 Bearer 令牌保护。</translation>
    </message>
    <message>
        <source>SQLite file for orders and keys (default: in memory). Records and keys survive kill -9 and a restart.</source>
        <translation>保存订单和幂等键的 SQLite 文件（默认：在内存中）。记录和幂等键在 kill -9 和重启之后依然保留。</translation>
    </message>
    <message>
        <source>Where idempotency keys live: durable (in the database, the default) or memory (forgotten when the server restarts).</source>
        <translation>幂等键的存储位置：durable（在数据库中，默认）或 memory（服务端重启时丢失）。</translation>
    </message>
    <message>
        <source>serve: --listen: expected an IP address such as 127.0.0.1, 0.0.0.0 or ::1, got &apos;%1&apos;</source>
        <translation>serve：--listen：应为 IP 地址，例如 127.0.0.1、0.0.0.0 或 ::1，实际为“%1”</translation>
    </message>
    <message>
        <source>serve: --key-store: expected memory or durable, got &apos;%1&apos;</source>
        <translation>serve：--key-store：应为 memory 或 durable，实际为“%1”</translation>
    </message>
    <message>
        <source>serve: --db: expected a file name, got &apos;%1&apos;</source>
        <translation>serve：--db：应为文件名，实际为“%1”</translation>
    </message>
    <message>
        <source>RetryLab order service listening on %1
</source>
        <translation>RetryLab 订单服务正在监听 %1
</translation>
    </message>
    <message>
        <source>  also reachable at http://%1:%2
</source>
        <translation>  也可通过 http://%1:%2 访问
</translation>
    </message>
    <message>
        <source>  idempotency: %1, key store: %2, database: %3
</source>
        <translation>  幂等性：%1，幂等键存储：%2，数据库：%3
</translation>
    </message>
    <message>
        <source>in memory</source>
        <translation>在内存中</translation>
    </message>
    <message>
        <source>  server and fault settings from scenario %1 (seed %2)
</source>
        <translation>  服务端和故障设置来自场景 %1（随机种子 %2）
</translation>
    </message>
    <message>
        <source>  admin token (Authorization: Bearer ...): %1
</source>
        <translation>  管理令牌（Authorization: Bearer ...）：%1
</translation>
    </message>
    <message>
        <source>serve: cannot install the signal handler</source>
        <translation>serve：无法安装信号处理程序</translation>
    </message>
    <message>
        <source>Stopped.
</source>
        <translation>已停止。
</translation>
    </message>
    <message>
        <source>LESSON</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>STEPS</source>
        <translation>步骤数</translation>
    </message>
    <message>
        <source>TITLE</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>(invalid lesson: %1)</source>
        <translation>（无效的课程：%1）</translation>
    </message>
    <message>
        <source>Open one in the desktop lab with &apos;retrylab --lesson NAME [--step N]&apos;.</source>
        <translation>用 &apos;retrylab --lesson NAME [--step N]&apos; 在桌面实验室中打开一个课程。</translation>
    </message>
    <message>
        <source>lessons: --handout needs --lesson NAME (see &apos;retrylab lessons&apos;)</source>
        <translation>lessons：--handout 需要 --lesson NAME（见 &apos;retrylab lessons&apos;）</translation>
    </message>
    <message>
        <source>lessons: %1</source>
        <translation>lessons：%1</translation>
    </message>
    <message>
        <source>Lists the guided lessons: name, title and number of steps; or writes one lesson&apos;s handout as a PDF.</source>
        <translation>列出引导式课程：名称、标题和步骤数；或把一个课程的讲义写成 PDF。</translation>
    </message>
    <message>
        <source>Write the handout of --lesson to this PDF file.</source>
        <translation>把 --lesson 的讲义写入这个 PDF 文件。</translation>
    </message>
    <message>
        <source>The lesson of --handout: a name or a lesson file.</source>
        <translation>--handout 的课程：名称或课程文件。</translation>
    </message>
    <message>
        <source>With --handout: the students&apos; copy, without answers.</source>
        <translation>与 --handout 一起使用：学生版，不含答案。</translation>
    </message>
    <message>
        <source>lessons: --lesson and --student go with --handout FILE.pdf</source>
        <translation>lessons：--lesson 和 --student 须与 --handout FILE.pdf 一起使用</translation>
    </message>
    <message>
        <source>Bearer token for /admin/* (16 to 200 letters, digits or - . _ ~ + /), required on every address when given; default: the environment variable RETRYLAB_ADMIN_TOKEN, else none on loopback and a fresh one printed at start-up elsewhere.</source>
        <translation>/admin/* 的 Bearer 令牌（16 到 200 个字母、数字或 - . _ ~ + /），给出后在任何地址上都必须携带；默认取环境变量 RETRYLAB_ADMIN_TOKEN，否则回环地址上不需要，其他地址在启动时生成并打印一个新令牌。</translation>
    </message>
    <message>
        <source>serve: %1: %2</source>
        <translation>serve：%1：%2</translation>
    </message>
    <message numerus="yes">
        <source>%n scheduled restart(s)</source>
        <translation>
            <numerusform>%n 次计划重启</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n script entry(s) (network.script)</source>
        <translation>
            <numerusform>%n 条脚本条目（network.script）</numerusform>
        </translation>
    </message>
    <message>
        <source>  try: %1
</source>
        <translation>  试试：%1
</translation>
    </message>
    <message>
        <source>  tokens: first get one, then send it as the key:
</source>
        <translation>  令牌模式：先获取一个令牌，再把它作为键发送：
</translation>
    </message>
    <message>
        <source>  idempotency is off: the server ignores Idempotency-Key (every POST that commits is a new order)
</source>
        <translation>  幂等已关闭：服务器忽略 Idempotency-Key（每个提交的 POST 都是一笔新订单）
</translation>
    </message>
    <message>
        <source>RetryLab order service listening on http://%1:%2 (every address of this machine; here: %3)
</source>
        <translation>RetryLab 订单服务正在监听 http://%1:%2（本机的所有地址；本机访问：%3）
</translation>
    </message>
    <message>
        <source>  loaded from the file: %1 records, %2 keys, %3 order tokens
</source>
        <translation>  从文件载入：%1 条记录，%2 个键，%3 个订单令牌
</translation>
    </message>
    <message>
        <source>  faults: none
</source>
        <translation>  故障：无
</translation>
    </message>
    <message>
        <source>  faults: %1 (an answer may never come)
</source>
        <translation>  故障：%1（应答可能永远不会到达）
</translation>
    </message>
    <message>
        <source>  admin: needs the token given by --admin-token or RETRYLAB_ADMIN_TOKEN
</source>
        <translation>  管理接口：需要 --admin-token 或 RETRYLAB_ADMIN_TOKEN 给出的令牌
</translation>
    </message>
    <message>
        <source>Press Ctrl+C to stop.
</source>
        <translation>按 Ctrl+C 停止。
</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>unknown command &apos;%1&apos; (expected run, sweep, compare, list, lessons, fields, serve, proxy, check or help)</source>
        <translation>未知命令“%1”（应为 run、sweep、compare、list、lessons、fields、serve、proxy、check 或 help）</translation>
    </message>
    <message>
        <source>Request body; {n} becomes a fresh number for each logical request (default {&quot;ref&quot;:&quot;CHK-{n}&quot;,&quot;item&quot;:&quot;book&quot;,&quot;qty&quot;:1}).</source>
        <translation>请求体；{n} 为每个逻辑请求换成一个新数字（默认 {&quot;ref&quot;:&quot;CHK-{n}&quot;,&quot;item&quot;:&quot;book&quot;,&quot;qty&quot;:1}）。</translation>
    </message>
    <message>
        <source>Name of the idempotency key header (default Idempotency-Key).</source>
        <translation>幂等键请求头的名称（默认 Idempotency-Key）。</translation>
    </message>
    <message>
        <source>An extra request header &apos;Name: value&apos; (repeatable), e.g. authorization.</source>
        <translation>额外的请求头 &apos;Name: value&apos;（可重复），例如认证信息。</translation>
    </message>
    <message>
        <source>Run every probe N times (1 to 100, default 1); the worst round counts.</source>
        <translation>每个探测运行 N 次（1 到 100，默认 1）；以最差的一轮为准。</translation>
    </message>
    <message>
        <source>Requests with one key sent at once by the in-flight probe (2 to 64, default 2).</source>
        <translation>“处理中”探测同时发送的同键请求数（2 到 64，默认 2）。</translation>
    </message>
    <message>
        <source>Milliseconds to wait for an answer (100 to 600000, default 5000); the ghost probe waits this long for the answer the proxy drops.</source>
        <translation>等待响应的毫秒数（100 到 600000，默认 5000）；幽灵探测会为代理丢弃的响应等待这么久。</translation>
    </message>
    <message>
        <source>A GET that returns the collection ({n} allowed): resources are counted before and after each probe.</source>
        <translation>返回资源集合的 GET 地址（可含 {n}）：每个探测前后各数一次资源。</translation>
    </message>
    <message>
        <source>Where the --list answer holds the count or the array (a dotted path; default: a top-level array, or the answer&apos;s only array).</source>
        <translation>--list 响应中数量或数组所在的位置（点分路径；默认：顶层数组，或响应中唯一的数组）。</translation>
    </message>
    <message>
        <source>Where a JSON answer names the created resource (a dotted path, default id); else its Location header.</source>
        <translation>JSON 响应中标识所创建资源的位置（点分路径，默认 id）；否则用其 Location 头。</translation>
    </message>
    <message>
        <source>check: %1: expected an http:// URL such as http://127.0.0.1:8080/orders, got &apos;%2&apos;</source>
        <translation>check：%1：应为 http:// 地址，例如 http://127.0.0.1:8080/orders，实际为“%2”</translation>
    </message>
    <message>
        <source>check: -H: expected &apos;Name: value&apos; in visible ASCII, got &apos;%1&apos;</source>
        <translation>check：-H：应为可见 ASCII 字符的 &apos;Name: value&apos;，实际为“%1”</translation>
    </message>
    <message>
        <source>check: --key-header: expected a header name such as Idempotency-Key, got &apos;%1&apos;</source>
        <translation>check：--key-header：应为请求头名称，例如 Idempotency-Key，实际为“%1”</translation>
    </message>
    <message>
        <source>check: --body: expected 1 byte to 64 KiB, got %1 bytes</source>
        <translation>check：--body：应为 1 字节到 64 KiB，实际为 %1 字节</translation>
    </message>
    <message>
        <source>%1 lost</source>
        <translation>%1 已丢失</translation>
    </message>
    <message>
        <source>%1 from the proxy</source>
        <translation>%1 来自代理</translation>
    </message>
    <message>
        <source>created ?</source>
        <translation>创建 ?</translation>
    </message>
    <message>
        <source>created %1</source>
        <translation>创建 %1</translation>
    </message>
    <message>
        <source>[%1; %2]</source>
        <translation>[%1；%2]</translation>
    </message>
    <message numerus="yes">
        <source>Idempotency check of %1 (%n round(s)</source>
        <translation>
            <numerusform>%1 的幂等性检查（%n 轮</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n at once in flight)

</source>
        <translation>
            <numerusform>，同时处理中 %n 个）

</numerusform>
        </translation>
    </message>
    <message>
        <source>probe</source>
        <translation>探测</translation>
    </message>
    <message>
        <source>verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>what it shows [statuses; resources created]</source>
        <translation>说明 [状态码；创建的资源数]</translation>
    </message>
    <message>
        <source>
%1 pass, %2 fail, %3 warn, %4 cannot tell, %5 not applicable.
</source>
        <translation>
%1 项通过，%2 项失败，%3 项警告，%4 项无法判断，%5 项不适用。
</translation>
    </message>
    <message>
        <source>Resources are told apart by the answer&apos;s &quot;%1&quot;, else its Location; give --list to count them where the answers name none.</source>
        <translation>资源按响应中的“%1”区分，否则按其 Location；响应未标识资源时，请用 --list 来计数。</translation>
    </message>
    <message>
        <source>Resources are counted by --list before and after each probe.</source>
        <translation>每个探测前后用 --list 统计资源数。</translation>
    </message>
    <message>
        <source>--list gave no count (%1): ids and Location only.</source>
        <translation>--list 未给出数量（%1）：仅使用 id 和 Location。</translation>
    </message>
    <message>
        <source>Checks how an endpoint that takes POST handles idempotency keys: replays, another body (422), a request in flight (409), a lost answer (the ghost, through a fault proxy it starts on loopback), a missing key (400), no key twice, and a 5xx before commit. Exit status 0 when no probe fails, 1 when one does, 2 for bad usage or an unreachable endpoint.</source>
        <translation>检查一个接受 POST 的接口如何处理幂等键：重放、不同请求体（422）、处理中的请求（409）、丢失的响应（幽灵，经由它在回环地址上启动的故障代理）、缺少键（400）、不带键发送两次，以及提交前的 5xx。没有探测失败时退出码为 0，有探测失败时为 1，用法错误或接口无法访问时为 2。</translation>
    </message>
    <message>
        <source>check: expected the endpoint&apos;s URL first: retrylab check http://127.0.0.1:8080/orders [options]</source>
        <translation>check：第一个参数应为接口地址：retrylab check http://127.0.0.1:8080/orders [选项]</translation>
    </message>
    <message>
        <source>check: cannot start the fault proxy: %1</source>
        <translation>check：无法启动故障代理：%1</translation>
    </message>
    <message>
        <source>RetryLab: a lab for retries and idempotency. A timeout is not a failure.

Usage:
  retrylab                        open the desktop lab
  retrylab run --scenario NAME|FILE [--seed N] [--set path=value ...]
               [--format table|json|csv] [--trace FILE.jsonl|-] [--max-attempts N]
  retrylab sweep --scenario NAME|FILE --param PATH
               (--values a,b,c | --from A --to B --steps K) [--seeds S]
               [--param2 PATH (--values2 a,b | --from2 A --to2 B --steps2 K)]
               [--metrics m1,m2] [--seed N] [--set path=value ...]
               [--format table|json|csv] [--max-attempts N]
  retrylab compare --scenario NAME|FILE [--set path=value ...] [--seed N]
               [--format table|json|csv]
                                  A and B = A with the changes (or one toggle), side by side
  retrylab list [--long] [--format table|json]
                                  the presets and what each one teaches
  retrylab lessons [--format table|json]
                                  the guided lessons; open one with --lesson NAME [--step N]
  retrylab lessons --handout FILE.pdf --lesson NAME [--student]
                                  a lesson&apos;s handout (--student: without the answers)
  retrylab fields [--format table|json]
                                  every --set / --param path: type, range, default
  retrylab serve [--port P] [--listen ADDR] [--db FILE] [--key-store memory|durable]
               [--scenario NAME|FILE] [--set path=value ...]
                                  the order service over real HTTP, for your own client
  retrylab proxy --upstream URL [--port P] [--scenario NAME|FILE] [--set network.*=value ...]
               [--order-field FIELD] [--report] [--requests N] [--format table|json]
                                  the lab&apos;s faults in front of your own service; its duplicates counted
  retrylab check URL [--body TEMPLATE] [-H &apos;Name: value&apos; ...] [--list URL]
               [--rounds N] [--concurrency N] [--format table|json]
                                  an idempotency report card of your own endpoint
  retrylab help [COMMAND]

Run &apos;retrylab COMMAND --help&apos; for the options of one command.
Exit codes: 0 ok, 1 runtime error, 2 usage error.
</source>
        <translation>RetryLab：关于重试与幂等性的实验室。超时不等于失败。

用法：
  retrylab                        打开桌面实验室
  retrylab run --scenario NAME|FILE [--seed N] [--set path=value ...]
               [--format table|json|csv] [--trace FILE.jsonl|-] [--max-attempts N]
  retrylab sweep --scenario NAME|FILE --param PATH
               (--values a,b,c | --from A --to B --steps K) [--seeds S]
               [--param2 PATH (--values2 a,b | --from2 A --to2 B --steps2 K)]
               [--metrics m1,m2] [--seed N] [--set path=value ...]
               [--format table|json|csv] [--max-attempts N]
  retrylab compare --scenario NAME|FILE [--set path=value ...] [--seed N]
               [--format table|json|csv]
                                  并排对比 A 和 B（B = A 加上这些改动，或切换一项设置）
  retrylab list [--long] [--format table|json]
                                  列出预设及每个预设讲授的内容
  retrylab lessons [--format table|json]
                                  列出引导式课程；用 --lesson NAME [--step N] 打开一个课程
  retrylab lessons --handout FILE.pdf --lesson NAME [--student]
                                  课程讲义（--student：不含答案）
  retrylab fields [--format table|json]
                                  列出每个 --set / --param 路径：类型、范围、默认值
  retrylab serve [--port P] [--listen ADDR] [--db FILE] [--key-store memory|durable]
               [--scenario NAME|FILE] [--set path=value ...]
                                  通过真实 HTTP 提供订单服务，供您自己的客户端使用
  retrylab proxy --upstream URL [--port P] [--scenario NAME|FILE] [--set network.*=value ...]
               [--order-field FIELD] [--report] [--requests N] [--format table|json]
                                  在您自己的服务前注入实验室的故障，并统计它产生的重复
  retrylab check URL [--body TEMPLATE] [-H &apos;Name: value&apos; ...] [--list URL]
               [--rounds N] [--concurrency N] [--format table|json]
                                  为您自己的接口生成幂等性成绩单
  retrylab help [COMMAND]

运行 &apos;retrylab COMMAND --help&apos; 查看某个命令的选项。
退出码：0 成功，1 运行时错误，2 用法错误。
</translation>
    </message>
    <message>
        <source>The service behind the proxy: http://host:port (required).</source>
        <translation>代理后面的服务：http://host:port（必填）。</translation>
    </message>
    <message>
        <source>TCP port (default 8081; 0 picks a free port and prints it).</source>
        <translation>TCP 端口（默认 8081；0 表示选择一个空闲端口并输出它）。</translation>
    </message>
    <message>
        <source>Address to listen on (default 127.0.0.1).</source>
        <translation>监听地址（默认 127.0.0.1）。</translation>
    </message>
    <message>
        <source>The idempotency key&apos;s header (default Idempotency-Key).</source>
        <translation>幂等键所在的请求头（默认 Idempotency-Key）。</translation>
    </message>
    <message>
        <source>A field of the JSON body naming the logical request (such as ref): its attempts are counted together.</source>
        <translation>JSON 请求体中标识逻辑请求的字段（例如 ref）：同一值的各次尝试合并统计。</translation>
    </message>
    <message>
        <source>Methods the faults strike (default POST).</source>
        <translation>故障作用的请求方法（默认 POST）。</translation>
    </message>
    <message>
        <source>Milliseconds to wait for the upstream&apos;s whole answer before answering 504 (default 30000).</source>
        <translation>等待上游完整响应的毫秒数，超时则回答 504（默认 30000）。</translation>
    </message>
    <message>
        <source>At exit, print every logical request: attempts, answers, resources created, duplicates, orphans.</source>
        <translation>退出时列出每个逻辑请求：尝试次数、客户端收到的响应、创建的资源、重复和孤儿。</translation>
    </message>
    <message>
        <source>Stop after N finished requests (default: at Ctrl+C or SIGTERM).</source>
        <translation>完成 N 个请求后停止（默认：收到 Ctrl+C 或 SIGTERM 时停止）。</translation>
    </message>
    <message>
        <source>proxy: missing --upstream URL (the service to put the faults in front of)</source>
        <translation>proxy：缺少 --upstream URL（要在其前面注入故障的服务）</translation>
    </message>
    <message>
        <source>proxy: --listen: expected an IP address such as 127.0.0.1, got &apos;%1&apos;</source>
        <translation>proxy：--listen：应为 IP 地址，例如 127.0.0.1，实际为“%1”</translation>
    </message>
    <message>
        <source>RetryLab fault proxy listening on %1, in front of %2
</source>
        <translation>RetryLab 故障代理正在监听 %1，位于 %2 之前
</translation>
    </message>
    <message>
        <source>  faults: none (seed %1)
</source>
        <translation>  故障：无（随机种子 %1）
</translation>
    </message>
    <message>
        <source>  faults on %1: %2 (seed %3)
</source>
        <translation>  作用于 %1 的故障：%2（随机种子 %3）
</translation>
    </message>
    <message>
        <source>  logical requests grouped by %1
</source>
        <translation>  逻辑请求按%1分组
</translation>
    </message>
    <message>
        <source>the %1 header</source>
        <translation> %1 请求头</translation>
    </message>
    <message>
        <source>the body field &quot;%1&quot;, else the %2 header</source>
        <translation>请求体字段“%1”（没有时按 %2 请求头）</translation>
    </message>
    <message>
        <source>  its counts: %1%2
</source>
        <translation>  统计数据：%1%2
</translation>
    </message>
    <message>
        <source>op</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>request</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>attempts</source>
        <translation>尝试</translation>
    </message>
    <message>
        <source>client saw</source>
        <translation>客户端收到</translation>
    </message>
    <message>
        <source>created</source>
        <translation>创建</translation>
    </message>
    <message>
        <source>duplicates</source>
        <translation>重复</translation>
    </message>
    <message>
        <source>orphan</source>
        <translation>孤儿</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>
%1 logical requests, %2 attempts, %3 resources created, %4 duplicates, %5 orphans (%6 exchanges, %7 reads; - : no answer)
</source>
        <translation>
%1 个逻辑请求，%2 次尝试，创建 %3 个资源，%4 个重复，%5 个孤儿（%6 次交换，%7 次读取；- 表示无响应）
</translation>
    </message>
    <message>
        <source>A reverse proxy in front of your own HTTP service that applies the lab&apos;s wire faults (network.* and server.* of the scenario) to real requests and counts, without touching the service, the duplicates and orphans it creates. GET /metrics on the proxy gives its counts.</source>
        <translation>位于您自己的 HTTP 服务之前的反向代理：把实验室的线路故障（场景中的 network.* 和 server.*）施加到真实请求上，并在不触碰该服务的情况下统计它产生的重复和孤儿。代理上的 GET /metrics 给出这些统计。</translation>
    </message>
    <message>
        <source>proxy: cannot install the signal handler</source>
        <translation>proxy：无法安装信号处理程序</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a regular file (a FIFO, a device or a socket), not a scenario file</source>
        <translation>“%1”不是普通文件（而是 FIFO、设备或套接字），不是场景文件</translation>
    </message>
    <message>
        <source>Refuse the sweep (exit code 2) if one of its runs could make more than N HTTP attempts at worst (each cell at its own worst case; default %1) or if the whole sweep is expected to make more than N requests (from a short pilot run; default %2). N is digits or a number like 5e8.</source>
        <translation>如果其中某次运行在最坏情况下可能发出超过 N 次 HTTP 尝试（每个单元格按其自身的最坏情况计算；默认 %1），或整个参数扫描预计发出超过 N 个请求（由一次简短的试运行估算；默认 %2），则拒绝参数扫描（退出码 2）。N 为数字或形如 5e8 的数。</translation>
    </message>
    <message>
        <source>Run only the K-th of N slices of the sweep (whole points: point i goes to slice i mod N + 1) and print it as JSON for --merge.</source>
        <translation>只运行参数扫描 N 份中的第 K 份（按整点划分：第 i 个点属于第 i mod N + 1 份），并以 JSON 输出，供 --merge 使用。</translation>
    </message>
    <message>
        <source>sweep: --shard prints JSON for --merge; leave out --format or give --format json</source>
        <translation>sweep：--shard 输出供 --merge 使用的 JSON；请省略 --format 或使用 --format json</translation>
    </message>
    <message>
        <source>sweep: --shard: draw the chart from the merged output, not from one slice</source>
        <translation>sweep：--shard：请用合并后的输出绘图，而不是用其中一份</translation>
    </message>
    <message>
        <source>Varies one scenario field (or two: every pair of values is a cell) and runs several seeds per value; prints mean, min, max and sample standard deviation of every metric. With --param2 the table has one row per value of --param and one column per value of --param2. Before it starts, a short pilot run estimates the whole sweep&apos;s requests; on a terminal a progress line shows the time left; Ctrl+C prints the points finished so far (exit code 130). --shard K/N runs one of N slices; --merge joins them.</source>
        <translation>改变一个场景字段（或两个：每对取值是一个单元格），每个取值用多个随机种子运行；输出每个指标的均值、最小值、最大值和样本标准差。使用 --param2 时，表格中 --param 的每个取值占一行，--param2 的每个取值占一列。开始前，一次简短的试运行会估算整个扫描的请求数；在终端上，进度行显示剩余时间；Ctrl+C 输出已完成的点（退出码 130）。--shard K/N 运行 N 份中的一份；--merge 将它们合并。</translation>
    </message>
    <message>
        <source>sweep: interrupted: the output is partial, the %1 of %2 points whose every seed had finished</source>
        <translation>sweep：已中断：输出不完整，只含 %2 个点中所有种子都已完成的 %1 个</translation>
    </message>
    <message>
        <source>
(partial: interrupted after %1 of %2 points)
</source>
        <translation>
（不完整：在 %2 个点中完成 %1 个后中断）
</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a regular file</source>
        <translation>“%1”不是普通文件</translation>
    </message>
    <message>
        <source>no such file &quot;%1&quot;</source>
        <translation>没有文件“%1”</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is larger than a shard&apos;s output can be (%2 bytes)</source>
        <translation>“%1”比一份分片输出可能的大小还大（%2 字节）</translation>
    </message>
    <message>
        <source>cannot read &quot;%1&quot;: %2</source>
        <translation>无法读取“%1”：%2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not JSON (at byte %2: %3)</source>
        <translation>“%1”不是 JSON（第 %2 字节：%3）</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not the output of &apos;retrylab sweep ... --shard K/N&apos;</source>
        <translation>“%1”不是 &apos;retrylab sweep ... --shard K/N&apos; 的输出</translation>
    </message>
    <message>
        <source>&quot;%1&quot; (shard %2/%3) is partial: it was interrupted; run it again</source>
        <translation>“%1”（分片 %2/%3）不完整：它曾被中断；请重新运行</translation>
    </message>
    <message>
        <source>&quot;%1&quot; (shard %2/%3) holds %4 points, expected %5 of the sweep&apos;s %6</source>
        <translation>“%1”（分片 %2/%3）含 %4 个点，应为扫描全部 %6 个点中的 %5 个</translation>
    </message>
    <message>
        <source>&quot;%1&quot; and &quot;%2&quot; are slices of different sweeps (sweep %3 in %4 slices, sweep %5 in %6 slices)</source>
        <translation>“%1”和“%2”是不同参数扫描的分片（扫描 %3 分为 %4 份，扫描 %5 分为 %6 份）</translation>
    </message>
    <message>
        <source>shard %1/%2 is given twice: &quot;%3&quot; and &quot;%4&quot;</source>
        <translation>分片 %1/%2 给出了两次：“%3”和“%4”</translation>
    </message>
    <message>
        <source> and %1 more</source>
        <translation> 以及另外 %1 个</translation>
    </message>
    <message>
        <source>missing shard(s) %1 of sweep %2</source>
        <translation>缺少参数扫描 %2 的分片 %1</translation>
    </message>
    <message>
        <source>Join the JSON files of every &apos;sweep ... --shard K/N&apos; (FILES, in any order) into the output of the whole sweep.</source>
        <translation>把每个 &apos;sweep ... --shard K/N&apos; 的 JSON 文件（FILES，顺序不限）合并为整个参数扫描的输出。</translation>
    </message>
    <message>
        <source>Joins the JSON of every slice of a sharded sweep.</source>
        <translation>合并分片参数扫描每一份的 JSON。</translation>
    </message>
    <message>
        <source>Metrics of the table and CSV, comma-separated.</source>
        <translation>表格和 CSV 中的指标，以逗号分隔。</translation>
    </message>
    <message>
        <source>The shards&apos; JSON files.</source>
        <translation>各分片的 JSON 文件。</translation>
    </message>
    <message>
        <source>sweep: %1 (see &apos;retrylab sweep --help&apos;)</source>
        <translation>sweep：%1（见 &apos;retrylab sweep --help&apos;）</translation>
    </message>
    <message>
        <source>name the shards&apos; JSON files, e.g. --merge shard-*.json</source>
        <translation>请给出各分片的 JSON 文件，例如 --merge shard-*.json</translation>
    </message>
    <message>
        <source>sweep: --metrics: unknown metric &apos;%1&apos; (the metrics are the columns of &apos;retrylab run --format csv&apos;, e.g. duplicates, httpAttempts, amplification)</source>
        <translation>sweep：--metrics：未知指标“%1”（指标即 &apos;retrylab run --format csv&apos; 的各列，例如 duplicates、httpAttempts、amplification）</translation>
    </message>
    <message>
        <source>Also write the report with every probe&apos;s exchanges to FILE (JSON), for the window: retrylab --check-report FILE, or File &gt; Open check report….</source>
        <translation>同时把含每个探测全部请求与响应的报告写入 FILE（JSON），供窗口打开：retrylab --check-report FILE，或 文件 &gt; 打开检查报告…。</translation>
    </message>
    <message>
        <source>check: --save: cannot write &apos;%1&apos;: %2</source>
        <translation>check：--save：无法写入“%1”：%2</translation>
    </message>
    <message>
        <source>%1: --%2: expected an integer from %3 to %4, got &apos;%5&apos;</source>
        <translation>%1：--%2：应为 %3 到 %4 的整数，实际为“%5”</translation>
    </message>
</context>
<context>
    <name>gui</name>
    <message>
        <source>the scenario did not finish running</source>
        <translation>场景没有运行完毕</translation>
    </message>
    <message>
        <source>cannot write &quot;%1&quot;: %2</source>
        <translation>无法写入“%1”：%2</translation>
    </message>
    <message>
        <source>RetryLab desktop lab: retries, timeouts and idempotency.</source>
        <translation>RetryLab 桌面实验室：重试、超时与幂等性。</translation>
    </message>
    <message>
        <source>Preset name or scenario file to open.</source>
        <translation>要打开的预设名称或场景文件。</translation>
    </message>
    <message>
        <source>Seed of the run.</source>
        <translation>运行使用的随机种子。</translation>
    </message>
    <message>
        <source>Operation shown on the timeline.</source>
        <translation>时间线上显示的操作。</translation>
    </message>
    <message>
        <source>Page to open: timeline (default), charts, records or log.</source>
        <translation>要打开的页面：timeline（默认）、charts、records 或 log。</translation>
    </message>
    <message>
        <source>Render the window at 1280x720 into an image file and exit (works offscreen).</source>
        <translation>把 1280x720 的窗口渲染为图片文件后退出（无需显示器）。</translation>
    </message>
    <message>
        <source>unexpected argument &quot;%1&quot; (see --help)</source>
        <translation>多余的参数“%1”（见 --help）</translation>
    </message>
    <message>
        <source>--seed: expected a non-negative integer, got &quot;%1&quot;</source>
        <translation>--seed：应为非负整数，实际为“%1”</translation>
    </message>
    <message>
        <source>--operation: expected an operation number from 1, got &quot;%1&quot;</source>
        <translation>--operation：应为从 1 开始的操作编号，实际为“%1”</translation>
    </message>
    <message>
        <source>--page: expected timeline, charts, records or log, got &quot;%1&quot;</source>
        <translation>--page：应为 timeline、charts、records 或 log，实际为“%1”</translation>
    </message>
    <message>
        <source>--screenshot: cannot write images of type &quot;%1&quot;</source>
        <translation>--screenshot：无法写入“%1”类型的图片</translation>
    </message>
    <message>
        <source>--operation: the scenario has 1 operation (workload.orders), got %1</source>
        <translation>--operation：场景只有 1 个操作（workload.orders），实际为 %1</translation>
    </message>
    <message>
        <source>--operation: the scenario has %1 operations (workload.orders), got %2</source>
        <translation>--operation：场景有 %1 个操作（workload.orders），实际为 %2</translation>
    </message>
    <message>
        <source>Lesson to open (see &apos;retrylab lessons&apos;) or a lesson file.</source>
        <translation>要打开的课程（见 &apos;retrylab lessons&apos;）或课程文件。</translation>
    </message>
    <message>
        <source>Step of the lesson to open, from 1.</source>
        <translation>要打开的课程步骤，从 1 开始。</translation>
    </message>
    <message>
        <source>--step: expected a step number from 1 after --lesson, got &quot;%1&quot;</source>
        <translation>--step：应与 --lesson 一起使用，并给出从 1 开始的步骤编号，实际为“%1”</translation>
    </message>
    <message>
        <source>--lesson: %1</source>
        <translation>--lesson：%1</translation>
    </message>
    <message>
        <source>--step: the lesson has %1 steps, got %2</source>
        <translation>--step：课程有 %1 个步骤，实际为 %2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is a directory, not a file</source>
        <translation>“%1”是目录，不是文件</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a regular file (a FIFO, a device or a socket)</source>
        <translation>“%1”不是普通文件（而是 FIFO、设备或套接字）</translation>
    </message>
    <message>
        <source>A report of &apos;retrylab check URL --save FILE&apos; to show: each probe&apos;s requests on the timeline.</source>
        <translation>要显示的 &apos;retrylab check URL --save FILE&apos; 报告：每个探测的请求都在时间线上。</translation>
    </message>
</context>
</TS>
