import { deepStrictEqual } from "node:assert/strict";
import {
  billingBlocked,
  billingOnset,
  billingRecovered,
  cleanupFailed,
  contextAttribution,
  contextCompact,
  contextLimit,
  degraded,
  dropped,
  imageDegraded,
  imageWithheld,
  llmCall,
  mediaCall,
  MemoryJournal,
  permanentFailure,
  posted,
  postFailed,
  recovered,
  REDRIVE_UNSEEN,
  reDriving,
  reIssued,
  reserveSummary,
  resuming,
  stepLine,
  toolRun,
  unspoken,
  wakeEnd,
  wakeFailed,
  wakeSkipped,
  wakeStart,
  wakeUsedSteps,
} from "../../lib/journal/mod.ts";

const T = "0b7c9a52-1f4e-4c1d-9a3b-2e5f6a7b8c9d";
const D = "d-42";
const plain = () => new MemoryJournal();
const coloured = () => new MemoryJournal({ env: () => undefined });

Deno.test("the representative wake of the line catalogue, line by line, colours off", () => {
  const j = plain();
  wakeStart(j, { timeline: T, provider: "openai", model: "gpt-5.4-mini", delivery: D });
  contextAttribution(j, {
    source: `timeline:${T}`,
    messages: 3,
    tools: 5120,
    toolsCount: 9,
    brief: 800,
    briefParts: [["time", 60], ["steps", 40], ["dashboard", 700]],
    history: { charter: 2000, summary: 0, steps: 90, user: 120, assistant: 0, tool: 0, other: 0 },
    images: 0,
  });
  llmCall(j, {
    provider: "openai",
    model: "gpt-5.4-mini",
    seconds: 3.41,
    tokensIn: 4210,
    tokensOut: 96,
    tokensTotal: 4306,
  });
  toolRun(j, { name: "messages", seconds: 0.09 });
  posted(j, { message: "m-1", timeline: T, kind: "tool", chars: 184 });
  stepLine(j, { step: 1, maxSteps: 24, tools: ["messages"], seconds: 3.5 });
  llmCall(j, {
    provider: "openai",
    model: "gpt-5.4-mini",
    seconds: 2.02,
    tokensIn: 4390,
    tokensOut: 71,
    tokensTotal: 4461,
  });
  stepLine(j, { step: 2, maxSteps: 24, tools: [], seconds: 2.02 });
  wakeUsedSteps(j, { used: 2, maxSteps: 24 });
  unspoken(j, { timeline: T, kind: "narration", text: "Answered John's status question." });
  wakeEnd(j, {
    timeline: T,
    outcome: "ok",
    turns: 1,
    steps: 2,
    maxSteps: 24,
    posted: 1,
    seconds: 6.12,
    delivery: D,
  });
  deepStrictEqual(j.lines, [
    `INFO wake start timeline=${T} provider=openai model=gpt-5.4-mini delivery=${D}`,
    `INFO context attribution unit=chars source=timeline:${T} total=8130 messages=3 tools=5120 ` +
    `tools_count=9 brief=800 brief_time=60 brief_steps=40 brief_dashboard=700 history=2210 ` +
    `history_charter=2000 history_summary=0 history_steps=90 history_user=120 ` +
    `history_assistant=0 history_tool=0 history_other=0 images=0`,
    "INFO llm provider=openai model=gpt-5.4-mini duration=3.41s tokens_in=4210 tokens_out=96 tokens_total=4306",
    "INFO tool name=messages duration=0.09s outcome=ok",
    `INFO posted message=m-1 timeline=${T} kind=tool chars=184`,
    "INFO step 1/24: tools=messages (3.50s)",
    "INFO llm provider=openai model=gpt-5.4-mini duration=2.02s tokens_in=4390 tokens_out=71 tokens_total=4461",
    "INFO step 2/24: final reply (2.02s)",
    "INFO wake used 2/24 steps",
    `INFO unspoken timeline=${T} kind=narration chars=32 text="Answered John's status question."`,
    `INFO wake end timeline=${T} outcome=ok turns=1 steps=2/24 posted=1 duration=6.12s delivery=${D}`,
  ]);
});

Deno.test("lifecycle verdicts: heads coloured, fields in order, optional fields omitted", () => {
  const j = coloured();
  wakeStart(j, {
    timeline: T,
    trigger: { message: null, event: "e-1", asset: "a-1" },
    provider: "xai",
    model: "grok-4",
  });
  wakeStart(j, { timeline: T, trigger: {}, provider: "xai", model: "grok-4" });
  wakeEnd(j, {
    timeline: T,
    outcome: "error",
    turns: 0,
    steps: 0,
    maxSteps: 24,
    posted: 0,
    seconds: 0.5,
  });
  wakeEnd(j, {
    timeline: T,
    outcome: "declined",
    turns: 0,
    steps: 0,
    maxSteps: 24,
    posted: 0,
    seconds: 0,
    delivery: D,
  });
  wakeSkipped(j, { timeline: T, delivery: D });
  wakeFailed(j, { timeline: T, error: "HTTP 500\nfrom platform", delivery: null });
  deepStrictEqual(j.lines, [
    `INFO \x1b[32mwake start\x1b[0m timeline=${T} trigger=event:e-1 provider=xai model=grok-4`,
    `INFO \x1b[32mwake start\x1b[0m timeline=${T} provider=xai model=grok-4`,
    `INFO \x1b[34mwake end\x1b[0m timeline=${T} \x1b[31moutcome=error\x1b[0m turns=0 steps=0/24 posted=0 duration=0.50s`,
    `INFO \x1b[34mwake end\x1b[0m timeline=${T} \x1b[33moutcome=declined\x1b[0m turns=0 steps=0/24 posted=0 duration=0.00s delivery=${D}`,
    `INFO \x1b[33mwake skipped\x1b[0m timeline=${T} delivery=${D} reason=timeline_deleted`,
    `ERROR \x1b[31mwake failed\x1b[0m timeline=${T} error="HTTP 500 from platform"`,
  ]);
});

Deno.test("billing and permanent failure needles", () => {
  const j = plain();
  billingOnset(j, { provider: "openrouter", timeline: T, delivery: D });
  billingBlocked(j, { provider: "openrouter", timeline: T });
  billingRecovered(j, { timeline: T, delivery: D });
  permanentFailure(j, {
    reason: "context_length",
    provider: "openai",
    item: "i-1",
    timeline: T,
  });
  // The log-grammar probe: no provider, source/agent trailing, shipped as INFO.
  billingOnset(j, { reason: "log_grammar_probe", source: "probe", agent: "briggs" }, "INFO");
  billingBlocked(j, { reason: "log_grammar_probe", source: "probe", agent: "briggs" }, "INFO");
  deepStrictEqual(j.lines, [
    `ERROR wake reported_failure kind=billing reason=out_of_funds provider=openrouter timeline=${T} delivery=${D}`,
    `WARNING wake billing_blocked reason=out_of_funds provider=openrouter timeline=${T}`,
    `INFO wake billing_recovered timeline=${T} delivery=${D}`,
    `ERROR wake reported_failure kind=permanent reason=context_length provider=openai item=i-1 timeline=${T}`,
    "INFO wake reported_failure kind=billing reason=log_grammar_probe source=probe agent=briggs",
    "INFO wake billing_blocked reason=log_grammar_probe source=probe agent=briggs",
  ]);
  const c = coloured();
  billingOnset(c, { timeline: T });
  billingBlocked(c, { timeline: T });
  billingRecovered(c, { timeline: T });
  deepStrictEqual(c.lines, [
    `ERROR \x1b[31mwake reported_failure\x1b[0m kind=billing reason=out_of_funds timeline=${T}`,
    `WARNING \x1b[33mwake billing_blocked\x1b[0m reason=out_of_funds timeline=${T}`,
    `INFO \x1b[32mwake billing_recovered\x1b[0m timeline=${T}`,
  ]);
});

Deno.test("degraded, post failed (red only from the tool), cleanup failed", () => {
  const j = coloured();
  degraded(j, { timeline: T, reason: "reserve summary produced no text" });
  postFailed(j, { timeline: T, kind: "tool", error: "403 locked" });
  postFailed(j, { timeline: T, kind: "probe-ack", error: "403 locked" });
  cleanupFailed(j, { error: "disk full" });
  deepStrictEqual(j.lines, [
    `WARNING \x1b[33mdegraded\x1b[0m timeline=${T} reason="reserve summary produced no text"`,
    `ERROR \x1b[31mpost failed\x1b[0m timeline=${T} kind=tool error="403 locked"`,
    `ERROR post failed timeline=${T} kind=probe-ack error="403 locked"`,
    `ERROR \x1b[31mcleanup failed\x1b[0m error="disk full"`,
  ]);
});

Deno.test("fact lines: llm with every optional field, media, tool failure pair", () => {
  const j = coloured();
  llmCall(j, {
    provider: "openrouter",
    endpoint: "StreamLake",
    model: "z-ai/glm-5.2",
    seconds: 1.005,
    tokensIn: 10,
    tokensOut: 0,
    tokensTotal: 10,
    cachedTokens: 0,
    cost: 0.0445,
  });
  llmCall(j, { provider: "openai", model: "m", seconds: 1, cost: Number.NaN });
  mediaCall(j, {
    provider: "xai",
    kind: "image.generate",
    model: "grok-imagine",
    seconds: 12.3,
    cost: 0.07,
  });
  toolRun(j, {
    name: "web_fetch",
    seconds: 0.4,
    error: "GET https://x.test/?api_key=abc failed\n502",
  });
  toolRun(j, { name: "shell", seconds: 0, error: "" });
  deepStrictEqual(j.lines, [
    "INFO llm provider=openrouter endpoint=StreamLake model=z-ai/glm-5.2 duration=1.00s tokens_in=10 tokens_out=0 tokens_total=10 cached_tokens=0 cost=0.0445",
    "INFO llm provider=openai model=m duration=1.00s",
    "INFO media provider=xai kind=image.generate model=grok-imagine duration=12.30s cost=0.07",
    "INFO tool name=web_fetch duration=0.40s \x1b[31moutcome=error\x1b[0m",
    'WARNING tool name=web_fetch error="GET https://x.test/[redacted] failed 502"',
    "INFO tool name=shell duration=0.00s \x1b[31moutcome=error\x1b[0m",
    "WARNING tool name=shell",
  ]);
});

Deno.test("unspoken: never truncated, always quoted, chars in code points, secrets scrubbed", () => {
  const j = plain();
  const long = "🙂 ".repeat(300).trim(); // 599 code points
  unspoken(j, { kind: "reserve", text: long });
  unspoken(j, { timeline: T, kind: "stuck", text: "" });
  unspoken(j, { timeline: T, kind: "narration", text: 'Key sk-or-v1abcdefgh; said "no".\nDone.' });
  deepStrictEqual(j.lines, [
    `INFO unspoken kind=reserve chars=599 text="${long}"`,
    `INFO unspoken timeline=${T} kind=stuck chars=0 text=""`,
    `INFO unspoken timeline=${T} kind=narration chars=38 text="Key [redacted]; said 'no'. Done."`,
  ]);
});

Deno.test("step ledger: tools, final reply, hook continue, used and reserve", () => {
  const j = plain();
  stepLine(j, { step: 3, maxSteps: 24, tools: ["messages", "memory"], seconds: 1.234 });
  stepLine(j, { step: 4, maxSteps: 24, tools: [], hookContinue: true, seconds: 0.1 });
  stepLine(j, { step: 5, maxSteps: 24, tools: [], seconds: 0.1 });
  wakeUsedSteps(j, { used: 5, maxSteps: 24 });
  reserveSummary(j, { maxSteps: 24 });
  deepStrictEqual(j.lines, [
    "INFO step 3/24: tools=messages,memory (1.23s)",
    "INFO step 4/24: hook continue (0.10s)",
    "INFO step 5/24: final reply (0.10s)",
    "INFO wake used 5/24 steps",
    "WARNING wake used 24/24 steps + reserve summary",
  ]);
});

Deno.test("context limit and compact, normal and emergency", () => {
  const j = plain();
  contextLimit(j, { limit: 128000, source: "default", compactAt: 64000 });
  contextCompact(j, {
    tokensIn: 70123,
    limit: 128000,
    source: "adapter",
    threshold: 64000,
    messagesBefore: 41,
    messagesAfter: 9,
    charsBefore: 250000,
    charsAfter: 60000,
    summarized: 33,
  });
  contextCompact(j, {
    limit: 20000,
    source: "env",
    threshold: 10000,
    messagesBefore: 12,
    messagesAfter: 4,
    charsBefore: 90000,
    charsAfter: 9000,
    summarized: 9,
    emergency: true,
  });
  deepStrictEqual(j.lines, [
    "INFO context limit limit=128000 source=default compact_at=64000",
    "INFO context compact tokens_in=70123 limit=128000 source=adapter threshold=64000 messages=41→9 chars=250000→60000 summarized=33",
    "INFO context compact limit=20000 source=env threshold=10000 messages=12→4 chars=90000→9000 summarized=9 emergency=yes",
  ]);
});

Deno.test("recovery lines", () => {
  const j = plain();
  reDriving(j, {
    item: "i-1",
    kind: "message",
    timeline: T,
    handle: "john",
    reason: REDRIVE_UNSEEN,
  });
  resuming(j, { item: "i-2", kind: "message", timeline: T });
  recovered(j, { item: "i-3", kind: "event", timeline: T, handle: null });
  dropped(j, { item: "i-4", kind: "asset", timeline: T, reason: "evidence compacted away" });
  reIssued(j, { tool: "messages", kind: "message", ordinal: 2, timeline: T });
  deepStrictEqual(j.lines, [
    `WARNING re-driving item=i-1 kind=message timeline=${T} handle=john reason="the wake died before the model ever saw it"`,
    `WARNING resuming item=i-2 kind=message timeline=${T} reason="the wake died mid-tool-chain; finishing the turn it started"`,
    `INFO recovered item=i-3 kind=event timeline=${T} action=turn-completed`,
    `ERROR dropped item=i-4 kind=asset timeline=${T} reason="evidence compacted away"`,
    `WARNING re-issued tool=messages kind=message ordinal=2 timeline=${T}`,
  ]);
});

Deno.test("image lines", () => {
  const j = plain();
  imageDegraded(j, { timeline: T, asset: "a-1", filename: "cat photo.png", model: "m" });
  imageWithheld(j, { images: "a.png,b.png", model: "m" });
  deepStrictEqual(j.lines, [
    `WARNING image degraded to text timeline=${T} asset=a-1 filename="cat photo.png" model=m reason="model has no vision input"`,
    'WARNING view image withheld from a model with no vision images=a.png,b.png model=m reason="model has no image input"',
  ]);
});
