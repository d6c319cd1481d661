<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Handout</name>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>until %1 ms</source>
        <translation>直到 %1 ms</translation>
    </message>
    <message>
        <source>1 attempt</source>
        <translation>1 次尝试</translation>
    </message>
    <message>
        <source>%1 attempts</source>
        <translation>%1 次尝试</translation>
    </message>
    <message>
        <source>%1, %2 backoff from %3 ms (cap %4 ms), jitter %5</source>
        <translation>%1，%2 退避，初始 %3 ms（上限 %4 ms），抖动 %5</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <source>%1 clients, %2 orders each, %3 ms between them</source>
        <translation>%1 个客户端，每个 %2 个订单，间隔 %3 ms</translation>
    </message>
    <message>
        <source>%1 orders, %2 ms apart per client, %3 clients (%4 arrivals)</source>
        <translation>%1 个订单，每个客户端间隔 %2 ms，%3 个客户端（%4 到达模式）</translation>
    </message>
    <message>
        <source>Idempotency key</source>
        <translation>幂等键</translation>
    </message>
    <message>
        <source>Business loop</source>
        <translation>业务重试循环</translation>
    </message>
    <message>
        <source>@retry wrapper</source>
        <translation>@retry 重试装饰器</translation>
    </message>
    <message>
        <source>urllib3 transport</source>
        <translation>urllib3 传输层</translation>
    </message>
    <message>
        <source>total %1, POST %2</source>
        <translation>重试总数 %1，POST %2</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>retried</source>
        <translation>会重试</translation>
    </message>
    <message>
        <source>not retried</source>
        <translation>不重试</translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Retry budget</source>
        <translation>重试预算</translation>
    </message>
    <message>
        <source>%1, ratio %2, at most %3 tokens</source>
        <translation>%1，比例 %2，最多 %3 个令牌</translation>
    </message>
    <message>
        <source>Circuit breaker</source>
        <translation>熔断器</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>latency %1 ± %2 ms, responses lost %3, requests lost %4</source>
        <translation>延迟 %1 ± %2 ms，响应丢失 %3，请求丢失 %4</translation>
    </message>
    <message>
        <source>latency %1-%2 ms, responses lost %3, requests lost %4</source>
        <translation>延迟 %1-%2 ms，响应丢失 %3，请求丢失 %4</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务端</translation>
    </message>
    <message>
        <source>optimistic concurrency on 1 row</source>
        <translation>1 行上的乐观并发控制</translation>
    </message>
    <message>
        <source>optimistic concurrency on %1 rows</source>
        <translation>%1 行上的乐观并发控制</translation>
    </message>
    <message>
        <source>orders, idempotency %1</source>
        <translation>订单，幂等模式 %1</translation>
    </message>
    <message>
        <source>Fault windows</source>
        <translation>故障时段</translation>
    </message>
    <message>
        <source>%1</source>
        <translation>%1</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>expected a file name ending in .pdf, got &quot;%1&quot;</source>
        <translation>文件名应以 .pdf 结尾，实际为“%1”</translation>
    </message>
    <message>
        <source>cannot make a temporary folder for the pictures</source>
        <translation>无法为图片创建临时文件夹</translation>
    </message>
    <message>
        <source>Duplicates over time</source>
        <translation>重复记录随时间变化</translation>
    </message>
    <message>
        <source>Attempts per operation</source>
        <translation>每个操作的尝试次数</translation>
    </message>
    <message>
        <source>Load over time</source>
        <translation>负载随时间变化</translation>
    </message>
    <message>
        <source>cannot draw the charts</source>
        <translation>无法绘制图表</translation>
    </message>
    <message>
        <source>the load over time is still being counted; try again in a moment</source>
        <translation>负载曲线仍在统计中，请稍后再试</translation>
    </message>
    <message>
        <source>cannot write &quot;%1&quot;: %2</source>
        <translation>无法写入“%1”：%2</translation>
    </message>
    <message>
        <source>cannot write &quot;%1&quot;</source>
        <translation>无法写入“%1”</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>运行结果</translation>
    </message>
    <message>
        <source>Operations</source>
        <translation>操作数</translation>
    </message>
    <message>
        <source>HTTP attempts</source>
        <translation>HTTP 尝试次数</translation>
    </message>
    <message>
        <source>%1 (%2 per operation)</source>
        <translation>%1（每个操作 %2 次）</translation>
    </message>
    <message>
        <source>Records</source>
        <translation>记录</translation>
    </message>
    <message>
        <source>Duplicates</source>
        <translation>重复记录</translation>
    </message>
    <message>
        <source>Orphans</source>
        <translation>孤儿订单</translation>
    </message>
    <message>
        <source>Lost</source>
        <translation>丢失</translation>
    </message>
    <message>
        <source>Succeeded / failed</source>
        <translation>成功 / 失败</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Latency p50 / p99</source>
        <translation>延迟 p50 / p99</translation>
    </message>
    <message>
        <source>%1 / %2 ms</source>
        <translation>%1 / %2 ms</translation>
    </message>
    <message>
        <source>Goodput</source>
        <translation>有效吞吐量</translation>
    </message>
    <message>
        <source>%1 orders/s</source>
        <translation>%1 单/秒</translation>
    </message>
    <message>
        <source>The story operation: ORD-%1</source>
        <translation>故事操作：ORD-%1</translation>
    </message>
    <message>
        <source>the lesson has %1 steps but %2 runs were given</source>
        <translation>课程有 %1 个步骤，但给出了 %2 次运行</translation>
    </message>
    <message>
        <source>step %1: %2</source>
        <translation>步骤 %1：%2</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Step %1 of %2: %3</source>
        <translation>第 %1 步（共 %2 步）：%3</translation>
    </message>
    <message>
        <source>Question:</source>
        <translation>问题：</translation>
    </message>
    <message>
        <source>Answer:</source>
        <translation>答案：</translation>
    </message>
    <message>
        <source>ORD-%1 is shown below. The whole run: %2 operations, %3 HTTP attempts, %4 records, %5 duplicates, %6 orphans (seed %7).</source>
        <translation>下面展示的是 ORD-%1。整次运行：%2 个操作，%3 次 HTTP 尝试，%4 条记录，%5 条重复记录，%6 个孤儿订单（随机种子 %7）。</translation>
    </message>
    <message>
        <source>Step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
    <message>
        <source>My prediction:</source>
        <translation>我的预测：</translation>
    </message>
    <message>
        <source>Why:</source>
        <translation>理由：</translation>
    </message>
    <message>
        <source>%1 (student&apos;s copy)</source>
        <translation>%1（学生版）</translation>
    </message>
</context>
<context>
    <name>SweepFigure</name>
    <message>
        <source>Clients</source>
        <translation>客户端数</translation>
    </message>
    <message>
        <source>Write calls</source>
        <translation>写入调用次数</translation>
    </message>
    <message>
        <source>HTTP attempts</source>
        <translation>HTTP 尝试次数</translation>
    </message>
    <message>
        <source>Completion time (s)</source>
        <translation>完成时间 (s)</translation>
    </message>
    <message>
        <source>Duration (s)</source>
        <translation>时长 (s)</translation>
    </message>
    <message>
        <source>Duplicate records</source>
        <translation>重复记录</translation>
    </message>
    <message>
        <source>Version conflicts</source>
        <translation>版本冲突</translation>
    </message>
    <message>
        <source>Goodput (orders/s)</source>
        <translation>有效吞吐量（订单/秒）</translation>
    </message>
    <message>
        <source>Attempts per operation</source>
        <translation>每个操作的尝试次数</translation>
    </message>
    <message>
        <source>expected a file name ending in .png or .svg, got &apos;%1&apos;</source>
        <translation>文件名应以 .png 或 .svg 结尾，实际为“%1”</translation>
    </message>
    <message>
        <source>nothing to draw</source>
        <translation>没有可绘制的内容</translation>
    </message>
    <message>
        <source>cannot write PNG data</source>
        <translation>无法写入 PNG 数据</translation>
    </message>
</context>
<context>
    <name>TimelineLayout</name>
    <message>
        <source>2nd submit</source>
        <translation>第 2 次提交</translation>
    </message>
    <message>
        <source>token</source>
        <translation>令牌</translation>
    </message>
    <message>
        <source>200 found → no resend</source>
        <translation>200 已存在 → 不重发</translation>
    </message>
    <message>
        <source>404 not found → resend</source>
        <translation>404 不存在 → 重发</translation>
    </message>
    <message>
        <source>%1: still unknown</source>
        <translation>%1：仍然未知</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>被拒绝</translation>
    </message>
    <message>
        <source>circuit open</source>
        <translation>熔断器断开</translation>
    </message>
    <message>
        <source>lost</source>
        <translation>丢失</translation>
    </message>
    <message>
        <source>delayed</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>排队</translation>
    </message>
    <message>
        <source>processing</source>
        <translation>处理中</translation>
    </message>
    <message>
        <source>#%1, then restart</source>
        <translation>#%1，随后重启</translation>
    </message>
    <message>
        <source>restart: dropped</source>
        <translation>重启：已丢弃</translation>
    </message>
    <message>
        <source>reserved</source>
        <translation>已预留</translation>
    </message>
    <message>
        <source>read v%1</source>
        <translation>读取 v%1</translation>
    </message>
    <message>
        <source>409 stale</source>
        <translation>409 版本过期</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>#%1 duplicate</source>
        <translation>#%1 重复</translation>
    </message>
    <message>
        <source>replay</source>
        <translation>重放</translation>
    </message>
    <message>
        <source>reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>late %1</source>
        <translation>迟到 %1</translation>
    </message>
    <message>
        <source>timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>wait %1</source>
        <translation>等待 %1</translation>
    </message>
    <message>
        <source>retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>gave up</source>
        <translation>已放弃</translation>
    </message>
    <message>
        <source>no budget</source>
        <translation>预算不足</translation>
    </message>
    <message>
        <source>success</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>flag #%1</source>
        <translation>标记 #%1</translation>
    </message>
    <message>
        <source>void #%1</source>
        <translation>作废 #%1</translation>
    </message>
    <message>
        <source>Attempt path: %1</source>
        <translation>尝试路径：%1</translation>
    </message>
    <message>
        <source>Request ID: %1</source>
        <translation>请求 ID：%1</translation>
    </message>
    <message>
        <source>Idempotency key: %1</source>
        <translation>幂等键：%1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Status: %1</source>
        <translation>状态：%1</translation>
    </message>
    <message>
        <source>Record: #%1</source>
        <translation>记录：#%1</translation>
    </message>
    <message>
        <source>Time %1, %2 lane</source>
        <translation>时间 %1，%2泳道</translation>
    </message>
</context>
<context>
    <name>retrylab::ChartsPanel</name>
    <message>
        <source>HTTP attempts</source>
        <translation>HTTP 尝试次数</translation>
    </message>
    <message>
        <source>completion time (s)</source>
        <translation>完成时间 (s)</translation>
    </message>
    <message>
        <source>duplicate records</source>
        <translation>重复记录</translation>
    </message>
    <message>
        <source>HTTP attempts per operation</source>
        <translation>每个操作的 HTTP 尝试次数</translation>
    </message>
    <message>
        <source>failed operations</source>
        <translation>失败的操作</translation>
    </message>
    <message>
        <source>run duration (s)</source>
        <translation>运行时长 (s)</translation>
    </message>
    <message>
        <source>Response loss</source>
        <translation>响应丢失率</translation>
    </message>
    <message>
        <source>Request loss</source>
        <translation>请求丢失率</translation>
    </message>
    <message>
        <source>Latency spike rate</source>
        <translation>延迟尖峰频率</translation>
    </message>
    <message>
        <source>Business max attempts</source>
        <translation>业务循环最大尝试次数</translation>
    </message>
    <message>
        <source>Wrapper max attempts</source>
        <translation>装饰器最大尝试次数</translation>
    </message>
    <message>
        <source>Transport total retries</source>
        <translation>传输层总重试次数</translation>
    </message>
    <message>
        <source>Client timeout (ms)</source>
        <translation>客户端超时 (ms)</translation>
    </message>
    <message>
        <source>Server capacity</source>
        <translation>服务端容量</translation>
    </message>
    <message>
        <source>5xx after commit</source>
        <translation>提交后返回 5xx</translation>
    </message>
    <message>
        <source>Double-submit rate</source>
        <translation>重复提交率</translation>
    </message>
    <message>
        <source>Clients</source>
        <translation>客户端数</translation>
    </message>
    <message>
        <source>Backoff jitter (business loop)</source>
        <translation>退避抖动（业务重试循环）</translation>
    </message>
    <message>
        <source>Idempotency key placement</source>
        <translation>幂等键生成位置</translation>
    </message>
    <message>
        <source>Server idempotency mode</source>
        <translation>服务端幂等模式</translation>
    </message>
    <message>
        <source>Server model</source>
        <translation>服务端模型</translation>
    </message>
    <message>
        <source>Backoff kind (business loop)</source>
        <translation>退避方式（业务重试循环）</translation>
    </message>
    <message>
        <source>Query before retry</source>
        <translation>重试前先查询</translation>
    </message>
    <message>
        <source>Retry budget on</source>
        <translation>启用重试预算</translation>
    </message>
    <message>
        <source>Circuit breaker on</source>
        <translation>启用熔断器</translation>
    </message>
    <message>
        <source>Duplicates over time</source>
        <translation>重复记录随时间变化</translation>
    </message>
    <message>
        <source>What if?</source>
        <translation>假设分析</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>参数扫描</translation>
    </message>
    <message>
        <source>Attempts per operation</source>
        <translation>每个操作的尝试次数</translation>
    </message>
    <message>
        <source>Load over time</source>
        <translation>负载随时间变化</translation>
    </message>
    <message>
        <source>duplicates created</source>
        <translation>产生的重复记录</translation>
    </message>
    <message>
        <source>duplicates outstanding (not voided)</source>
        <translation>未作废的重复记录</translation>
    </message>
    <message>
        <source>Duplicate records over time</source>
        <translation>重复记录随时间变化</translation>
    </message>
    <message>
        <source>duplicate records (same seed, same orders)</source>
        <translation>重复记录（相同随机种子、相同订单）</translation>
    </message>
    <message>
        <source>What if? One change at a time, same seed</source>
        <translation>假设分析：每次只改一项，随机种子不变</translation>
    </message>
    <message>
        <source>Scenario parameter to vary</source>
        <translation>要改变的场景参数</translation>
    </message>
    <message>
        <source>The values to run, separated by commas</source>
        <translation>要运行的取值，用逗号分隔</translation>
    </message>
    <message>
        <source>Runs per point, seeds base seed + i: the band shows their min and max</source>
        <translation>每个点的运行次数，随机种子为基础种子 + i：色带显示其最小值和最大值</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>A second parameter: the chart draws one line per value</source>
        <translation>第二个参数：图表为每个取值画一条线</translation>
    </message>
    <message>
        <source>What the lines show, mean over the seeds</source>
        <translation>曲线显示的内容（各随机种子的平均值）</translation>
    </message>
    <message>
        <source>min–max bands</source>
        <translation>最小–最大色带</translation>
    </message>
    <message>
        <source>Shade the range from the smallest to the largest result over the seeds</source>
        <translation>用阴影标出各随机种子结果从最小到最大的范围</translation>
    </message>
    <message>
        <source>Run sweep</source>
        <translation>运行扫描</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>from</source>
        <translation>从</translation>
    </message>
    <message>
        <source>to</source>
        <translation>到</translation>
    </message>
    <message>
        <source>values</source>
        <translation>取值</translation>
    </message>
    <message>
        <source>Compare by</source>
        <translation>对比维度</translation>
    </message>
    <message>
        <source>show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>seeds</source>
        <translation>随机种子数</translation>
    </message>
    <message>
        <source>duplicates min–max</source>
        <translation>重复记录最小–最大</translation>
    </message>
    <message>
        <source>attempts min–max</source>
        <translation>尝试次数最小–最大</translation>
    </message>
    <message>
        <source>duplicate records (mean)</source>
        <translation>重复记录（平均）</translation>
    </message>
    <message>
        <source>HTTP attempts per operation (mean)</source>
        <translation>每个操作的 HTTP 尝试次数（平均）</translation>
    </message>
    <message>
        <source>attempts per operation</source>
        <translation>每个操作的尝试次数</translation>
    </message>
    <message>
        <source>Sweep: choose a parameter and press Run</source>
        <translation>参数扫描：选择一个参数，然后点击运行</translation>
    </message>
    <message>
        <source>operations</source>
        <translation>操作数</translation>
    </message>
    <message>
        <source>HTTP attempts (POST) per operation</source>
        <translation>每个操作的 HTTP 尝试次数（POST）</translation>
    </message>
    <message>
        <source>These results are for earlier settings - Run sweep again</source>
        <translation>这些结果对应之前的设置——请重新运行扫描</translation>
    </message>
    <message>
        <source>%1 duplicate record: run with tracing to see when it happened</source>
        <translation>%1 条重复记录：开启跟踪记录运行，可查看发生时间</translation>
    </message>
    <message>
        <source>%1 duplicate records: run with tracing to see when it happened</source>
        <translation>%1 条重复记录：开启跟踪记录运行，可查看发生时间</translation>
    </message>
    <message>
        <source>%1 duplicate created, %2 voided, %3 outstanding</source>
        <translation>产生 %1 条重复记录，%2 条已作废，%3 条未处理</translation>
    </message>
    <message>
        <source>%1 duplicates created, %2 voided, %3 outstanding</source>
        <translation>产生 %1 条重复记录，%2 条已作废，%3 条未处理</translation>
    </message>
    <message>
        <source>%1 duplicate record among %2 committed</source>
        <translation>已提交的 %2 条记录中有 %1 条重复</translation>
    </message>
    <message>
        <source>%1 duplicate records among %2 committed</source>
        <translation>已提交的 %2 条记录中有 %1 条重复</translation>
    </message>
    <message>
        <source>%1 and %2 more</source>
        <translation>%1 等，另有 %2 个</translation>
    </message>
    <message>
        <source>%1 min–max</source>
        <translation>%1 最小–最大</translation>
    </message>
    <message>
        <source>No duplicate records: one record per business reference</source>
        <translation>没有重复记录：每个业务单号只有一条记录</translation>
    </message>
    <message>
        <source>HTTP attempts per operation: up to %1, worst case %2 per submission</source>
        <translation>每个操作的 HTTP 尝试次数：最多 %1，每次提交最坏 %2</translation>
    </message>
    <message>
        <source>HTTP attempts per operation: up to %1, worst case %2</source>
        <translation>每个操作的 HTTP 尝试次数：最多 %1，最坏 %2</translation>
    </message>
    <message>
        <source>1 HTTP attempt</source>
        <translation>1 次 HTTP 尝试</translation>
    </message>
    <message>
        <source>%1 HTTP attempts</source>
        <translation>%1 次 HTTP 尝试</translation>
    </message>
    <message>
        <source>No operation made %1.</source>
        <translation>没有操作发出了 %1。</translation>
    </message>
    <message>
        <source>Operation %1 made %2.</source>
        <translation>操作 %1 发出了 %2。</translation>
    </message>
    <message>
        <source>Click to open operation %1.</source>
        <translation>点击打开操作 %1。</translation>
    </message>
    <message>
        <source>%1 operations made %2: %3.</source>
        <translation>%1 个操作发出了 %2：%3。</translation>
    </message>
    <message>
        <source>Click to open the first of them, operation %1.</source>
        <translation>点击打开其中第一个：操作 %1。</translation>
    </message>
    <message>
        <source>What if? Computing the variants</source>
        <translation>假设分析：正在计算各个变体</translation>
    </message>
    <message>
        <source>%1, %2 records, %3 HTTP attempts per operation</source>
        <translation>%1，%2 条记录，每个操作 %3 次 HTTP 尝试</translation>
    </message>
    <message>
        <source>%1 duplicate</source>
        <translation>%1 条重复</translation>
    </message>
    <message>
        <source>%1 duplicates</source>
        <translation>%1 条重复</translation>
    </message>
    <message>
        <source>Changed from the current settings:</source>
        <translation>相对当前设置的改动：</translation>
    </message>
    <message>
        <source>The current settings, unchanged.</source>
        <translation>当前设置，未改动。</translation>
    </message>
    <message>
        <source>What if? One change at a time (now %1)</source>
        <translation>假设分析：每次只改一项（当前 %1）</translation>
    </message>
    <message>
        <source>A sweep is already running.</source>
        <translation>已有参数扫描在运行。</translation>
    </message>
    <message>
        <source>Run a scenario first: the sweep varies the current scenario.</source>
        <translation>请先运行一个场景：参数扫描是在当前场景上改变参数。</translation>
    </message>
    <message>
        <source>Running %1 simulation…</source>
        <translation>正在运行 %1 次模拟…</translation>
    </message>
    <message>
        <source>Running %1 simulations…</source>
        <translation>正在运行 %1 次模拟…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>%1 simulation done.</source>
        <translation>已完成 %1 次模拟。</translation>
    </message>
    <message>
        <source>%1 simulations done.</source>
        <translation>已完成 %1 次模拟。</translation>
    </message>
    <message>
        <source>Lines: mean over %1, one per value of %2.</source>
        <translation>曲线：%1的平均值，%2的每个取值各一条。</translation>
    </message>
    <message>
        <source>%1 seed</source>
        <translation>%1 个随机种子</translation>
    </message>
    <message>
        <source>%1 seeds</source>
        <translation>%1 个随机种子</translation>
    </message>
    <message>
        <source>Lines: mean over the seeds; shaded bands: min to max.</source>
        <translation>曲线：各随机种子的平均值；阴影带：最小值到最大值。</translation>
    </message>
    <message>
        <source>The sweep returned %1 of %2 points.</source>
        <translation>参数扫描返回了 %2 个点中的 %1 个。</translation>
    </message>
    <message>
        <source>Cancelled after %1 of %2 simulations.</source>
        <translation>已在完成 %2 次模拟中的 %1 次后取消。</translation>
    </message>
    <message>
        <source>Duplicates and attempts vs %1 (%2 per point)</source>
        <translation>重复记录和尝试次数随%1的变化（每点 %2）</translation>
    </message>
    <message>
        <source>%1 by %2</source>
        <translation>%1（按%2）</translation>
    </message>
    <message>
        <source>There is no chart tab %1.</source>
        <translation>没有图表页 %1。</translation>
    </message>
    <message>
        <source>RetryLab chart: %1</source>
        <translation>RetryLab 图表：%1</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>The chart could not be drawn.</source>
        <translation>无法绘制图表。</translation>
    </message>
    <message>
        <source>Cannot write %1 (unknown image type or no permission).</source>
        <translation>无法写入 %1（图片类型未知或没有权限）。</translation>
    </message>
    <message>
        <source>time since the server started (s)</source>
        <translation>服务端启动以来的时间 (s)</translation>
    </message>
    <message>
        <source>simulated time (s)</source>
        <translation>模拟时间 (s)</translation>
    </message>
    <message>
        <source>(about %1 HTTP requests)</source>
        <translation>（HTTP 请求约 %1）</translation>
    </message>
    <message>
        <source>late commits (after the client gave up)</source>
        <translation>迟到的提交（客户端已放弃之后）</translation>
    </message>
    <message>
        <source>records</source>
        <translation>记录</translation>
    </message>
    <message>
        <source>time since the proxy started (s)</source>
        <translation>代理启动以来的时间（秒）</translation>
    </message>
    <message>
        <source>time since the check began (s)</source>
        <translation>自检查开始的时间 (s)</translation>
    </message>
    <message>
        <source>Estimating the sweep&apos;s cost…</source>
        <translation>正在估算扫描的开销…</translation>
    </message>
    <message>
        <source>Cancelled before the first simulation.</source>
        <translation>已在第一次模拟之前取消。</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1/%2</translation>
    </message>
    <message>
        <source>%1 of %2 · %3 left</source>
        <translation>%1/%2 · 剩余%3</translation>
    </message>
    <message>
        <source>%1 left</source>
        <translation>剩余%1</translation>
    </message>
</context>
<context>
    <name>retrylab::CompareChart</name>
    <message>
        <source>Records and duplicates over time</source>
        <translation>记录和重复记录随时间变化</translation>
    </message>
    <message>
        <source>simulated time (s)</source>
        <translation>模拟时间 (s)</translation>
    </message>
    <message>
        <source>records</source>
        <translation>记录</translation>
    </message>
    <message>
        <source>%1: records</source>
        <translation>%1：记录</translation>
    </message>
    <message>
        <source>%1: duplicates</source>
        <translation>%1：重复记录</translation>
    </message>
    <message>
        <source>%1: records, the same as %2</source>
        <translation>%1：记录，与 %2 相同</translation>
    </message>
    <message>
        <source>%1: duplicates, the same as %2</source>
        <translation>%1：重复记录，与 %2 相同</translation>
    </message>
</context>
<context>
    <name>retrylab::CompareWindow</name>
    <message>
        <source>RetryLab · Compare</source>
        <translation>RetryLab · 对比</translation>
    </message>
    <message>
        <source>What B changes: one toggle of the scenario A. Both run with the same seed.</source>
        <translation>B 改动了什么：在场景 A 上切换一项设置。两者用相同的随机种子运行。</translation>
    </message>
    <message>
        <source>&amp;B changes:</source>
        <translation>B 的改动(&amp;B)：</translation>
    </message>
    <message>
        <source>The operation (order) both timelines show</source>
        <translation>两条时间线显示的操作（订单）</translation>
    </message>
    <message>
        <source>&amp;Operation:</source>
        <translation>操作(&amp;O)：</translation>
    </message>
    <message>
        <source>running %v of 2</source>
        <translation>正在运行：%v / 2</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Previous event of A or B (Left)</source>
        <translation>A 或 B 的上一个事件（左方向键）</translation>
    </message>
    <message>
        <source>Play both</source>
        <translation>同时播放</translation>
    </message>
    <message>
        <source>Play / pause both timelines (Space)</source>
        <translation>播放 / 暂停两条时间线（空格键）</translation>
    </message>
    <message>
        <source>Next event of A or B (Right)</source>
        <translation>A 或 B 的下一个事件（右方向键）</translation>
    </message>
    <message>
        <source>Scrub both timelines through the operation</source>
        <translation>拖动以在该操作中同步移动两条时间线</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>B − A</source>
        <translation>B − A</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>nothing to change: no retry layer, no key to toggle</source>
        <translation>没有可改动的：没有重试层，也没有可切换的幂等键</translation>
    </message>
    <message>
        <source>Compare: %1</source>
        <translation>对比：%1</translation>
    </message>
    <message>
        <source>RetryLab · Compare · %1</source>
        <translation>RetryLab · 对比 · %1</translation>
    </message>
    <message>
        <source>same seed: %1</source>
        <translation>相同随机种子：%1</translation>
    </message>
    <message>
        <source>Cancelled: the tables show the previous comparison.</source>
        <translation>已取消：表格显示的是上一次对比的结果。</translation>
    </message>
    <message>
        <source>Not run: A and B could make up to %1 HTTP attempts together, more than the %2 the window keeps in memory. Compare them with the command line (retrylab compare).</source>
        <translation>未运行：A 和 B 合计可能发出多达 %1 次 HTTP 尝试，超过了窗口能在内存中保存的 %2 次。请用命令行对比它们（retrylab compare）。</translation>
    </message>
    <message>
        <source>Running A and B…</source>
        <translation>正在运行 A 和 B…</translation>
    </message>
    <message>
        <source>A · the scenario as it is</source>
        <translation>A · 原样的场景</translation>
    </message>
    <message>
        <source>%1 · %2 duplicates, %3 POST attempts</source>
        <translation>%1 · %2 条重复记录，%3 次 POST 尝试</translation>
    </message>
    <message>
        <source>B · the same settings</source>
        <translation>B · 相同的设置</translation>
    </message>
    <message>
        <source>Nothing to toggle in this scenario.</source>
        <translation>这个场景中没有可切换的设置。</translation>
    </message>
    <message>
        <source>B · %1</source>
        <translation>B · %1</translation>
    </message>
    <message>
        <source>B is better here</source>
        <translation>这一项 B 更好</translation>
    </message>
    <message>
        <source>B is worse here</source>
        <translation>这一项 B 更差</translation>
    </message>
    <message>
        <source>Pause both</source>
        <translation>同时暂停</translation>
    </message>
</context>
<context>
    <name>retrylab::EntryTableEditor</name>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
</context>
<context>
    <name>retrylab::Exporter</name>
    <message>
        <source>cannot write &quot;%1&quot;</source>
        <translation>无法写入“%1”</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>%1 files (*.%2)</source>
        <translation>%1 文件 (*.%2)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
</context>
<context>
    <name>retrylab::HelpDialog</name>
    <message>
        <source>RetryLab Help</source>
        <translation>RetryLab 帮助</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Glossary</source>
        <translation>术语表</translation>
    </message>
    <message>
        <source>How to teach with RetryLab</source>
        <translation>如何用 RetryLab 教学</translation>
    </message>
    <message>
        <source>Playback</source>
        <translation>回放</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>页面</translation>
    </message>
    <message>
        <source>On the timeline (click it first)</source>
        <translation>在时间线上（先点击时间线）</translation>
    </message>
    <message>
        <source>Files and live runs</source>
        <translation>文件与实时运行</translation>
    </message>
    <message>
        <source>Help</source>
        <translation>帮助</translation>
    </message>
    <message>
        <source>Presenting</source>
        <translation>演示</translation>
    </message>
    <message>
        <source>Play the operation from the beginning, or pause it</source>
        <translation>从头播放该操作，或暂停</translation>
    </message>
    <message>
        <source>Step back to the previous event of this operation</source>
        <translation>后退到该操作的上一个事件</translation>
    </message>
    <message>
        <source>Step on to the next event of this operation</source>
        <translation>前进到该操作的下一个事件</translation>
    </message>
    <message>
        <source>Previous interesting operation</source>
        <translation>上一个值得关注的操作</translation>
    </message>
    <message>
        <source>Next interesting operation</source>
        <translation>下一个值得关注的操作</translation>
    </message>
    <message>
        <source>Run the scenario again (same seed, same result)</source>
        <translation>重新运行场景（相同随机种子，相同结果）</translation>
    </message>
    <message>
        <source>Run again with a new random seed</source>
        <translation>用新的随机种子重新运行</translation>
    </message>
    <message>
        <source>Previous event</source>
        <translation>上一个事件</translation>
    </message>
    <message>
        <source>Next event</source>
        <translation>下一个事件</translation>
    </message>
    <message>
        <source>Back to the first event</source>
        <translation>回到第一个事件</translation>
    </message>
    <message>
        <source>On to the last event</source>
        <translation>跳到最后一个事件</translation>
    </message>
    <message>
        <source>Previous interesting operation (a presenter clicker&apos;s back button)</source>
        <translation>上一个值得关注的操作（翻页笔的后退键）</translation>
    </message>
    <message>
        <source>Next interesting operation (a presenter clicker&apos;s forward button)</source>
        <translation>下一个值得关注的操作（翻页笔的前进键）</translation>
    </message>
    <message>
        <source>Zoom in (also Ctrl and the mouse wheel)</source>
        <translation>放大（也可按住 Ctrl 滚动鼠标滚轮）</translation>
    </message>
    <message>
        <source>Zoom out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <source>Timeline page</source>
        <translation>时间线页</translation>
    </message>
    <message>
        <source>Charts page</source>
        <translation>图表页</translation>
    </message>
    <message>
        <source>Records page</source>
        <translation>记录页</translation>
    </message>
    <message>
        <source>Log page</source>
        <translation>日志页</translation>
    </message>
    <message>
        <source>Predict before you see: hide the numbers until the class has guessed, then reveal</source>
        <translation>先预测再看结果：在全班猜完之前隐藏数字，然后揭晓</translation>
    </message>
    <message>
        <source>Presentation mode: full screen, large text, editing panels hidden (F11 or Escape leaves)</source>
        <translation>演示模式：全屏、大字号、隐藏编辑面板（按 F11 或 Escape 退出）</translation>
    </message>
    <message>
        <source>Leave presentation mode (a live run is stopped first)</source>
        <translation>退出演示模式（会先停止实时运行）</translation>
    </message>
    <message>
        <source>While presenting: previous / next event, wherever the focus is</source>
        <translation>演示时：上一个 / 下一个事件，无论焦点在哪里</translation>
    </message>
    <message>
        <source>Zoom the whole window in, for a projector (kept for next time)</source>
        <translation>放大整个窗口，适合投影仪（下次启动时保留）</translation>
    </message>
    <message>
        <source>Zoom the whole window out</source>
        <translation>缩小整个窗口</translation>
    </message>
    <message>
        <source>Back to the actual size</source>
        <translation>恢复实际大小</translation>
    </message>
    <message>
        <source>Open a scenario file</source>
        <translation>打开场景文件</translation>
    </message>
    <message>
        <source>Save the scenario</source>
        <translation>保存场景</translation>
    </message>
    <message>
        <source>Save the scenario under another name</source>
        <translation>将场景另存为其他名称</translation>
    </message>
    <message>
        <source>Live: run the scenario over real HTTP on this computer</source>
        <translation>实时：在本机通过真实 HTTP 运行场景</translation>
    </message>
    <message>
        <source>Stop the live run</source>
        <translation>停止实时运行</translation>
    </message>
    <message>
        <source>Quit RetryLab</source>
        <translation>退出 RetryLab</translation>
    </message>
    <message>
        <source>This list of keyboard shortcuts</source>
        <translation>本键盘快捷键列表</translation>
    </message>
    <message>
        <source>timeout</source>
        <translation>超时（timeout）</translation>
    </message>
    <message>
        <source>How long a client waits for an answer before it gives up on an attempt. A timeout says nothing about what the server did: the request may have been lost, or the order committed and only the response lost. A timeout is not a failure.</source>
        <translation>客户端在放弃一次尝试之前等待响应的时长。超时并不能说明服务端做了什么：可能是请求丢了，也可能订单已经提交、只是响应丢了。超时不等于失败。</translation>
    </message>
    <message>
        <source>idempotency key</source>
        <translation>幂等键（idempotency key）</translation>
    </message>
    <message>
        <source>A unique value the client sends in the Idempotency-Key header so that the server recognises a retry of a request it has already processed. It protects only when it is minted once per logical operation, before any retry loop, and the server reserves it atomically.</source>
        <translation>客户端在 Idempotency-Key 请求头中发送的唯一值，让服务端能认出这是对已处理请求的重试。只有当它在任何重试循环之前、每个逻辑操作只生成一次，并且服务端原子地预留它时，才能起到保护作用。</translation>
    </message>
    <message>
        <source>replay</source>
        <translation>重放（replay）</translation>
    </message>
    <message>
        <source>The server&apos;s answer to a retry whose idempotency key it already holds: the stored response, same status and same body, with the header Idempotent-Replayed: true, and no new record.</source>
        <translation>服务端对一个幂等键已存在的重试所作的应答：返回存储的响应，状态码和响应体都相同，并带有 Idempotent-Replayed: true 响应头，不产生新记录。</translation>
    </message>
    <message>
        <source>orphan</source>
        <translation>孤儿订单（orphan）</translation>
    </message>
    <message>
        <source>An order the client reported as failed although the server committed at least one record for it. The user is told that the order failed, yet it exists.</source>
        <translation>客户端报告为失败、但服务端至少已为其提交了一条记录的订单。用户被告知下单失败，订单却实际存在。</translation>
    </message>
    <message>
        <source>duplicate</source>
        <translation>重复记录（duplicate）</translation>
    </message>
    <message>
        <source>A committed record beyond the first for the same order (the same business reference). RetryLab counts records minus orders with at least one record; records voided by reconciliation still count.</source>
        <translation>同一订单（同一业务单号）在第一条之外又提交的记录。RetryLab 的计数方式是：记录数减去至少有一条记录的订单数；被对账作废的记录仍然计入。</translation>
    </message>
    <message>
        <source>lost</source>
        <translation>丢单（lost）</translation>
    </message>
    <message>
        <source>An order the client reported as succeeded that has no record on the server. It must always be 0.</source>
        <translation>客户端报告为成功、但服务端没有任何记录的订单。它必须始终为 0。</translation>
    </message>
    <message>
        <source>amplification</source>
        <translation>放大（amplification）</translation>
    </message>
    <message>
        <source>HTTP attempts divided by logical operations: how many requests the server receives for each order the users meant to place. Nested retry layers multiply it.</source>
        <translation>HTTP 尝试次数除以逻辑操作数：用户每想下一个订单，服务端会收到多少个请求。嵌套的重试层会让它成倍增长。</translation>
    </message>
    <message>
        <source>jitter</source>
        <translation>抖动（jitter）</translation>
    </message>
    <message>
        <source>Randomness added to the wait before a retry, so that clients that failed together do not retry together. Full jitter waits a random time from 0 to the backoff; equal jitter keeps half of the backoff and draws the other half; decorrelated jitter draws from the base to three times the previous wait.</source>
        <translation>在重试前的等待时间中加入的随机性，使同时失败的客户端不会同时重试。全抖动在 0 到退避时间之间随机等待；等抖动保留一半退避时间，另一半随机抽取；去相关抖动在基础值到上次等待时间的三倍之间随机抽取。</translation>
    </message>
    <message>
        <source>exponential backoff</source>
        <translation>指数退避（exponential backoff）</translation>
    </message>
    <message>
        <source>Waiting longer before each retry: the wait is multiplied by a constant factor (usually 2) after each attempt, up to a cap. Without jitter, clients that failed together still retry together.</source>
        <translation>每次重试前等待得更久：每次尝试后等待时间乘以一个固定倍数（通常为 2），直到上限。没有抖动时，同时失败的客户端仍会同时重试。</translation>
    </message>
    <message>
        <source>retry budget</source>
        <translation>重试预算（retry budget）</translation>
    </message>
    <message>
        <source>A limit on retries as a share of the successful traffic: each success deposits a fraction of a token, each retry spends one token, and a retry finding no token is not sent. It keeps retries from multiplying the load on an overloaded server.</source>
        <translation>按成功流量的比例限制重试：每次成功存入一小部分令牌，每次重试消耗一个令牌，没有令牌时重试就不发送。它防止重试让过载服务端的负载成倍增加。</translation>
    </message>
    <message>
        <source>circuit breaker</source>
        <translation>熔断器（circuit breaker）</translation>
    </message>
    <message>
        <source>A switch in the client that stops sending requests after too many failures (in a row, or as a failure rate), fails at once for a while, then lets a trial request through to see whether the server has recovered.</source>
        <translation>客户端中的一个开关：失败过多（连续失败或失败率过高）后停止发送请求，一段时间内直接失败，然后放行一个试探请求，看服务端是否已恢复。</translation>
    </message>
    <message>
        <source>version conflict (OCC)</source>
        <translation>版本冲突（version conflict (OCC)）</translation>
    </message>
    <message>
        <source>Optimistic concurrency control: a client reads a row with its version and writes with that version; if another write came first, the server answers 409 and the client reads again and retries. It settles concurrent writes but does not make a retry safe: a write whose response was lost is applied twice.</source>
        <translation>乐观并发控制：客户端读取一行及其版本号，并带着该版本号写入；如果另一个写入抢先完成，服务端返回 409，客户端重新读取后重试。它能解决并发写入，但不能让重试变得安全：响应丢失的写入会被执行两次。</translation>
    </message>
    <message>
        <source>metastable failure</source>
        <translation>亚稳态故障（metastable failure）</translation>
    </message>
    <message>
        <source>An overload that outlives its trigger: the retries caused by the slow server keep the load above its capacity after the trigger has ended. Only less load (a retry budget, fewer retry layers, fewer arrivals) brings the server back.</source>
        <translation>触发因素消失后仍持续的过载：服务端变慢引发的重试，在触发因素结束后仍让负载高于容量。只有降低负载（重试预算、更少的重试层、更少的到达请求）才能让服务端恢复。</translation>
    </message>
    <message>
        <source>reconciliation</source>
        <translation>对账（reconciliation）</translation>
    </message>
    <message>
        <source>A job that periodically looks for orders with more than one record and flags or voids the extras. It is the last safety net: it repairs duplicates after the fact, it does not prevent them.</source>
        <translation>定期查找有多条记录的订单，并对多余记录进行标记或作废的任务。它是最后一道安全网：只能事后修复重复，无法预防重复。</translation>
    </message>
    <message>
        <source>request ID</source>
        <translation>请求 ID（request ID）</translation>
    </message>
    <message>
        <source>An identifier (the X-Request-ID header) given to each logical operation and carried by every attempt at every layer, so that the log groups all the attempts of one order. It helps people read the log; unlike an idempotency key, the server decides nothing with it.</source>
        <translation>分配给每个逻辑操作的标识符（X-Request-ID 请求头），每一层的每次尝试都携带它，从而让日志把同一订单的所有尝试归在一起。它帮助人阅读日志；与幂等键不同，服务端不会依据它做任何决定。</translation>
    </message>
    <message>
        <source>logical operation</source>
        <translation>逻辑操作（logical operation）</translation>
    </message>
    <message>
        <source>One order the user meant to place, with a business reference such as ORD-0007, however many requests it took.</source>
        <translation>用户想要下的一个订单，带有 ORD-0007 这样的业务单号，无论它实际发了多少个请求。</translation>
    </message>
    <message>
        <source>record</source>
        <translation>记录（record）</translation>
    </message>
    <message>
        <source>A row the order service committed: one created order.</source>
        <translation>订单服务提交的一行数据：一个已创建的订单。</translation>
    </message>
    <message>
        <source>retry layer</source>
        <translation>重试层（retry layer）</translation>
    </message>
    <message>
        <source>One place in the client that retries: the business loop in the application code, a @retry wrapper around the send method, or the HTTP transport (urllib3 Retry). Each layer retries the whole of the layers inside it.</source>
        <translation>客户端中进行重试的一处：应用代码中的业务重试循环、包在发送方法外的 @retry 重试装饰器，或 HTTP 传输层（urllib3 Retry）。每一层都会把它内部的各层整体重试一遍。</translation>
    </message>
    <message>
        <source>worst case</source>
        <translation>最坏情况（worst case）</translation>
    </message>
    <message>
        <source>The attempts of one operation when every enabled layer uses up its retries: the product of the layers&apos; attempt counts, for example 3 x 3 x 4 = 36.</source>
        <translation>每个启用的层都用尽重试时，一个操作的尝试次数：各层尝试次数的乘积，例如 3 x 3 x 4 = 36。</translation>
    </message>
    <message>
        <source>ghost request</source>
        <translation>幽灵请求（ghost request）</translation>
    </message>
    <message>
        <source>A request that reaches the server late and is committed after its client has given up on it, typically after a latency spike longer than the timeout.</source>
        <translation>迟到的请求：在客户端已放弃之后才到达服务端并被提交，通常发生在延迟尖峰超过超时时间时。</translation>
    </message>
    <message>
        <source>payload fingerprint</source>
        <translation>请求体指纹（payload fingerprint）</translation>
    </message>
    <message>
        <source>A hash of the request body stored with the idempotency key. The same key with a different body is refused with 422 instead of being replayed.</source>
        <translation>与幂等键一起存储的请求体哈希。同一个键配上不同的请求体会被以 422 拒绝，而不是重放。</translation>
    </message>
    <message>
        <source>single-use token</source>
        <translation>一次性令牌（single-use token）</translation>
    </message>
    <message>
        <source>A token the client first asks the server for (POST /order-tokens) and then sends with its order. A used token is refused with 409, so a lost first response ends as an orphan unless the client queries the order&apos;s status.</source>
        <translation>客户端先向服务端申请（POST /order-tokens）、再随订单一起发送的令牌。已用过的令牌会被以 409 拒绝，因此如果第一次的响应丢失，除非客户端查询订单状态，否则就会变成孤儿订单。</translation>
    </message>
    <message>
        <source>query before retry</source>
        <translation>重试前先查询（query before retry）</translation>
    </message>
    <message>
        <source>Before resending, the client asks the server whether the order exists (GET /orders?ref=...) and resends only if it does not.</source>
        <translation>重新发送之前，客户端先询问服务端订单是否存在（GET /orders?ref=...），只有不存在时才重新发送。</translation>
    </message>
    <message>
        <source>goodput</source>
        <translation>有效吞吐量（goodput）</translation>
    </message>
    <message>
        <source>Operations that succeeded per second: the useful part of the traffic, retries left out.</source>
        <translation>每秒成功的操作数：流量中有用的部分，不计重试。</translation>
    </message>
    <message>
        <source>The keys work anywhere in the main window, except those listed under &quot;On the timeline&quot;. An interesting operation has a duplicate, an orphan, a replay, a 409, a 422 or a status query.</source>
        <translation>这些按键在主窗口任何位置都有效，“在时间线上”下列出的除外。值得关注的操作是指出现了重复、孤儿订单、重放、409、422 或状态查询的操作。</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>What it does</source>
        <translation>作用</translation>
    </message>
    <message>
        <source>&lt;b&gt;Pick a preset.&lt;/b&gt; The Presets tab on the left (or File ▸ New from preset) lists the lessons; each preset sets up one experiment. Start with &lt;nobr&gt;ghost-request&lt;/nobr&gt;, then its fixes &lt;nobr&gt;stable-key&lt;/nobr&gt; and &lt;nobr&gt;layered-fix&lt;/nobr&gt;, and &lt;nobr&gt;rotating-key&lt;/nobr&gt;, a fix that is not one.</source>
        <translation>&lt;b&gt;选择预设。&lt;/b&gt;左侧的“预设”页（或 文件 ▸ 从预设新建）列出了各个课题；每个预设搭建一个实验。先从 &lt;nobr&gt;ghost-request&lt;/nobr&gt; 开始，再看它的修复方案 &lt;nobr&gt;stable-key&lt;/nobr&gt; 和 &lt;nobr&gt;layered-fix&lt;/nobr&gt;，以及看似修复、实则不然的 &lt;nobr&gt;rotating-key&lt;/nobr&gt;。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Read the lesson.&lt;/b&gt; The preset&apos;s description says what it shows. Read it aloud, then ask the class what they expect: how many records will the server hold?</source>
        <translation>&lt;b&gt;阅读课题。&lt;/b&gt;预设的说明写明了它要展示什么。大声读出来，然后问全班预期会发生什么：服务端会有多少条记录？</translation>
    </message>
    <message>
        <source>&lt;b&gt;Play the story operation.&lt;/b&gt; The Timeline opens on the operation that tells the lesson (a duplicate, an orphan, a replay, a 409 or a 422). Space plays it from the beginning; the sentence under the timeline narrates each event.</source>
        <translation>&lt;b&gt;播放故事操作。&lt;/b&gt;时间线会打开最能说明本课的那个操作（重复、孤儿订单、重放、409 或 422）。按空格键从头播放；时间线下方的句子会解说每个事件。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Step through it.&lt;/b&gt; Click the timeline, then Left and Right step event by event, so you can stop and ask what happens next. Page Up and Page Down, the keys a presenter clicker sends, jump to the previous or next interesting operation. The status bar keeps attempts, records, duplicates, orphans and lost in view.</source>
        <translation>&lt;b&gt;逐步讲解。&lt;/b&gt;点击时间线，然后用左、右方向键逐个事件后退或前进，随时停下来问大家接下来会发生什么。Page Up 和 Page Down（翻页笔发送的按键）跳到上一个或下一个值得关注的操作。状态栏始终显示尝试次数、记录、重复、孤儿订单和丢单。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Compare with What if?&lt;/b&gt; Charts ▸ What if? runs the same seed with one change at a time, so the class sees which single change removes the duplicates.</source>
        <translation>&lt;b&gt;用“假设分析”对比。&lt;/b&gt;图表 ▸ 假设分析 用相同的随机种子每次只改一项来运行，让全班看到是哪一项改动消除了重复。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Sweep.&lt;/b&gt; Charts ▸ Sweep varies one setting over a range (for example the response loss rate), with several seeds per value, and draws one line per value of its &quot;Compare by&quot; setting. New seed (Ctrl+Shift+R) shows that the lesson holds for any seed.</source>
        <translation>&lt;b&gt;参数扫描。&lt;/b&gt;图表 ▸ 参数扫描 在一个范围内改变某个设置（例如响应丢失率），每个取值运行多个随机种子，并按“对比维度”设置的每个取值画一条线。新随机种子（Ctrl+Shift+R）可以表明结论对任何随机种子都成立。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Many clients.&lt;/b&gt; For &lt;nobr&gt;retry-storm&lt;/nobr&gt;, metastable and &lt;nobr&gt;jitter-contention&lt;/nobr&gt;, open Charts ▸ Load over time: offered load, served requests, goodput and retries, with the timeline&apos;s playhead.</source>
        <translation>&lt;b&gt;多客户端。&lt;/b&gt;对于 &lt;nobr&gt;retry-storm&lt;/nobr&gt;、metastable 和 &lt;nobr&gt;jitter-contention&lt;/nobr&gt;，打开 图表 ▸ 负载随时间变化：输入负载、已处理请求、有效吞吐量和重试，并显示时间线的播放头。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Students&apos; own clients.&lt;/b&gt; File ▸ Serve… runs the order service over HTTP with the scenario&apos;s faults; tick &quot;Listen on the local network&quot; so students can send orders from their laptops with curl, Python or their own code. File ▸ Watch live requests shows every request as it arrives.</source>
        <translation>&lt;b&gt;学生自己的客户端。&lt;/b&gt;文件 ▸ 提供服务… 会带着场景中的故障通过 HTTP 运行订单服务；勾选“在局域网上监听”，学生就能在自己的笔记本上用 curl、Python 或自己的代码发送订单。文件 ▸ 监视实时请求 会显示每一个到达的请求。</translation>
    </message>
    <message>
        <source>Lessons</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>Compare: this scenario beside a copy with one toggle changed (in that window: Space plays both, Left and Right step both, Escape closes it)</source>
        <translation>对比：把这个场景与切换了一项设置的副本并排显示（在该窗口中：空格键同时播放两者，左、右方向键同时单步，Escape 关闭窗口）</translation>
    </message>
    <message>
        <source>While a lesson is open: the next step, wherever the focus is (a presenter clicker&apos;s forward button)</source>
        <translation>打开课程时：下一个步骤，无论焦点在哪里（翻页笔的前进键）</translation>
    </message>
    <message>
        <source>While a lesson is open: the previous step</source>
        <translation>打开课程时：上一个步骤</translation>
    </message>
    <message>
        <source>&lt;b&gt;Side by side.&lt;/b&gt; View ▸ Compare… (Ctrl+Shift+C) shows the scenario beside a copy with one toggle changed, same seed: both timelines play together, one chart holds both runs, and a table gives the difference in records, duplicates, attempts, latency and goodput.</source>
        <translation>&lt;b&gt;并排对比。&lt;/b&gt;视图 ▸ 对比…（Ctrl+Shift+C）把当前场景和只改了一个开关的副本并排显示，随机种子相同：两条时间线一起播放，一张图表同时画出两次运行，一张表格列出记录、重复订单、尝试次数、延迟和有效吞吐量的差异。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Hand out.&lt;/b&gt; File ▸ Export ▸ Handout as PDF prints the scenario on show; Lessons ▸ Handout of this lesson as PDF prints a lesson, one step per page. View ▸ Language switches between English and Simplified Chinese at any time, and the handouts follow it.</source>
        <translation>&lt;b&gt;分发讲义。&lt;/b&gt;文件 ▸ 导出 ▸ 讲义导出为 PDF 打印当前显示的场景；课程 ▸ 本课程的讲义导出为 PDF 打印整个课程，每步一页。视图 ▸ 语言可随时在英文和简体中文之间切换，讲义也随之切换。</translation>
    </message>
    <message>
        <source>A lesson at the projector, step by step. Set the window to the projector&apos;s resolution first; F1 shows the keyboard shortcuts.</source>
        <translation>在投影仪前上课，一步一步来。先把窗口设为投影仪的分辨率；按 F1 查看键盘快捷键。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Start with a guided lesson.&lt;/b&gt; The Lessons menu holds lessons of three or four steps each. Each step sets the scenario up, says what to watch and asks the class a question; the answer stays hidden until you press Reveal, which plays the operation and then answers. Page Down and Page Up (a presenter clicker) go to the next or previous step. Press F11 first for presentation mode.</source>
        <translation>&lt;b&gt;从引导课程开始。&lt;/b&gt;“课程”菜单中的每个课程有三到四个步骤。每一步都会设置好场景，说明要观察什么，并向全班提出一个问题；在你按下“揭晓”之前答案一直隐藏，揭晓时先播放该操作，再给出答案。Page Down 和 Page Up（翻页笔）切换到下一步或上一步。先按 F11 进入演示模式。</translation>
    </message>
</context>
<context>
    <name>retrylab::LabActions</name>
    <message>
        <source>&amp;Timeline</source>
        <translation>时间线(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Charts</source>
        <translation>图表(&amp;C)</translation>
    </message>
    <message>
        <source>R&amp;ecords</source>
        <translation>记录(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Log</source>
        <translation>日志(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Reset layout</source>
        <translation>重置布局(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Predict before you see</source>
        <translation>先预测再看结果(&amp;P)</translation>
    </message>
    <message>
        <source>Hide the outcome until the class has guessed records, duplicates and attempts</source>
        <translation>在全班猜出记录、重复和尝试次数之前隐藏结果</translation>
    </message>
    <message>
        <source>&amp;Compare…</source>
        <translation>对比(&amp;C)…</translation>
    </message>
    <message>
        <source>Run this scenario and a copy with one toggle changed side by side, same seed</source>
        <translation>把这个场景与切换了一项设置的副本并排运行，随机种子相同</translation>
    </message>
    <message>
        <source>&amp;About RetryLab</source>
        <translation>关于 RetryLab(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a scenario file</source>
        <translation>打开场景文件</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Re-run</source>
        <translation>重新运行(&amp;R)</translation>
    </message>
    <message>
        <source>Run the scenario again (same seed, same result)</source>
        <translation>重新运行场景（相同随机种子，相同结果）</translation>
    </message>
    <message>
        <source>&amp;Play</source>
        <translation>播放(&amp;P)</translation>
    </message>
    <message>
        <source>Step &amp;back</source>
        <translation>后退一步(&amp;B)</translation>
    </message>
    <message>
        <source>Previous event of this operation</source>
        <translation>该操作的上一个事件</translation>
    </message>
    <message>
        <source>Step &amp;next</source>
        <translation>前进一步(&amp;N)</translation>
    </message>
    <message>
        <source>Next event of this operation</source>
        <translation>该操作的下一个事件</translation>
    </message>
    <message>
        <source>Previous &amp;interesting operation</source>
        <translation>上一个值得关注的操作(&amp;I)</translation>
    </message>
    <message>
        <source>Previous operation with a duplicate, orphan, replay, 409, 422 or status query (Page Up on the timeline)</source>
        <translation>上一个出现重复、孤儿订单、重放、409、422 或状态查询的操作（时间线上按 Page Up）</translation>
    </message>
    <message>
        <source>Next i&amp;nteresting operation</source>
        <translation>下一个值得关注的操作(&amp;N)</translation>
    </message>
    <message>
        <source>Next operation with a duplicate, orphan, replay, 409, 422 or status query (Page Down on the timeline)</source>
        <translation>下一个出现重复、孤儿订单、重放、409、422 或状态查询的操作（时间线上按 Page Down）</translation>
    </message>
    <message>
        <source>New &amp;seed</source>
        <translation>新随机种子(&amp;S)</translation>
    </message>
    <message>
        <source>Run again with a new random seed: the lesson should hold for any seed</source>
        <translation>用新的随机种子重新运行：结论应对任何随机种子都成立</translation>
    </message>
</context>
<context>
    <name>retrylab::LessonController</name>
    <message>
        <source>Lesson</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>&amp;Lessons</source>
        <translation>课程(&amp;L)</translation>
    </message>
    <message>
        <source>Cannot open the lesson</source>
        <translation>无法打开课程</translation>
    </message>
    <message>
        <source>Open lesson &amp;file…</source>
        <translation>打开课程文件(&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;Close lesson</source>
        <translation>关闭课程(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Handout of this lesson as PDF…</source>
        <translation>本课程的讲义导出为 PDF(&amp;H)…</translation>
    </message>
    <message>
        <source>Open lesson</source>
        <translation>打开课程</translation>
    </message>
    <message>
        <source>Lesson files (*.json);;All files (*)</source>
        <translation>课程文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>no lesson is open: start one from the Lessons menu</source>
        <translation>没有打开的课程：请从“课程”菜单开始一个课程</translation>
    </message>
    <message>
        <source>Running the lesson&apos;s steps…</source>
        <translation>正在运行课程的各个步骤…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>cancelled: no handout was written</source>
        <translation>已取消：没有写出讲义</translation>
    </message>
    <message>
        <source>&amp;Student handout (no answers) as PDF…</source>
        <translation>学生讲义（不含答案）导出为 PDF(&amp;S)…</translation>
    </message>
    <message>
        <source>Student handout</source>
        <translation>学生讲义</translation>
    </message>
    <message>
        <source>PDF files (*.pdf)</source>
        <translation>PDF 文件 (*.pdf)</translation>
    </message>
    <message>
        <source>Cannot write the handout</source>
        <translation>无法写入讲义</translation>
    </message>
    <message>
        <source>%1, step %2: %3</source>
        <translation>%1，第 %2 步：%3</translation>
    </message>
</context>
<context>
    <name>retrylab::LessonPlayer</name>
    <message>
        <source>Your prediction</source>
        <translation>你的预测</translation>
    </message>
    <message>
        <source>&amp;Reveal</source>
        <translation>揭晓(&amp;R)</translation>
    </message>
    <message>
        <source>Play the operation to its end, then show the answer</source>
        <translation>把该操作播放到结束，然后显示答案</translation>
    </message>
    <message>
        <source>&amp;Previous</source>
        <translation>上一步(&amp;P)</translation>
    </message>
    <message>
        <source>The previous step (Page Up)</source>
        <translation>上一个步骤（Page Up）</translation>
    </message>
    <message>
        <source>&amp;Next</source>
        <translation>下一步(&amp;N)</translation>
    </message>
    <message>
        <source>The next step (Page Down)</source>
        <translation>下一个步骤（Page Down）</translation>
    </message>
    <message>
        <source>Re&amp;start</source>
        <translation>重新开始(&amp;S)</translation>
    </message>
    <message>
        <source>Back to the first step</source>
        <translation>回到第一个步骤</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <source>The answer is %1.</source>
        <translation>答案是 %1。</translation>
    </message>
    <message>
        <source>You said %1: exactly right.</source>
        <translation>你说的是 %1：完全正确。</translation>
    </message>
    <message>
        <source>You said %1; the answer is %2.</source>
        <translation>你说的是 %1；答案是 %2。</translation>
    </message>
    <message>
        <source>The answer is &quot;%1&quot;.</source>
        <translation>答案是“%1”。</translation>
    </message>
    <message>
        <source>You chose &quot;%1&quot;: right.</source>
        <translation>你选了“%1”：正确。</translation>
    </message>
    <message>
        <source>You chose &quot;%1&quot;; the answer is &quot;%2&quot;.</source>
        <translation>你选了“%1”；答案是“%2”。</translation>
    </message>
    <message>
        <source>Playing…</source>
        <translation>正在播放…</translation>
    </message>
    <message>
        <source>Paused. Continue (or Space on the timeline) plays on to the answer.</source>
        <translation>已暂停。点“继续”（或在时间线上按空格）播放到底并揭晓答案。</translation>
    </message>
    <message>
        <source>A long operation: played at %1×, about %2 s.</source>
        <translation>操作较长：以 %1× 速度播放，约 %2 秒。</translation>
    </message>
    <message>
        <source>&amp;Continue</source>
        <translation>继续(&amp;C)</translation>
    </message>
    <message>
        <source>Play on from here to the end, then show the answer</source>
        <translation>从这里继续播放到结束，然后显示答案</translation>
    </message>
</context>
<context>
    <name>retrylab::LiveController</name>
    <message>
        <source>Live run failed: %1</source>
        <translation>实时运行失败：%1</translation>
    </message>
    <message>
        <source>Live run stopped; result unchanged</source>
        <translation>实时运行已停止；结果未变</translation>
    </message>
    <message>
        <source>Watch</source>
        <translation>监视</translation>
    </message>
    <message>
        <source>Ser&amp;ve…</source>
        <translation>提供服务(&amp;V)…</translation>
    </message>
    <message>
        <source>Run the order service over HTTP for curl, Python or any client</source>
        <translation>通过 HTTP 运行订单服务，供 curl、Python 或任何客户端使用</translation>
    </message>
    <message>
        <source>&amp;Watch live requests</source>
        <translation>监视实时请求(&amp;W)</translation>
    </message>
    <message>
        <source>Serve orders on port 8080 (or a free one) and show every request that arrives</source>
        <translation>在 8080 端口（或一个空闲端口）上提供订单服务，并显示每个到达的请求</translation>
    </message>
    <message>
        <source>Cannot serve</source>
        <translation>无法提供服务</translation>
    </message>
    <message>
        <source>&amp;Live</source>
        <translation>实时(&amp;L)</translation>
    </message>
    <message>
        <source>Run the scenario over real HTTP on this computer (loopback) instead of simulating it</source>
        <translation>在本机（回环地址）通过真实 HTTP 运行场景，而不是模拟</translation>
    </message>
    <message>
        <source>S&amp;top live run</source>
        <translation>停止实时运行(&amp;T)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the live run; the previous result stays on show</source>
        <translation>停止实时运行；继续显示之前的结果</translation>
    </message>
    <message>
        <source>Live time scale</source>
        <translation>实时时间比例</translation>
    </message>
    <message>
        <source>Real time per simulated time: at 0.1x a simulated second takes a tenth of a second</source>
        <translation>真实时间与模拟时间之比：0.1x 时，模拟的一秒只需真实的十分之一秒</translation>
    </message>
    <message>
        <source>Real time: a simulated second takes a second</source>
        <translation>真实时间：模拟的一秒就是一秒</translation>
    </message>
    <message>
        <source>%1 times faster than real time</source>
        <translation>比真实时间快 %1 倍</translation>
    </message>
    <message>
        <source>Live is on: switch Live off first (one order server at a time).</source>
        <translation>实时模式已开启：请先关闭实时模式（同一时间只能有一个订单服务端）。</translation>
    </message>
    <message>
        <source>Choose another port, or tick &quot;If this port is in use, pick a free one&quot;.</source>
        <translation>请选择其他端口，或勾选“如果此端口已被占用，则选择一个空闲端口”。</translation>
    </message>
    <message>
        <source>Stop ser&amp;ving</source>
        <translation>停止提供服务(&amp;V)</translation>
    </message>
    <message>
        <source>Live is off while File &gt; Serve is serving: stop serving first (one order server at a time)</source>
        <translation>文件 &gt; 提供服务 正在运行时无法使用实时模式：请先停止提供服务（同一时间只能有一个订单服务端）</translation>
    </message>
    <message>
        <source>Serving at %1</source>
        <translation>正在 %1 提供服务</translation>
    </message>
    <message>
        <source>Stopped serving</source>
        <translation>已停止提供服务</translation>
    </message>
    <message>
        <source>older events dropped</source>
        <translation>较早的事件已丢弃</translation>
    </message>
    <message>
        <source>Serve is off while Live is on: switch Live off first (one order server at a time)</source>
        <translation>实时模式开启时无法提供服务：请先关闭实时模式（同一时间只能有一个订单服务端）</translation>
    </message>
    <message>
        <source>Live run over %1: %2 s</source>
        <translation>通过 %1 实时运行：%2 s</translation>
    </message>
    <message>
        <source>P&amp;roxy…</source>
        <translation>代理(&amp;R)…</translation>
    </message>
    <message>
        <source>Put a fault proxy in front of your own HTTP service and watch its duplicates</source>
        <translation>在你自己的 HTTP 服务前放一个故障代理，观察它产生的重复</translation>
    </message>
    <message>
        <source>Proxy at %1 in front of %2</source>
        <translation>代理 %1，位于 %2 之前</translation>
    </message>
    <message>
        <source>Proxy stopped</source>
        <translation>代理已停止</translation>
    </message>
    <message>
        <source>older exchanges dropped</source>
        <translation>较早的交换已丢弃</translation>
    </message>
    <message>
        <source>Switch Live off and stop serving first: the window shows one source of requests at a time.</source>
        <translation>请先关闭实时模式并停止服务：窗口一次只显示一个请求来源。</translation>
    </message>
    <message>
        <source>Stop the p&amp;roxy</source>
        <translation>停止代理(&amp;R)</translation>
    </message>
    <message>
        <source>Open chec&amp;k report…</source>
        <translation>打开检查报告(&amp;K)…</translation>
    </message>
    <message>
        <source>Show a report of retrylab check --save FILE: each probe&apos;s requests on the timeline</source>
        <translation>显示 retrylab check --save FILE 写出的报告：每个探测的请求都在时间线上</translation>
    </message>
    <message>
        <source>Check report %1</source>
        <translation>检查报告 %1</translation>
    </message>
    <message>
        <source>Your service</source>
        <translation>您的服务</translation>
    </message>
    <message>
        <source>Proxy in front of %1</source>
        <translation>位于 %1 之前的代理</translation>
    </message>
    <message>
        <source>Idempotency check of %1 (%2)</source>
        <translation>%1 的幂等性检查（%2）</translation>
    </message>
    <message>
        <source>Switch Live off, stop serving and stop the proxy first: the window shows one source of requests at a time.</source>
        <translation>请先关闭实时模式、停止服务并停止代理：窗口一次只显示一个请求来源。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>(round %1)</source>
        <translation>（第 %1 轮）</translation>
    </message>
    <message>
        <source>Open check report</source>
        <translation>打开检查报告</translation>
    </message>
    <message>
        <source>Check reports (*.json);;All files (*)</source>
        <translation>检查报告 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open the check report</source>
        <translation>无法打开检查报告</translation>
    </message>
</context>
<context>
    <name>retrylab::LiveMode</name>
    <message>
        <source>Live run over %1, time scale %2</source>
        <translation>通过 %1 实时运行，时间比例 %2</translation>
    </message>
</context>
<context>
    <name>retrylab::LoadChart</name>
    <message>
        <source>first tries</source>
        <translation>首次尝试</translation>
    </message>
    <message>
        <source>retries</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>requests per second</source>
        <translation>每秒请求数</translation>
    </message>
    <message>
        <source>requests per second; run a scenario to count them</source>
        <translation>每秒请求数；运行场景后开始统计</translation>
    </message>
    <message>
        <source>time since the server started (s)</source>
        <translation>服务端启动以来的时间 (s)</translation>
    </message>
    <message>
        <source>simulated time (s)</source>
        <translation>模拟时间 (s)</translation>
    </message>
    <message>
        <source>offered: attempts sent</source>
        <translation>输入：发出的尝试</translation>
    </message>
    <message>
        <source>served: responses, 503s too</source>
        <translation>已处理：响应，含 503</translation>
    </message>
    <message>
        <source>goodput: orders succeeded</source>
        <translation>有效吞吐量：成功的订单</translation>
    </message>
    <message>
        <source>offered</source>
        <translation>输入负载</translation>
    </message>
    <message>
        <source>served</source>
        <translation>已处理</translation>
    </message>
    <message>
        <source>goodput</source>
        <translation>有效吞吐量</translation>
    </message>
    <message>
        <source>Load over time</source>
        <translation>负载随时间变化</translation>
    </message>
    <message>
        <source>run with tracing to see the load over time</source>
        <translation>开启跟踪记录运行，可查看负载随时间的变化</translation>
    </message>
    <message>
        <source>requests per second, counted in %1 buckets</source>
        <translation>每秒请求数，按 %1 的时间段统计</translation>
    </message>
    <message>
        <source>time since the proxy started (s)</source>
        <translation>代理启动以来的时间（秒）</translation>
    </message>
    <message>
        <source>time since the check began (s)</source>
        <translation>自检查开始的时间 (s)</translation>
    </message>
</context>
<context>
    <name>retrylab::LogView</name>
    <message>
        <source>Request ID contains…</source>
        <translation>请求 ID 包含…</translation>
    </message>
    <message>
        <source>all ops</source>
        <translation>所有操作</translation>
    </message>
    <message>
        <source>op </source>
        <translation>操作 </translation>
    </message>
    <message>
        <source>All lanes</source>
        <translation>所有泳道</translation>
    </message>
    <message>
        <source>All events</source>
        <translation>所有事件</translation>
    </message>
    <message>
        <source>Export JSONL…</source>
        <translation>导出 JSONL…</translation>
    </message>
    <message>
        <source>1 event</source>
        <translation>1 个事件</translation>
    </message>
    <message>
        <source>%1 events</source>
        <translation>%1 个事件</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Export events</source>
        <translation>导出事件</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
</context>
<context>
    <name>retrylab::MainWindow</name>
    <message>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Records</source>
        <translation>记录</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>The attempts of one operation, animated (Ctrl+1)</source>
        <translation>一个操作的各次尝试，以动画呈现（Ctrl+1）</translation>
    </message>
    <message>
        <source>Duplicates over time, what-if variants, sweeps, attempts per operation (Ctrl+2)</source>
        <translation>重复记录随时间变化、假设分析变体、参数扫描、每个操作的尝试次数（Ctrl+2）</translation>
    </message>
    <message>
        <source>The rows the order service committed (Ctrl+3)</source>
        <translation>订单服务提交的数据行（Ctrl+3）</translation>
    </message>
    <message>
        <source>Every event of the run (Ctrl+4)</source>
        <translation>本次运行的所有事件（Ctrl+4）</translation>
    </message>
    <message>
        <source>Run the scenario again (same seed, same result)</source>
        <translation>重新运行场景（相同随机种子，相同结果）</translation>
    </message>
    <message>
        <source>&amp;Play</source>
        <translation>播放(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New from preset</source>
        <translation>从预设新建(&amp;N)</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>Timeline as &amp;PNG…</source>
        <translation>时间线导出为 PNG(&amp;P)…</translation>
    </message>
    <message>
        <source>Timeline as &amp;SVG…</source>
        <translation>时间线导出为 SVG(&amp;S)…</translation>
    </message>
    <message>
        <source>Timeline as a s&amp;lide (1920×1080 PNG)…</source>
        <translation>时间线导出为幻灯片(&amp;L)（1920×1080 PNG）…</translation>
    </message>
    <message>
        <source>Current chart as P&amp;NG…</source>
        <translation>当前图表导出为 PNG(&amp;N)…</translation>
    </message>
    <message>
        <source>Current chart as S&amp;VG…</source>
        <translation>当前图表导出为 SVG(&amp;V)…</translation>
    </message>
    <message>
        <source>Records as &amp;CSV…</source>
        <translation>记录导出为 CSV(&amp;C)…</translation>
    </message>
    <message>
        <source>Trace as &amp;JSONL…</source>
        <translation>跟踪记录导出为 JSONL(&amp;J)…</translation>
    </message>
    <message>
        <source>&amp;Handout as PDF…</source>
        <translation>讲义导出为 PDF(&amp;H)…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Playback</source>
        <translation>回放(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Glossary</source>
        <translation>术语表(&amp;G)</translation>
    </message>
    <message>
        <source>How to &amp;teach with RetryLab</source>
        <translation>如何用 RetryLab 教学(&amp;T)</translation>
    </message>
    <message>
        <source>Toolbar</source>
        <translation>工具栏</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>The seed of every random draw: the same seed gives the same run. Type one and press Enter.</source>
        <translation>所有随机抽取所用的随机种子：相同的随机种子得到相同的运行结果。输入一个值后按 Enter。</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>The logical operation (order) shown on the timeline</source>
        <translation>时间线上显示的逻辑操作（订单）</translation>
    </message>
    <message>
        <source>What makes this operation worth a look</source>
        <translation>这个操作值得关注的原因</translation>
    </message>
    <message>
        <source>Not run: too much work (hover here); the numbers are the last run&apos;s</source>
        <translation>未运行：工作量太大（将鼠标悬停在此处查看）；数字是上一次运行的</translation>
    </message>
    <message>
        <source> of %1</source>
        <translation> / %1</translation>
    </message>
    <message>
        <source>(modified)</source>
        <translation>（已修改）</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>The scenario &quot;%1&quot; has changes that are not saved.</source>
        <translation>场景“%1”有尚未保存的更改。</translation>
    </message>
    <message>
        <source>Cannot load preset</source>
        <translation>无法加载预设</translation>
    </message>
    <message>
        <source>Open scenario</source>
        <translation>打开场景</translation>
    </message>
    <message>
        <source>Scenarios (*.json);;All files (*)</source>
        <translation>场景 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open scenario</source>
        <translation>无法打开场景</translation>
    </message>
    <message>
        <source>Cannot save scenario</source>
        <translation>无法保存场景</translation>
    </message>
    <message>
        <source>Save scenario as</source>
        <translation>场景另存为</translation>
    </message>
    <message>
        <source>Run the scenario again over real HTTP (Live is on)</source>
        <translation>通过真实 HTTP 重新运行场景（实时模式已开启）</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <source>About RetryLab</source>
        <translation>关于 RetryLab</translation>
    </message>
    <message>
        <source>&lt;h3&gt;RetryLab %1&lt;/h3&gt;&lt;p&gt;A simulator and teaching lab about retries and idempotency: a timeout is not a failure, nested retry layers multiply attempts, and idempotency keys prevent duplicates only when minted once per operation and stored atomically.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;RetryLab %1&lt;/h3&gt;&lt;p&gt;一个关于重试与幂等性的模拟器和教学实验室：超时不等于失败，嵌套的重试层会让尝试次数成倍增加，而幂等键只有在每个操作只生成一次并被原子地存储时，才能防止重复。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>No recent files</source>
        <translation>没有最近打开的文件</translation>
    </message>
    <message>
        <source>&amp;Clear list</source>
        <translation>清空列表(&amp;C)</translation>
    </message>
    <message>
        <source>&quot;%1&quot; did not finish loading last time, so the lab opened a preset instead.</source>
        <translation>上次未能完成加载“%1”，因此改为打开了一个预设。</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>Stop serving to change the language</source>
        <translation>请先停止提供服务，再切换语言</translation>
    </message>
</context>
<context>
    <name>retrylab::PredictionPanel</name>
    <message>
        <source>You said %1: right.</source>
        <translation>你猜的是%1：猜对了。</translation>
    </message>
    <message>
        <source>You said %1: %2.</source>
        <translation>你猜的是%1：%2。</translation>
    </message>
    <message>
        <source>1 record</source>
        <translation> 1 条记录</translation>
    </message>
    <message>
        <source>%1 records</source>
        <translation> %1 条记录</translation>
    </message>
    <message>
        <source>the server holds 1</source>
        <translation>服务端有 1 条</translation>
    </message>
    <message>
        <source>the server holds %1</source>
        <translation>服务端有 %1 条</translation>
    </message>
    <message>
        <source>1 duplicate</source>
        <translation> 1 条重复</translation>
    </message>
    <message>
        <source>%1 duplicates</source>
        <translation> %1 条重复</translation>
    </message>
    <message>
        <source>there are none</source>
        <translation>实际没有</translation>
    </message>
    <message>
        <source>there is 1</source>
        <translation>实际有 1 条</translation>
    </message>
    <message>
        <source>there are %1</source>
        <translation>实际有 %1 条</translation>
    </message>
    <message>
        <source>1 attempt</source>
        <translation> 1 次尝试</translation>
    </message>
    <message>
        <source>%1 attempts</source>
        <translation> %1 次尝试</translation>
    </message>
    <message>
        <source>the client made 1</source>
        <translation>客户端实际发了 1 次</translation>
    </message>
    <message>
        <source>the client made %1</source>
        <translation>客户端实际发了 %1 次</translation>
    </message>
    <message>
        <source>Predict:</source>
        <translation>预测：</translation>
    </message>
    <message>
        <source>&amp;Records</source>
        <translation>记录(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Duplicates</source>
        <translation>重复(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Attempts</source>
        <translation>尝试(&amp;A)</translation>
    </message>
    <message>
        <source>Re&amp;veal</source>
        <translation>揭晓(&amp;V)</translation>
    </message>
    <message>
        <source>Show the run&apos;s numbers and compare them with the prediction</source>
        <translation>显示本次运行的数字，并与预测比较</translation>
    </message>
    <message>
        <source>The outcome is hidden until you reveal it.</source>
        <translation>在揭晓之前，结果是隐藏的。</translation>
    </message>
</context>
<context>
    <name>retrylab::PresentationController</name>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>Full screen with large text for a projector; F11 or Escape leaves</source>
        <translation>全屏、大字号，适合投影仪；按 F11 或 Escape 退出</translation>
    </message>
    <message>
        <source>Zoom &amp;in</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Actual size</source>
        <translation>实际大小(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Actual size (now %1%)</source>
        <translation>实际大小(&amp;A)（当前 %1%）</translation>
    </message>
</context>
<context>
    <name>retrylab::PresetList</name>
    <message>
        <source>Presets</source>
        <translation>预设</translation>
    </message>
</context>
<context>
    <name>retrylab::ProxyDialog</name>
    <message>
        <source>Refuse the connection</source>
        <translation>拒绝连接</translation>
    </message>
    <message>
        <source>Lose the request</source>
        <translation>丢失请求</translation>
    </message>
    <message>
        <source>Lose the answer (after the commit)</source>
        <translation>丢失应答（提交之后）</translation>
    </message>
    <message>
        <source>Reset after the answer</source>
        <translation>应答后重置连接</translation>
    </message>
    <message>
        <source>Hold the request</source>
        <translation>扣住请求</translation>
    </message>
    <message>
        <source>Held for</source>
        <translation>扣住时长</translation>
    </message>
    <message>
        <source>5xx instead of forwarding</source>
        <translation>不转发，直接回 5xx</translation>
    </message>
    <message>
        <source>5xx after the upstream answered</source>
        <translation>上游应答后改回 5xx</translation>
    </message>
    <message>
        <source>429 instead of forwarding</source>
        <translation>不转发，直接回 429</translation>
    </message>
    <message>
        <source>Retry-After of a 429</source>
        <translation>429 的 Retry-After</translation>
    </message>
    <message>
        <source>Seed of the dice</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Proxy your own service</source>
        <translation>代理你自己的服务</translation>
    </message>
    <message>
        <source>Puts a fault proxy in front of your HTTP service: point your client at the proxy, and every request appears on the timeline, in the records and on the duplicates chart, with the faults below applied on the wire.</source>
        <translation>在你的 HTTP 服务前放一个故障代理：让客户端改连代理，每个请求都会出现在时间线、记录和重复图表中，下面的故障会施加在线路上。</translation>
    </message>
    <message>
        <source>Your service: http://host:port</source>
        <translation>你的服务：http://主机:端口</translation>
    </message>
    <message>
        <source>&amp;Upstream</source>
        <translation>上游(&amp;U)</translation>
    </message>
    <message>
        <source>The TCP port the proxy listens on; your client sends its requests there</source>
        <translation>代理监听的 TCP 端口；你的客户端把请求发到这里</translation>
    </message>
    <message>
        <source>&amp;Listen on port</source>
        <translation>监听端口(&amp;L)</translation>
    </message>
    <message>
        <source>none: group by Idempotency-Key</source>
        <translation>无：按 Idempotency-Key 分组</translation>
    </message>
    <message>
        <source>A field of the JSON body naming the order (&quot;ref&quot;): retries with a new key still count as one order</source>
        <translation>JSON 请求体中标识订单的字段（&quot;ref&quot;）：换了新键的重试仍算同一笔订单</translation>
    </message>
    <message>
        <source>&amp;Order field</source>
        <translation>订单字段(&amp;O)</translation>
    </message>
    <message>
        <source>If this port is in use, pick a free one</source>
        <translation>如果此端口已被占用，则选择一个空闲端口</translation>
    </message>
    <message>
        <source>Faults (of this scenario)</source>
        <translation>故障（取自此场景）</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>&amp;Start proxy</source>
        <translation>启动代理(&amp;S)</translation>
    </message>
    <message>
        <source>Upstream: expected http://host:port, got &quot;%1&quot;</source>
        <translation>上游：应为 http://主机:端口，实际为 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>%1: %2 %</source>
        <translation>%1：%2 %</translation>
    </message>
    <message numerus="yes">
        <source>%n scripted fault(s)</source>
        <translation>
            <numerusform>%n 个脚本故障</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>retrylab::ProxySession</name>
    <message>
        <source>Port %1 is in use, so the proxy listens on port %2.</source>
        <translation>端口 %1 已被占用，因此代理监听端口 %2。</translation>
    </message>
</context>
<context>
    <name>retrylab::RecordsView</name>
    <message>
        <source>A second record for %1: the service committed this order again.</source>
        <translation>%1 的第二条记录：服务又提交了一次这个订单。</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>%1 record</source>
        <translation>%1 条记录</translation>
    </message>
    <message>
        <source>%1 records</source>
        <translation>%1 条记录</translation>
    </message>
    <message>
        <source>%1, no duplicates</source>
        <translation>%1，无重复</translation>
    </message>
    <message>
        <source>%1, %2 in %3 (reconciliation: %4 voided, %5 flagged)</source>
        <translation>%1，%2，涉及 %3（对账：%4 条已作废，%5 条已标记）</translation>
    </message>
    <message>
        <source>%1, %2 in %3</source>
        <translation>%1，%2，涉及 %3</translation>
    </message>
    <message>
        <source>%1 duplicate</source>
        <translation>%1 条重复</translation>
    </message>
    <message>
        <source>%1 duplicates</source>
        <translation>%1 条重复</translation>
    </message>
    <message>
        <source>%1 ref</source>
        <translation>%1 个单号</translation>
    </message>
    <message>
        <source>%1 refs</source>
        <translation>%1 个单号</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Export records</source>
        <translation>导出记录</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
</context>
<context>
    <name>retrylab::RunController</name>
    <message>
        <source>Stopped: %1</source>
        <translation>已停止：%1</translation>
    </message>
    <message>
        <source>Not run: %1</source>
        <translation>未运行：%1</translation>
    </message>
</context>
<context>
    <name>retrylab::ScenarioEditor</name>
    <message>
        <source>Title and description</source>
        <translation>标题和说明</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <source>Client and retry layers</source>
        <translation>客户端和重试层</translation>
    </message>
    <message>
        <source>Network faults</source>
        <translation>网络故障</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务端</translation>
    </message>
    <message>
        <source>Reconciliation</source>
        <translation>对账</translation>
    </message>
    <message>
        <source>Presets</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Lessons: each preset sets up one experiment</source>
        <translation>课题：每个预设搭建一个实验</translation>
    </message>
    <message>
        <source>Every key of the scenario, grouped</source>
        <translation>场景的所有设置项，分组显示</translation>
    </message>
    <message>
        <source>Shown in the preset list, the window title, saved files and exported images.</source>
        <translation>显示在预设列表、窗口标题、保存的文件和导出的图片中。</translation>
    </message>
    <message>
        <source>What this scenario shows. Rewrite it when the settings tell another story.</source>
        <translation>这个场景要展示什么。当设置讲的是另一个故事时，请改写它。</translation>
    </message>
    <message>
        <source>&amp;Title</source>
        <translation>标题(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Description</source>
        <translation>说明(&amp;D)</translation>
    </message>
    <message>
        <source>Open: orders arrive on a schedule</source>
        <translation>开放式：订单按计划到达</translation>
    </message>
    <message>
        <source>Closed: clients wait for answers</source>
        <translation>封闭式：客户端等待应答</translation>
    </message>
    <message>
        <source>Load model</source>
        <translation>负载模型</translation>
    </message>
    <message>
        <source>Open: orders arrive whatever the server does. Closed: each client sends its next operation only after the last one ended, so a slow server slows the arrivals.</source>
        <translation>开放式：无论服务端如何，订单都照常到达。封闭式：每个客户端在上一个操作结束后才发送下一个，因此服务端变慢，到达也会变慢。</translation>
    </message>
    <message>
        <source>Evenly spaced</source>
        <translation>均匀间隔</translation>
    </message>
    <message>
        <source>Poisson: random gaps</source>
        <translation>泊松：随机间隔</translation>
    </message>
    <message>
        <source>Arrivals</source>
        <translation>到达方式</translation>
    </message>
    <message>
        <source>Open load: orders evenly spaced, or a Poisson process.</source>
        <translation>开放式负载：订单均匀间隔到达，或按泊松过程到达。</translation>
    </message>
    <message>
        <source>Orders</source>
        <translation>订单数</translation>
    </message>
    <message>
        <source>Logical operations: orders the user means to place once each.</source>
        <translation>逻辑操作：用户每个只想下一次的订单。</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>Between orders</source>
        <translation>订单间隔</translation>
    </message>
    <message>
        <source>Open load: the time between two orders of one client. Closed load, clients not starting together: client i starts at i x this / clients.</source>
        <translation>开放式负载：同一客户端两个订单之间的时间。封闭式负载且客户端不同时启动时：客户端 i 在 i x 此值 / 客户端数 时启动。</translation>
    </message>
    <message>
        <source>Clients</source>
        <translation>客户端数</translation>
    </message>
    <message>
        <source>Independent clients sending orders at the same time.</source>
        <translation>同时发送订单的独立客户端。</translation>
    </message>
    <message>
        <source>Orders per client</source>
        <translation>每个客户端的订单数</translation>
    </message>
    <message>
        <source>Closed load: each client places this many orders, one after another.</source>
        <translation>封闭式负载：每个客户端依次下这么多个订单。</translation>
    </message>
    <message>
        <source>Think time</source>
        <translation>思考时间</translation>
    </message>
    <message>
        <source>Closed load: the pause between an order&apos;s end and the client&apos;s next one.</source>
        <translation>封闭式负载：一个订单结束到该客户端下一个订单之间的停顿。</translation>
    </message>
    <message>
        <source>All clients start at 0 s</source>
        <translation>所有客户端都在 0 s 启动</translation>
    </message>
    <message>
        <source>Closed load: every client starts at once (the AWS study), or they start spread out.</source>
        <translation>封闭式负载：所有客户端同时启动（如 AWS 的研究），或错开启动。</translation>
    </message>
    <message>
        <source>Double submits</source>
        <translation>重复提交</translation>
    </message>
    <message>
        <source>Share of orders submitted twice, e.g. a double click.</source>
        <translation>被提交两次的订单比例，例如双击。</translation>
    </message>
    <message>
        <source>Double-submit delay</source>
        <translation>重复提交延迟</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Same scenario and seed give the same run, event for event.</source>
        <translation>相同的场景和随机种子会得到完全相同的运行，每个事件都一样。</translation>
    </message>
    <message>
        <source>Load phases</source>
        <translation>负载阶段</translation>
    </message>
    <message>
        <source>Open load that changes over time: from one second to another, orders arrive at this rate instead. Phases must not overlap.</source>
        <translation>随时间变化的开放式负载：在某一秒到另一秒之间，订单改按此速率到达。各阶段不得重叠。</translation>
    </message>
    <message>
        <source>From s</source>
        <translation>起始 s</translation>
    </message>
    <message>
        <source>Start of the phase, in seconds</source>
        <translation>阶段开始时间，单位秒</translation>
    </message>
    <message>
        <source>To s</source>
        <translation>结束 s</translation>
    </message>
    <message>
        <source>End of the phase, in seconds (after its start)</source>
        <translation>阶段结束时间，单位秒（须晚于开始时间）</translation>
    </message>
    <message>
        <source>Orders/s</source>
        <translation>订单/秒</translation>
    </message>
    <message>
        <source>Orders arriving per second during the phase</source>
        <translation>该阶段每秒到达的订单数</translation>
    </message>
    <message>
        <source>Add phase</source>
        <translation>添加阶段</translation>
    </message>
    <message>
        <source>Constant</source>
        <translation>固定</translation>
    </message>
    <message>
        <source>Linear</source>
        <translation>线性</translation>
    </message>
    <message>
        <source>Exponential</source>
        <translation>指数</translation>
    </message>
    <message>
        <source>AWS exponential: first x mult^n</source>
        <translation>AWS 指数：首次 x 倍数^n</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Full: U(0, wait)</source>
        <translation>全抖动：U(0, wait)</translation>
    </message>
    <message>
        <source>Equal: wait/2 + U(0, wait/2)</source>
        <translation>等抖动：wait/2 + U(0, wait/2)</translation>
    </message>
    <message>
        <source>Decorrelated</source>
        <translation>去相关抖动</translation>
    </message>
    <message>
        <source>Proportional: wait ± x%</source>
        <translation>按比例：wait ± x%</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>Max attempts</source>
        <translation>最大尝试次数</translation>
    </message>
    <message>
        <source>Unlimited (tenacity stop_never) retries until the deadline below, which it then needs.</source>
        <translation>不限次数（tenacity stop_never）会一直重试到下面的截止时间，因此必须设置截止时间。</translation>
    </message>
    <message>
        <source>Backoff</source>
        <translation>退避</translation>
    </message>
    <message>
        <source>First wait</source>
        <translation>首次等待</translation>
    </message>
    <message>
        <source>Multiplier</source>
        <translation>倍数</translation>
    </message>
    <message>
        <source>Max wait</source>
        <translation>最长等待</translation>
    </message>
    <message>
        <source>Jitter</source>
        <translation>抖动</translation>
    </message>
    <message>
        <source>Jitter ±</source>
        <translation>抖动 ±</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>With proportional jitter: each wait varies by up to this share either way.</source>
        <translation>使用按比例抖动时：每次等待上下浮动最多这个比例。</translation>
    </message>
    <message>
        <source>Min wait</source>
        <translation>最短等待</translation>
    </message>
    <message>
        <source>The shortest wait, after the cap and the jitter (tenacity&apos;s min); full jitter then draws between it and the wait, as wait_random_exponential does.</source>
        <translation>应用上限和抖动之后的最短等待（tenacity 的 min）；全抖动则在它与等待时间之间随机抽取，与 wait_random_exponential 的做法相同。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Deadline</source>
        <translation>截止时间</translation>
    </message>
    <message>
        <source>Overall time budget of this layer; 0 = none.</source>
        <translation>这一层的总时间预算；0 表示不限。</translation>
    </message>
    <message>
        <source>Transport (urllib3 Retry)</source>
        <translation>传输层（urllib3 Retry）</translation>
    </message>
    <message>
        <source>Retries inside the HTTP session: connect errors always; read timeouts and listed statuses only for the allowed methods (POST is not allowed by default).</source>
        <translation>HTTP 会话内部的重试：连接错误总会重试；读取超时和列出的状态码只对允许的方法重试（默认不允许 POST）。</translation>
    </message>
    <message>
        <source>Total retries</source>
        <translation>总重试次数</translation>
    </message>
    <message>
        <source>urllib3 total. Unlimited (None) needs the connect, read and status counters set.</source>
        <translation>urllib3 total。不限（None）时需要设置 connect、read 和 status 计数。</translation>
    </message>
    <message>
        <source>Connect retries</source>
        <translation>连接重试次数</translation>
    </message>
    <message>
        <source>urllib3 connect: retries after connection errors; each also counts against the total.</source>
        <translation>urllib3 connect：连接错误后的重试；每次也计入总数。</translation>
    </message>
    <message>
        <source>Read retries</source>
        <translation>读取重试次数</translation>
    </message>
    <message>
        <source>urllib3 read: retries after read timeouts and resets (allowed methods only).</source>
        <translation>urllib3 read：读取超时和连接重置后的重试（仅限允许的方法）。</translation>
    </message>
    <message>
        <source>Status retries</source>
        <translation>状态码重试次数</translation>
    </message>
    <message>
        <source>urllib3 status: retries after a forcelisted or Retry-After status.</source>
        <translation>urllib3 status：收到 forcelist 中的状态码或带 Retry-After 的状态码后的重试。</translation>
    </message>
    <message>
        <source>Other retries</source>
        <translation>其他重试次数</translation>
    </message>
    <message>
        <source>urllib3 other: other errors. The simulation raises none, so this counter never runs out.</source>
        <translation>urllib3 other：其他错误。模拟中不会出现这类错误，所以这个计数永远不会用完。</translation>
    </message>
    <message>
        <source>Backoff factor</source>
        <translation>退避因子</translation>
    </message>
    <message>
        <source>Wait factor x 2^(n-1) seconds; the first retry is immediate.</source>
        <translation>等待 因子 x 2^(n-1) 秒；第一次重试立即进行。</translation>
    </message>
    <message>
        <source>Backoff cap</source>
        <translation>退避上限</translation>
    </message>
    <message>
        <source>urllib3 backoff_max: no backoff wait is longer (the jitter included).</source>
        <translation>urllib3 backoff_max：任何退避等待都不会超过它（含抖动）。</translation>
    </message>
    <message>
        <source>Backoff jitter</source>
        <translation>退避抖动</translation>
    </message>
    <message>
        <source>urllib3 backoff_jitter: a random 0 to this many seconds added to each backoff after the first retry.</source>
        <translation>urllib3 backoff_jitter：第一次重试之后，每次退避再加上 0 到这么多秒的随机时间。</translation>
    </message>
    <message>
        <source>Status forcelist</source>
        <translation>状态码 forcelist</translation>
    </message>
    <message>
        <source>Comma-separated HTTP statuses to retry, e.g. 500,502,503,504.</source>
        <translation>要重试的 HTTP 状态码，用逗号分隔，例如 500,502,503,504。</translation>
    </message>
    <message>
        <source>Allowed methods</source>
        <translation>允许的方法</translation>
    </message>
    <message>
        <source>None ticked means allowed_methods=None: every method, POST included.</source>
        <translation>一个都不勾选即 allowed_methods=None：所有方法都重试，包括 POST。</translation>
    </message>
    <message>
        <source>Honour Retry-After</source>
        <translation>遵循 Retry-After</translation>
    </message>
    <message>
        <source>Retry-After cap</source>
        <translation>Retry-After 上限</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>urllib3 retry_after_max: longest Retry-After wait. A Retry-After of 0 waits the backoff instead; a negative or unreadable one counts as absent (urllib3 raises InvalidHeader there).</source>
        <translation>urllib3 retry_after_max：Retry-After 的最长等待。Retry-After 为 0 时改为按退避等待；为负数或无法解析时视为没有（此时 urllib3 会抛出 InvalidHeader）。</translation>
    </message>
    <message>
        <source>Raise when the status retries run out (raise_on_status)</source>
        <translation>状态码重试用尽时抛出异常（raise_on_status）</translation>
    </message>
    <message>
        <source>On: the layer above sees MaxRetryError, without the response or its Retry-After. Off: it gets the last response.</source>
        <translation>开启：上一层看到的是 MaxRetryError，拿不到响应及其 Retry-After。关闭：上一层得到最后一个响应。</translation>
    </message>
    <message>
        <source>None: no Idempotency-Key</source>
        <translation>无：不发送 Idempotency-Key</translation>
    </message>
    <message>
        <source>Per operation (before all retries)</source>
        <translation>每个操作一个（在所有重试之前）</translation>
    </message>
    <message>
        <source>Per business attempt</source>
        <translation>每次业务尝试一个</translation>
    </message>
    <message>
        <source>Per wrapper attempt (inside @retry)</source>
        <translation>每次装饰器尝试一个（在 @retry 内部）</translation>
    </message>
    <message>
        <source>Idempotency key</source>
        <translation>幂等键</translation>
    </message>
    <message>
        <source>Where the client mints the Idempotency-Key. Only a key minted once per operation is carried by every retry of every layer.</source>
        <translation>客户端在哪里生成 Idempotency-Key。只有每个操作只生成一次的键，才会被每一层的每次重试携带。</translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>Read timeout per HTTP attempt. A timeout is not a failure: the server may have committed.</source>
        <translation>每次 HTTP 尝试的读取超时。超时不等于失败：服务端可能已经提交。</translation>
    </message>
    <message>
        <source>Connection refused after</source>
        <translation>连接被拒绝的耗时</translation>
    </message>
    <message>
        <source>How long the client waits before it learns that a connection was refused (the connect-failure fault). Nothing reached the server, so such an attempt is always safe to retry.</source>
        <translation>客户端要等多久才得知连接被拒绝（连接失败故障）。请求根本没有到达服务端，因此这种尝试总是可以安全重试。</translation>
    </message>
    <message>
        <source>Send X-Request-ID</source>
        <translation>发送 X-Request-ID</translation>
    </message>
    <message>
        <source>Query status before retrying</source>
        <translation>重试前先查询状态</translation>
    </message>
    <message>
        <source>Fail the attempt</source>
        <translation>判定该次尝试失败</translation>
    </message>
    <message>
        <source>Send again</source>
        <translation>再次发送</translation>
    </message>
    <message>
        <source>Unanswered query</source>
        <translation>查询无应答时</translation>
    </message>
    <message>
        <source>When GET /orders?ref= gets no answer, even after the transport&apos;s retries, the order&apos;s fate is unknown. Failing the business attempt is safe; sending the order again may create a duplicate.</source>
        <translation>当 GET /orders?ref= 在传输层重试之后仍无应答时，订单的结果未知。判定业务尝试失败是安全的；再次发送订单则可能产生重复。</translation>
    </message>
    <message>
        <source>Change the payload on retry</source>
        <translation>重试时修改请求体</translation>
    </message>
    <message>
        <source>Business loop</source>
        <translation>业务重试循环</translation>
    </message>
    <message>
        <source>Hand-written retry loop in application code: retries timeouts, 5xx, 429 and 409, never 400/422.</source>
        <translation>应用代码中手写的重试循环：对超时、5xx、429 和 409 重试，从不对 400/422 重试。</translation>
    </message>
    <message>
        <source>Wrapper (@retry decorator)</source>
        <translation>重试装饰器（@retry）</translation>
    </message>
    <message>
        <source>A retry decorator around the whole send method, including building the request.</source>
        <translation>包在整个发送方法外的重试装饰器，连构造请求也包括在内。</translation>
    </message>
    <message>
        <source>Any exception</source>
        <translation>任何异常</translation>
    </message>
    <message>
        <source>Transient errors only</source>
        <translation>仅限暂时性错误</translation>
    </message>
    <message>
        <source>Retry on</source>
        <translation>重试条件</translation>
    </message>
    <message>
        <source>Retry budget</source>
        <translation>重试预算</translation>
    </message>
    <message>
        <source>Token bucket: each success deposits the ratio, each retry costs one token.</source>
        <translation>令牌桶：每次成功存入“比例”个令牌，每次重试消耗一个令牌。</translation>
    </message>
    <message>
        <source>Per client</source>
        <translation>每个客户端一个</translation>
    </message>
    <message>
        <source>Global: one for all clients</source>
        <translation>全局：所有客户端共用一个</translation>
    </message>
    <message>
        <source>Bucket</source>
        <translation>令牌桶</translation>
    </message>
    <message>
        <source>Each client&apos;s own bucket, or one bucket that every client&apos;s retries spend (a server-side budget).</source>
        <translation>每个客户端各有一个桶，或者所有客户端的重试共用一个桶（相当于服务端预算）。</translation>
    </message>
    <message>
        <source>Ratio</source>
        <translation>比例</translation>
    </message>
    <message>
        <source>Max tokens</source>
        <translation>最大令牌数</translation>
    </message>
    <message>
        <source>A token per retry</source>
        <translation>每次重试一个令牌</translation>
    </message>
    <message>
        <source>gRPC retry throttling</source>
        <translation>gRPC 重试限流</translation>
    </message>
    <message>
        <source>Percent of requests (Finagle)</source>
        <translation>按请求百分比（Finagle）</translation>
    </message>
    <message>
        <source>Design</source>
        <translation>设计</translation>
    </message>
    <message>
        <source>gRPC: each failure takes a token, each success adds the ratio, retries only above half of max tokens. Finagle: a share of the requests may be retried, plus a reserve per second.</source>
        <translation>gRPC：每次失败扣一个令牌，每次成功增加比例值，只有令牌数高于最大令牌数的一半时才重试。Finagle：一定比例的请求可以重试，另加每秒的保留额度。</translation>
    </message>
    <message>
        <source>Retryable share</source>
        <translation>可重试比例</translation>
    </message>
    <message>
        <source>Reserve per second</source>
        <translation>每秒保留额度</translation>
    </message>
    <message>
        <source>Half-open calls</source>
        <translation>半开调用数</translation>
    </message>
    <message>
        <source>Calls let through once the open time is over; their outcome closes or reopens it. 0: one (Polly) for failures in a row, ten (resilience4j) for a failure rate.</source>
        <translation>打开时间结束后放行的调用数；它们的结果决定断路器关闭还是重新打开。0：连续失败模式为一个（Polly），失败率模式为十个（resilience4j）。</translation>
    </message>
    <message>
        <source>full</source>
        <translation>满</translation>
    </message>
    <message>
        <source>Tokens at start</source>
        <translation>初始令牌数</translation>
    </message>
    <message>
        <source>The tokens in the bucket at 0 s. Full: as many as max tokens.</source>
        <translation>0 s 时桶中的令牌数。满：等于最大令牌数。</translation>
    </message>
    <message>
        <source>Circuit breaker</source>
        <translation>熔断器</translation>
    </message>
    <message>
        <source>Fails fast when too many attempts failed, then probes again.</source>
        <translation>失败的尝试过多时快速失败，之后再次试探。</translation>
    </message>
    <message>
        <source>Failures in a row</source>
        <translation>连续失败次数</translation>
    </message>
    <message>
        <source>Failure rate in a window</source>
        <translation>窗口内的失败率</translation>
    </message>
    <message>
        <source>Opens on</source>
        <translation>断开条件</translation>
    </message>
    <message>
        <source>Failures in a row: after so many consecutive failures. Failure rate: when, of the last attempts (the window full), at least the given share failed.</source>
        <translation>连续失败次数：连续失败达到这么多次后断开。失败率：在最近的若干次尝试中（窗口已满），失败比例至少达到给定值时断开。</translation>
    </message>
    <message>
        <source>Failures to open</source>
        <translation>断开所需失败次数</translation>
    </message>
    <message>
        <source> attempts</source>
        <translation> 次尝试</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <source>The last attempts the failure rate is measured over.</source>
        <translation>计算失败率所依据的最近尝试次数。</translation>
    </message>
    <message>
        <source>Failure rate</source>
        <translation>失败率</translation>
    </message>
    <message>
        <source>Opens when at least this share of the window failed.</source>
        <translation>窗口中失败比例至少达到这个值时断开。</translation>
    </message>
    <message>
        <source>Open for</source>
        <translation>断开时长</translation>
    </message>
    <message>
        <source>Open: block retries only, let first tries through</source>
        <translation>断开时：只拦截重试，放行首次尝试</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>Connect failure</source>
        <translation>连接失败</translation>
    </message>
    <message>
        <source>Refused before anything is sent: always safe to retry.</source>
        <translation>在发送任何内容之前就被拒绝：总是可以安全重试。</translation>
    </message>
    <message>
        <source>Request lost</source>
        <translation>请求丢失</translation>
    </message>
    <message>
        <source>The request vanishes; the server never sees it.</source>
        <translation>请求消失了；服务端从未收到。</translation>
    </message>
    <message>
        <source>Response lost</source>
        <translation>响应丢失</translation>
    </message>
    <message>
        <source>The server committed; the response vanishes and the client times out.</source>
        <translation>服务端已提交；响应消失，客户端超时。</translation>
    </message>
    <message>
        <source>Reset after commit</source>
        <translation>提交后连接重置</translation>
    </message>
    <message>
        <source>The server committed; the connection is reset.</source>
        <translation>服务端已提交；连接被重置。</translation>
    </message>
    <message>
        <source>Latency spike</source>
        <translation>延迟尖峰</translation>
    </message>
    <message>
        <source>The request arrives after the client gave up: the ghost request.</source>
        <translation>请求在客户端放弃之后才到达：即幽灵请求。</translation>
    </message>
    <message>
        <source>Spike delay</source>
        <translation>尖峰延迟</translation>
    </message>
    <message>
        <source>Scripted faults</source>
        <translation>脚本化故障</translation>
    </message>
    <message>
        <source>Force a fault on exact attempts, e.g. lose the response of op 1, attempt b1/w1/t1.</source>
        <translation>在指定的尝试上强制注入故障，例如丢弃操作 1 的尝试 b1/w1/t1 的响应。</translation>
    </message>
    <message>
        <source>Fault windows</source>
        <translation>故障时段</translation>
    </message>
    <message>
        <source>A fault with its own probability for a period: an outage, a burst of lost responses, a latency spike from one second to another. Windows of one fault must not overlap.</source>
        <translation>在一段时间内以单独概率出现的故障：一次宕机、一阵响应丢失、从某一秒到另一秒的延迟尖峰。同一故障的各时段不得重叠。</translation>
    </message>
    <message>
        <source>From</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Start of the window, in seconds</source>
        <translation>时段开始时间，单位秒</translation>
    </message>
    <message>
        <source>To</source>
        <translation>结束</translation>
    </message>
    <message>
        <source>End of the window, in seconds (after its start)</source>
        <translation>时段结束时间，单位秒（须晚于开始时间）</translation>
    </message>
    <message>
        <source>Fault</source>
        <translation>故障</translation>
    </message>
    <message>
        <source>The fault whose probability the window sets; double-click to choose</source>
        <translation>该时段设定其概率的故障；双击选择</translation>
    </message>
    <message>
        <source>Prob.</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>The fault&apos;s probability in the window, from 0 to 1</source>
        <translation>该故障在时段内的概率，0 到 1</translation>
    </message>
    <message>
        <source>Add window</source>
        <translation>添加时段</translation>
    </message>
    <message>
        <source>Service</source>
        <translation>服务</translation>
    </message>
    <message>
        <source>Orders: each POST inserts</source>
        <translation>订单：每个 POST 都插入</translation>
    </message>
    <message>
        <source>OCC: versioned writes</source>
        <translation>OCC：带版本号的写入</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Orders: each POST creates an order (the idempotency lessons). OCC (optimistic concurrency, the AWS backoff study): each attempt reads a row&apos;s version and writes with it; a write after another client&apos;s write is a version conflict (409) for the retry layers.</source>
        <translation>订单：每个 POST 创建一个订单（幂等性课题）。OCC（乐观并发控制，AWS 的退避研究）：每次尝试读取一行的版本号并带着它写入；在其他客户端写入之后的写入就是版本冲突（409），交给各重试层处理。</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>行数</translation>
    </message>
    <message>
        <source>OCC: the rows the clients write; each operation picks one at random.</source>
        <translation>OCC：客户端写入的行；每个操作随机选其中一行。</translation>
    </message>
    <message>
        <source>Idempotency</source>
        <translation>幂等性</translation>
    </message>
    <message>
        <source>Off: every POST inserts</source>
        <translation>关闭：每个 POST 都插入</translation>
    </message>
    <message>
        <source>Naive: check, then insert</source>
        <translation>朴素：先检查，再插入</translation>
    </message>
    <message>
        <source>Atomic: reserve the key first</source>
        <translation>原子：先预留幂等键</translation>
    </message>
    <message>
        <source>Server-issued tokens</source>
        <translation>服务端签发的令牌</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Naive stores the key at commit, so concurrent requests with one key both pass the check.</source>
        <translation>朴素模式在提交时才存储幂等键，因此带同一个键的并发请求都能通过检查。</translation>
    </message>
    <message>
        <source>Key TTL</source>
        <translation>键有效期 (TTL)</translation>
    </message>
    <message>
        <source>After this, the key is forgotten and a late retry creates a duplicate.</source>
        <translation>超过这个时间后，键被遗忘，迟到的重试会产生重复。</translation>
    </message>
    <message>
        <source>Key required (400 without)</source>
        <translation>必须带键（否则 400）</translation>
    </message>
    <message>
        <source>Payload fingerprint (422 on mismatch)</source>
        <translation>请求体指纹（不匹配时 422）</translation>
    </message>
    <message>
        <source>Single use: 409</source>
        <translation>一次性：409</translation>
    </message>
    <message>
        <source>Replay, like a key</source>
        <translation>像幂等键一样重放</translation>
    </message>
    <message>
        <source>Used token</source>
        <translation>已用令牌</translation>
    </message>
    <message>
        <source>Token mode only. A single-use token is spent when its order commits: a retry after a lost response gets 409, and the client reports a failure for an order that exists.</source>
        <translation>仅限令牌模式。一次性令牌在订单提交时即被用掉：响应丢失后的重试会收到 409，客户端便对一个实际存在的订单报告失败。</translation>
    </message>
    <message>
        <source>Durable</source>
        <translation>持久化</translation>
    </message>
    <message>
        <source>In memory</source>
        <translation>仅内存</translation>
    </message>
    <message>
        <source>Key store</source>
        <translation>幂等键存储</translation>
    </message>
    <message>
        <source>Where the idempotency keys live. After a restart of an in-memory store, a retry with the right key is a new request to the server: a duplicate.</source>
        <translation>幂等键保存在哪里。内存存储重启之后，带着正确键的重试对服务端而言是一个新请求：于是产生重复。</translation>
    </message>
    <message>
        <source>Restarts</source>
        <translation>重启</translation>
    </message>
    <message>
        <source>e.g. 12, 30</source>
        <translation>例如 12, 30</translation>
    </message>
    <message>
        <source>Restart at</source>
        <translation>重启时间</translation>
    </message>
    <message>
        <source>Seconds of simulated time, comma-separated. A restart drops every request the server holds (their clients time out); requests arriving while it is down are dropped, and new connections are refused. The script fault serverRestart restarts it right after one attempt commits.</source>
        <translation>模拟时间的秒数，用逗号分隔。重启会丢弃服务端正在处理的所有请求（其客户端会超时）；停机期间到达的请求被丢弃，新连接被拒绝。脚本化故障 serverRestart 会在某次尝试提交后立即重启服务端。</translation>
    </message>
    <message>
        <source>Down for</source>
        <translation>停机时长</translation>
    </message>
    <message>
        <source>Capacity and processing</source>
        <translation>容量与处理</translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>Concurrent requests; 0 = unlimited. Full: 503.</source>
        <translation>并发请求数；0 表示不限。满载时返回 503。</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>Processing</source>
        <translation>处理时间</translation>
    </message>
    <message>
        <source>Per request in flight</source>
        <translation>每个在途请求增加</translation>
    </message>
    <message>
        <source>Service time grows with load: each request being processed adds this much to a request that starts. Retries add load, so a busy server can stay busy: a metastable failure.</source>
        <translation>服务时间随负载增长：每个正在处理的请求都会让新开始的请求多花这么多时间。重试会增加负载，因此繁忙的服务端可能一直忙下去：这就是亚稳态故障。</translation>
    </message>
    <message>
        <source>Injected errors</source>
        <translation>注入的错误</translation>
    </message>
    <message>
        <source>5xx before commit</source>
        <translation>提交前返回 5xx</translation>
    </message>
    <message>
        <source>5xx after commit</source>
        <translation>提交后返回 5xx</translation>
    </message>
    <message>
        <source>The record is committed but the client sees an error.</source>
        <translation>记录已提交，但客户端看到的是错误。</translation>
    </message>
    <message>
        <source>429 throttling</source>
        <translation>429 限流</translation>
    </message>
    <message>
        <source>Error status</source>
        <translation>错误状态码</translation>
    </message>
    <message>
        <source>Retry-After</source>
        <translation>Retry-After</translation>
    </message>
    <message>
        <source>Reconciliation job</source>
        <translation>对账任务</translation>
    </message>
    <message>
        <source>Periodically finds records sharing a business reference and flags or voids the extras.</source>
        <translation>定期查找业务单号相同的记录，并对多余记录进行标记或作废。</translation>
    </message>
    <message>
        <source>Every</source>
        <translation>间隔</translation>
    </message>
    <message>
        <source>Flag the extras</source>
        <translation>标记多余记录</translation>
    </message>
    <message>
        <source>Void the extras</source>
        <translation>作废多余记录</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>处理方式</translation>
    </message>
    <message>
        <source>Uniform: base + U(0, jitter)</source>
        <translation>均匀：base + U(0, jitter)</translation>
    </message>
    <message>
        <source>Normal: |N(mean, sd)|</source>
        <translation>正态：|N(mean, sd)|</translation>
    </message>
    <message>
        <source>%1 distribution</source>
        <translation>%1分布</translation>
    </message>
    <message>
        <source>Uniform: a base time plus a random 0 to jitter. Normal: the absolute value of a normal draw, as in the AWS backoff study&apos;s network (mean 10 ms, sd 2 ms).</source>
        <translation>均匀：基础时间加上 0 到抖动值之间的随机时间。正态：正态分布抽样的绝对值，与 AWS 退避研究中的网络相同（均值 10 ms，标准差 2 ms）。</translation>
    </message>
    <message>
        <source>One-way base latency.</source>
        <translation>单向基础延迟。</translation>
    </message>
    <message>
        <source>%1 jitter</source>
        <translation>%1抖动</translation>
    </message>
    <message>
        <source>%1 mean</source>
        <translation>%1均值</translation>
    </message>
    <message>
        <source>%1 sd</source>
        <translation>%1标准差</translation>
    </message>
    <message>
        <source>Standard deviation of the normal distribution.</source>
        <translation>正态分布的标准差。</translation>
    </message>
    <message>
        <source>(modified)</source>
        <translation>（已修改）</translation>
    </message>
    <message>
        <source>The settings differ from “%1” as it was loaded.</source>
        <translation>设置与加载时的“%1”不同。</translation>
    </message>
    <message>
        <source>The title and description were written for the original settings of “%1”.</source>
        <translation>标题和说明是为“%1”的原始设置写的。</translation>
    </message>
    <message>
        <source>Edit the text</source>
        <translation>编辑文字</translation>
    </message>
    <message>
        <source>Edit them</source>
        <translation>编辑它们</translation>
    </message>
    <message>
        <source>Title and description (modified settings)</source>
        <translation>标题和说明（设置已修改）</translation>
    </message>
    <message>
        <source>Not applied, the last valid value stays in force:</source>
        <translation>未应用，上一个有效值仍然生效：</translation>
    </message>
    <message>
        <source>@retry wrapper</source>
        <translation>@retry 重试装饰器</translation>
    </message>
    <message>
        <source>Read by</source>
        <translation>读取方</translation>
    </message>
    <message>
        <source>OCC: the layer whose attempts re-read the version; the layers below resend the same write.</source>
        <translation>OCC：每次尝试都重新读取版本的那一层；其下各层重发同一个写请求。</translation>
    </message>
    <message>
        <source>Replay a 5xx answered after a commit</source>
        <translation>重放提交后返回的 5xx</translation>
    </message>
    <message>
        <source>Reset at once (a crash)</source>
        <translation>立即重置（崩溃）</translation>
    </message>
    <message>
        <source>Silent until timeout (a hang)</source>
        <translation>静默直到超时（挂起）</translation>
    </message>
    <message>
        <source>Held requests</source>
        <translation>滞留的请求</translation>
    </message>
    <message>
        <source>What the clients of the requests the server held see: a reset at once, or nothing until their timeout.</source>
        <translation>服务器滞留的请求，其客户端看到什么：立即收到连接重置，或在超时前什么也收不到。</translation>
    </message>
</context>
<context>
    <name>retrylab::ScriptTableEditor</name>
    <message>
        <source>Add fault</source>
        <translation>添加故障</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Scripted faults</source>
        <translation>脚本化故障</translation>
    </message>
</context>
<context>
    <name>retrylab::ScriptTableModel</name>
    <message>
        <source>Op</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Request</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>尝试</translation>
    </message>
    <message>
        <source>Fault</source>
        <translation>故障</translation>
    </message>
    <message>
        <source>Operation number, or * for every operation</source>
        <translation>操作编号，或用 * 表示所有操作</translation>
    </message>
    <message>
        <source>POST: the order&apos;s attempts. GET: the status query before business attempt b (path bN/w1/tQ, Q counting the query&apos;s own HTTP attempts)</source>
        <translation>POST：订单的各次尝试。GET：业务尝试 b 之前的状态查询（路径 bN/w1/tQ，Q 为该查询自身的 HTTP 尝试计数）</translation>
    </message>
    <message>
        <source>Attempt path b/w/t, e.g. b1/w1/t1; * matches any</source>
        <translation>尝试路径 b/w/t，例如 b1/w1/t1；* 匹配任意</translation>
    </message>
    <message>
        <source>The fault forced on that attempt; double-click to choose another</source>
        <translation>在该次尝试上强制注入的故障；双击选择其他故障</translation>
    </message>
</context>
<context>
    <name>retrylab::StatusOutcome</name>
    <message>
        <source>Running the scenario in the background</source>
        <translation>正在后台运行场景</translation>
    </message>
    <message>
        <source>The embedded order server: where to send orders</source>
        <translation>内置订单服务端：订单的发送地址</translation>
    </message>
    <message>
        <source>This result came from real HTTP requests, not from the simulation</source>
        <translation>此结果来自真实的 HTTP 请求，而非模拟</translation>
    </message>
    <message>
        <source>HTTP attempts per operation if every enabled layer exhausts its retries</source>
        <translation>每个启用的层都用尽重试时，每个操作的 HTTP 尝试次数</translation>
    </message>
    <message>
        <source>HTTP attempts, and per logical operation</source>
        <translation>HTTP 尝试次数，以及每个逻辑操作的平均次数</translation>
    </message>
    <message>
        <source>Status queries (GET /orders?ref=) the client sent before resending</source>
        <translation>客户端在重新发送前发出的状态查询（GET /orders?ref=）</translation>
    </message>
    <message>
        <source>Records beyond the first for the same business reference</source>
        <translation>同一业务单号在第一条之外的记录</translation>
    </message>
    <message>
        <source>Duplicates the reconciliation job has not voided yet (voided records still count as created)</source>
        <translation>对账任务尚未作废的重复记录（已作废的记录仍计入已产生）</translation>
    </message>
    <message>
        <source>Operations the client reported as failed although a record exists</source>
        <translation>客户端报告为失败、但记录实际存在的操作</translation>
    </message>
    <message>
        <source>Operations reported as succeeded without a record (must be 0)</source>
        <translation>报告为成功却没有记录的操作（必须为 0）</translation>
    </message>
    <message>
        <source>Queries: ?</source>
        <translation>查询：?</translation>
    </message>
    <message>
        <source>Queries: %1</source>
        <translation>查询：%1</translation>
    </message>
    <message>
        <source>Outstanding: ?</source>
        <translation>未处理：?</translation>
    </message>
    <message>
        <source>1 voided, outstanding: %1</source>
        <translation>已作废 1，未处理：%1</translation>
    </message>
    <message>
        <source>%1 voided, outstanding: %2</source>
        <translation>已作废 %1，未处理：%2</translation>
    </message>
    <message>
        <source>Attempts: ?</source>
        <translation>尝试：?</translation>
    </message>
    <message>
        <source>Attempts: %1 (%2 per op)</source>
        <translation>尝试：%1（每操作 %2）</translation>
    </message>
    <message>
        <source>Records: ?</source>
        <translation>记录：?</translation>
    </message>
    <message>
        <source>Records: %1</source>
        <translation>记录：%1</translation>
    </message>
    <message>
        <source>Duplicates: ?</source>
        <translation>重复：?</translation>
    </message>
    <message>
        <source>Duplicates: %1</source>
        <translation>重复：%1</translation>
    </message>
    <message>
        <source>Orphans: ?</source>
        <translation>孤儿订单：?</translation>
    </message>
    <message>
        <source>Orphans: %1</source>
        <translation>孤儿订单：%1</translation>
    </message>
    <message>
        <source>Lost: ?</source>
        <translation>丢单：?</translation>
    </message>
    <message>
        <source>Lost: %1</source>
        <translation>丢单：%1</translation>
    </message>
    <message>
        <source>Worst case: ?</source>
        <translation>最坏：？</translation>
    </message>
    <message>
        <source>Worst case: retries until %1</source>
        <translation>最坏：重试直到 %1</translation>
    </message>
    <message>
        <source>Worst case: 1 attempt per op</source>
        <translation>最坏：每操作 1 次</translation>
    </message>
    <message>
        <source>Worst case: %1 attempts per op</source>
        <translation>最坏：每操作 %1 次</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <source>Running the scenario over real HTTP</source>
        <translation>正在通过真实 HTTP 运行场景</translation>
    </message>
    <message>
        <source>Rows the order service committed; late: committed after their client had given up on that attempt</source>
        <translation>订单服务提交的数据行；迟到：在客户端已放弃那次尝试之后才提交</translation>
    </message>
    <message>
        <source>Records (%1 late): %2</source>
        <translation>记录（%1 条迟到）：%2</translation>
    </message>
    <message>
        <source>Attempts: %1</source>
        <translation>尝试：%1</translation>
    </message>
</context>
<context>
    <name>retrylab::SubjectPanel</name>
    <message>
        <source>Probe</source>
        <translation>探测</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>Faults: none, every request passes</source>
        <translation>故障：无，所有请求都直接通过</translation>
    </message>
    <message>
        <source>Faults:</source>
        <translation>故障：</translation>
    </message>
    <message>
        <source>Report: %1</source>
        <translation>报告：%1</translation>
    </message>
    <message>
        <source>rounds per probe: %1 · sent at once in flight: %2</source>
        <translation>每个探测的轮数：%1 · 同时在途发送：%2</translation>
    </message>
    <message>
        <source>Click a probe to see its requests on the timeline.</source>
        <translation>点击一个探测，在时间线上查看它的请求。</translation>
    </message>
    <message>
        <source>%1 pass, %2 fail, %3 warn, %4 cannot tell, %5 not applicable</source>
        <translation>%1 通过，%2 失败，%3 警告，%4 无法判断，%5 不适用</translation>
    </message>
    <message>
        <source>(round %1)</source>
        <translation>（第 %1 轮）</translation>
    </message>
    <message>
        <source>Proxy in front of your service</source>
        <translation>位于您的服务之前的代理</translation>
    </message>
    <message>
        <source>The proxy has stopped</source>
        <translation>代理已停止</translation>
    </message>
    <message>
        <source>Your service:</source>
        <translation>您的服务：</translation>
    </message>
    <message>
        <source>Point your client at:</source>
        <translation>让客户端发送到：</translation>
    </message>
    <message>
        <source>Requests: %1
Orders: %2
Created: %3
Duplicates: %4
Orphans: %5</source>
        <translation>请求：%1
订单：%2
创建：%3
重复：%4
孤儿：%5</translation>
    </message>
    <message>
        <source>Idempotency check</source>
        <translation>幂等性检查</translation>
    </message>
    <message>
        <source>Endpoint:</source>
        <translation>接口：</translation>
    </message>
</context>
<context>
    <name>retrylab::TimelineLegend</name>
    <message>
        <source>record</source>
        <translation>记录</translation>
    </message>
    <message>
        <source>duplicate</source>
        <translation>重复记录</translation>
    </message>
    <message>
        <source>replay</source>
        <translation>重放</translation>
    </message>
    <message>
        <source>lost / reset</source>
        <translation>丢失 / 重置</translation>
    </message>
    <message>
        <source>timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>rejected / 5xx</source>
        <translation>拒绝 / 5xx</translation>
    </message>
    <message>
        <source>key</source>
        <translation>幂等键</translation>
    </message>
    <message>
        <source>status query</source>
        <translation>状态查询</translation>
    </message>
    <message>
        <source>wait before retry</source>
        <translation>重试前等待</translation>
    </message>
</context>
<context>
    <name>retrylab::TimelineOverview</name>
    <message>
        <source>Every operation of the run: ticks are HTTP attempts, dots are records (orange = duplicate). Click a row to show that operation.</source>
        <translation>本次运行的所有操作：刻线是 HTTP 尝试，圆点是记录（橙色 = 重复）。点击一行显示该操作。</translation>
    </message>
    <message>
        <source>No operations yet: run a scenario.</source>
        <translation>还没有操作：请运行一个场景。</translation>
    </message>
    <message>
        <source>op %1</source>
        <translation>操作 %1</translation>
    </message>
    <message>
        <source>1 attempt</source>
        <translation>1 次尝试</translation>
    </message>
    <message>
        <source>%1 attempts</source>
        <translation>%1 次尝试</translation>
    </message>
    <message>
        <source>1 record</source>
        <translation>1 条记录</translation>
    </message>
    <message>
        <source>%1 records</source>
        <translation>%1 条记录</translation>
    </message>
    <message>
        <source>1 duplicate</source>
        <translation>1 条重复</translation>
    </message>
    <message>
        <source>%1 duplicates</source>
        <translation>%1 条重复</translation>
    </message>
    <message>
        <source>no duplicate</source>
        <translation>无重复</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between the counts of attempts, records, duplicates</comment>
        <translation>，</translation>
    </message>
    <message>
        <source>Operation %1: %2; the client reported a failure. Click to show it.</source>
        <translation>操作 %1：%2；客户端报告失败。点击显示该操作。</translation>
    </message>
    <message>
        <source>Operation %1: %2. Click to show it.</source>
        <translation>操作 %1：%2。点击显示该操作。</translation>
    </message>
</context>
<context>
    <name>retrylab::TimelineScene</name>
    <message>
        <source>Business</source>
        <translation>业务</translation>
    </message>
    <message>
        <source>Wrapper</source>
        <translation>装饰器</translation>
    </message>
    <message>
        <source>Transport</source>
        <translation>传输层</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务端</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>数据库</translation>
    </message>
    <message numerus="yes">
        <source>%n waits of %1</source>
        <translation>
            <numerusform>%n 次等待，每次 %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>retrylab::TimelineWidget</name>
    <message>
        <source>Previous event (Left)</source>
        <translation>上一个事件（左方向键）</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Play / pause (Space)</source>
        <translation>播放 / 暂停（空格）</translation>
    </message>
    <message>
        <source>Next event (Right)</source>
        <translation>下一个事件（右方向键）</translation>
    </message>
    <message>
        <source>Playback speed: at 1x one second of simulated time takes one second, but every event gets a moment and long waits are shortened</source>
        <translation>回放速度：1x 时模拟时间的一秒用一秒播放，但每个事件都会停留片刻，长时间等待会被缩短</translation>
    </message>
    <message>
        <source>Scrub through the operation</source>
        <translation>拖动浏览该操作</translation>
    </message>
    <message>
        <source>Zoom out (-, Ctrl+wheel)</source>
        <translation>缩小（-，Ctrl+滚轮）</translation>
    </message>
    <message>
        <source>Zoom in (+, Ctrl+wheel)</source>
        <translation>放大（+，Ctrl+滚轮）</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>全览</translation>
    </message>
    <message>
        <source>Fit the whole operation</source>
        <translation>显示整个操作</translation>
    </message>
    <message>
        <source>op </source>
        <translation>操作 </translation>
    </message>
    <message>
        <source>The logical operation (order) shown in the swimlanes</source>
        <translation>泳道中显示的逻辑操作（订单）</translation>
    </message>
    <message>
        <source>All operations — ticks: attempts, dots: records; click a row to show it</source>
        <translation>所有操作——刻线：尝试，圆点：记录；点击一行显示该操作</translation>
    </message>
    <message>
        <source>Run a scenario to see its attempts here.</source>
        <translation>运行一个场景，即可在这里看到它的各次尝试。</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>%1 · until %2</source>
        <translation>%1 · 直到 %2</translation>
    </message>
    <message>
        <source>%1 · 1 attempt</source>
        <translation>%1 · 1 次尝试</translation>
    </message>
    <message>
        <source>%1 · %2 attempts</source>
        <translation>%1 · %2 次尝试</translation>
    </message>
    <message>
        <source>loop</source>
        <translation>循环</translation>
    </message>
    <message>
        <source>one send, no retries</source>
        <translation>只发送一次，不重试</translation>
    </message>
    <message>
        <source>urllib3 · %1 retries at most</source>
        <translation>urllib3 · 最多重试 %1 次</translation>
    </message>
    <message>
        <source>urllib3 · total %1</source>
        <translation>urllib3 · 重试总数 %1</translation>
    </message>
    <message>
        <source>real HTTP, loopback</source>
        <translation>真实 HTTP，回环地址</translation>
    </message>
    <message>
        <source>latency %1 ± %2 ms, normal</source>
        <translation>延迟 %1 ± %2 ms，正态分布</translation>
    </message>
    <message>
        <source>latency %1–%2 ms</source>
        <translation>延迟 %1–%2 ms</translation>
    </message>
    <message>
        <source>keys: %1</source>
        <translation>幂等键：%1</translation>
    </message>
    <message>
        <source>1 row, versioned</source>
        <translation>1 行，带版本号</translation>
    </message>
    <message>
        <source>%1 rows, versioned</source>
        <translation>%1 行，带版本号</translation>
    </message>
    <message>
        <source>orders table</source>
        <translation>订单表</translation>
    </message>
    <message>
        <source>your client: unseen</source>
        <translation>你的客户端：不可见</translation>
    </message>
    <message>
        <source>real HTTP</source>
        <translation>真实 HTTP</translation>
    </message>
    <message>
        <source>Waiting for requests: send an order to the address in the Watch panel.</source>
        <translation>等待请求：把订单发送到“监视”面板中的地址。</translation>
    </message>
    <message>
        <source>This run was made without a trace: nothing to replay.</source>
        <translation>本次运行没有跟踪记录：无法回放。</translation>
    </message>
    <message>
        <source>Operation %1 has no events in this run.</source>
        <translation>操作 %1 在本次运行中没有事件。</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Click any bar, arrow or mark for its attempt path, request ID, key and status.</source>
        <translation>点击任意条形、箭头或标记，查看其尝试路径、请求 ID、幂等键和状态。</translation>
    </message>
    <message>
        <source>unsupported image type &quot;%1&quot;: use .png or .svg</source>
        <translation>不支持的图片类型“%1”：请使用 .png 或 .svg</translation>
    </message>
    <message>
        <source>RetryLab · %1 · operation %2</source>
        <translation>RetryLab · %1 · 操作 %2</translation>
    </message>
    <message>
        <source>cannot write &quot;%1&quot;</source>
        <translation>无法写入“%1”</translation>
    </message>
    <message>
        <source>Attempt timeline exported from RetryLab</source>
        <translation>从 RetryLab 导出的尝试时间线</translation>
    </message>
    <message>
        <source>naive</source>
        <translation>先查后插</translation>
    </message>
    <message>
        <source>atomic</source>
        <translation>原子预留</translation>
    </message>
    <message>
        <source>token</source>
        <translation>服务端令牌</translation>
    </message>
    <message>
        <source>%1 starts: the client reads the shared row and wants its update written once.</source>
        <translation>%1 开始：客户端读取共享的数据行，希望它的更新只写入一次。</translation>
    </message>
    <message>
        <source>as the proxy saw it</source>
        <translation>代理所见</translation>
    </message>
    <message>
        <source>the proxy&apos;s faults</source>
        <translation>代理施加的故障</translation>
    </message>
    <message>
        <source>your service</source>
        <translation>你的服务</translation>
    </message>
    <message>
        <source>resources it created</source>
        <translation>它创建的资源</translation>
    </message>
    <message>
        <source>Waiting for requests: point your client at the proxy&apos;s address.</source>
        <translation>等待请求：让你的客户端连接代理的地址。</translation>
    </message>
    <message>
        <source>the check: no retry loop</source>
        <translation>检查：没有重试循环</translation>
    </message>
    <message>
        <source>as the check sent it</source>
        <translation>检查发出的请求</translation>
    </message>
    <message>
        <source>the check&apos;s proxy</source>
        <translation>检查使用的代理</translation>
    </message>
</context>
<context>
    <name>retrylab::WatchPanel</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the address</source>
        <translation>复制地址</translation>
    </message>
    <message>
        <source>The server is restarting: requests get no answer until it is back.</source>
        <translation>服务端正在重启：在恢复之前，请求不会得到应答。</translation>
    </message>
    <message>
        <source>An order without a key: send it twice, get two records</source>
        <translation>不带幂等键的订单：发送两次，得到两条记录</translation>
    </message>
    <message>
        <source>With an Idempotency-Key: send it twice, get one record and a replay</source>
        <translation>带 Idempotency-Key：发送两次，得到一条记录和一次重放</translation>
    </message>
    <message>
        <source>Python requests with a urllib3 Retry (retries the POST after a read timeout)</source>
        <translation>使用 urllib3 Retry 的 Python requests（读取超时后会重试 POST）</translation>
    </message>
    <message>
        <source>Show each new order on the timeline</source>
        <translation>在时间线上显示每个新订单</translation>
    </message>
    <message>
        <source>The timeline switches to the order of the latest request</source>
        <translation>时间线切换到最新请求所属的订单</translation>
    </message>
    <message>
        <source>Serve…</source>
        <translation>提供服务…</translation>
    </message>
    <message>
        <source>Stop serving</source>
        <translation>停止提供服务</translation>
    </message>
    <message>
        <source>Copy the command, ready to paste into a terminal</source>
        <translation>复制命令，可直接粘贴到终端</translation>
    </message>
    <message>
        <source>Not serving. The timeline, records and log keep the requests that arrived. Serve… starts the order service again, empty.</source>
        <translation>未在提供服务。时间线、记录和日志保留已到达的请求。“提供服务…”会重新启动一个空的订单服务。</translation>
    </message>
    <message>
        <source>Serving orders. Send them to:</source>
        <translation>正在提供订单服务。请发送到：</translation>
    </message>
    <message>
        <source>Also at: %1</source>
        <translation>也可用：%1</translation>
    </message>
    <message>
        <source>No network address found: only this computer can reach the server.</source>
        <translation>未找到网络地址：只有本机能访问服务端。</translation>
    </message>
    <message>
        <source>Admin token (for /admin/faults and /admin/reset): %1</source>
        <translation>管理令牌（用于 /admin/faults 和 /admin/reset）：%1</translation>
    </message>
    <message>
        <source>1 record</source>
        <translation>1 条记录</translation>
    </message>
    <message>
        <source>%1 records</source>
        <translation>%1 条记录</translation>
    </message>
    <message>
        <source>1 duplicate</source>
        <translation>1 条重复</translation>
    </message>
    <message>
        <source>%1 duplicates</source>
        <translation>%1 条重复</translation>
    </message>
    <message>
        <source>1 replay</source>
        <translation>1 次重放</translation>
    </message>
    <message>
        <source>%1 replays</source>
        <translation>%1 次重放</translation>
    </message>
    <message>
        <source>1 refused</source>
        <translation>1 个被拒绝</translation>
    </message>
    <message>
        <source>%1 refused</source>
        <translation>%1 个被拒绝</translation>
    </message>
    <message>
        <source>Last refused: %1, %2</source>
        <translation>最近一次拒绝：%1，%2</translation>
    </message>
    <message>
        <source>1 request arrived</source>
        <translation>已到达 1 个请求</translation>
    </message>
    <message>
        <source>%1 requests arrived</source>
        <translation>已到达 %1 个请求</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between the counts of records, duplicates, replays</comment>
        <translation>，</translation>
    </message>
    <message>
        <source>Only the newest %1 events are kept: 1 older event was dropped from the timeline, records and log (the counts above include them).</source>
        <translation>只保留最新的 %1 个事件：1 个较早的事件已从时间线、记录和日志中丢弃（上面的计数包括它）。</translation>
    </message>
    <message>
        <source>Only the newest %1 events are kept: %2 older events were dropped from the timeline, records and log (the counts above include them).</source>
        <translation>只保留最新的 %1 个事件：%2 个较早的事件已从时间线、记录和日志中丢弃（上面的计数包括它们）。</translation>
    </message>
</context>
<context>
    <name>retrylab::WatchServeDialog</name>
    <message>
        <source>Serve orders over HTTP</source>
        <translation>通过 HTTP 提供订单服务</translation>
    </message>
    <message>
        <source>Runs the order service with this scenario&apos;s server and fault settings, so curl, Python or any HTTP client can send it orders. Every request appears on the timeline and in the records.</source>
        <translation>用本场景的服务端和故障设置运行订单服务，curl、Python 或任何 HTTP 客户端都可以向它发送订单。每个请求都会出现在时间线和记录中。</translation>
    </message>
    <message>
        <source>The TCP port the server listens on</source>
        <translation>服务端监听的 TCP 端口</translation>
    </message>
    <message>
        <source>&amp;Port</source>
        <translation>端口(&amp;P)</translation>
    </message>
    <message>
        <source>If this port is in use, pick a free one</source>
        <translation>如果此端口已被占用，则选择一个空闲端口</translation>
    </message>
    <message>
        <source>Listen on the local network</source>
        <translation>在局域网上监听</translation>
    </message>
    <message>
        <source>Other computers (a class on their laptops) can send orders. The admin endpoints then need the token shown in the Watch panel.</source>
        <translation>其他电脑（例如全班同学的笔记本）也可以发送订单。此时管理端点需要“监视”面板中显示的令牌。</translation>
    </message>
    <message>
        <source>&amp;Serve</source>
        <translation>提供服务(&amp;S)</translation>
    </message>
</context>
<context>
    <name>retrylab::WatchSession</name>
    <message>
        <source>Port %1 is in use, so the server listens on port %2.</source>
        <translation>端口 %1 已被占用，因此服务端改为监听端口 %2。</translation>
    </message>
</context>
<context>
    <name>retrylab::WindowBudget</name>
    <message>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <source>this scenario could make up to %1 HTTP attempts (%2), more than the %3 the window runs; lower those settings, or use the command line (retrylab run --max-attempts N)</source>
        <translation>此场景最多可能发出 %1 次 HTTP 尝试（%2），超过窗口可运行的 %3 次；请调低这些设置，或改用命令行（retrylab run --max-attempts N）</translation>
    </message>
    <message>
        <source>up to %1 per HTTP attempt</source>
        <translation>每次 HTTP 尝试最多 %1 个</translation>
    </message>
    <message>
        <source>counted in a run of it</source>
        <translation>按一次完整运行计数</translation>
    </message>
    <message>
        <source>%1 per operation in a pilot of %2 operations</source>
        <translation>在 %2 个操作的试运行中每个操作 %1 个</translation>
    </message>
    <message>
        <source>this scenario would keep about %1 trace events in the window (%2; %3), more than the %4 it keeps within %5; lower those settings, or use the command line (retrylab run --trace FILE)</source>
        <translation>此场景会在窗口中保存约 %1 个跟踪事件（%2；%3），超过窗口在 %5 内可保存的 %4 个；请调低这些设置，或改用命令行（retrylab run --trace FILE）</translation>
    </message>
    <message>
        <source>the run passed the %1 trace events the window keeps within %2 (%3); lower those settings, or use the command line (retrylab run --trace FILE)</source>
        <translation>运行超过了窗口在 %2 内可保存的 %1 个跟踪事件（%3）；请调低这些设置，或改用命令行（retrylab run --trace FILE）</translation>
    </message>
    <message>
        <source>step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
    <message>
        <source>its %1 steps together would keep about %2 trace events, more than the %3 a handout keeps within %4; lower the steps&apos; workload.orders or retry layers&apos; attempts</source>
        <translation>它的 %1 个步骤合计会保存约 %2 个跟踪事件，超过讲义在 %4 内可保存的 %3 个；请调低这些步骤的 workload.orders 或重试层的尝试次数</translation>
    </message>
</context>
</TS>
