/**
 * Cache safety on the Anthropic request, as the bytes went over the wire (the real SDK against
 * the wire mock): two turns of one agent on one timeline, on different days, answering different
 * contacts, with different recalled memory and different notes, composed by the wake's own
 * brief and working-state functions. Up to each of the two breakpoints the rendered requests are
 * byte-identical, and nothing volatile — a date, a contact, a memory, a note — sits before
 * either breakpoint. Whether the cache entry is still warm is a production number
 * (`cached_tokens`), not something a test can assert.
 */
import assert from "node:assert/strict";
import { Message } from "../../lib/core/types/message.ts";
import type { ToolSpec } from "../../lib/core/types/tool.ts";
import { AnthropicProvider } from "../../lib/providers/anthropic.ts";
import { renderPrefixes } from "../../lib/sandbox/model/anthropic_cache.ts";
import { briefView, composeVolatile, withKnowledge } from "../../lib/wake/engaged/brief.ts";
import { loadKnowledgePack } from "../../lib/config/knowledge.ts";
import { withWorkingState } from "../../lib/wake/engaged/working_state.ts";
import { composeWorkingState } from "../../lib/wake/engaged/working_state_block.ts";
import { anthropicMessage, ModelMock } from "../support/model_mock.ts";

const CHARTER = "You are Vega, an AI peer on BaseCradle.\n\nBe brief and kind.";
const TOOLS: ToolSpec[] = ["messages", "note_write", "users"].map((name) => ({
  name,
  description: `the ${name} tool`,
  parameters: { type: "object", properties: { action: { type: "string" } } },
}));

/** The timeline's saved conversation before the new turn: identical for both turns. */
const FROZEN: Message[] = [
  Message.user("[2026-11-20T08:00:00Z] dan: hello all", { items: ["i1"] }),
  Message.system("Current Time: 2026-11-20 08:00:01 UTC\n\nStep 1 of 24."),
  Message.assistant({
    content: null,
    toolCalls: [{ id: "c1", name: "messages", arguments: { action: "create", body: "Hi!" } }],
  }),
  Message.tool("c1", "posted"),
  Message.system("Current Time: 2026-11-20 08:00:03 UTC\n\nStep 2 of 24."),
  Message.assistant({ content: "Greeted the timeline." }),
];

interface Turn {
  readonly now: Date;
  readonly contact: string;
  readonly memory: string;
  readonly note: readonly [string, string];
}

const TURNS: readonly Turn[] = [
  {
    now: new Date("2026-12-01T09:15:00Z"),
    contact: "bob",
    memory: "Relevant memories from past conversations:\n- bob prefers tea",
    note: ["client/bob", "Wants the report by Friday"],
  },
  {
    now: new Date("2026-12-09T21:40:00Z"),
    contact: "carol",
    memory: "Relevant memories from past conversations:\n- carol is vegan",
    note: ["client/carol", "Asked about the venue"],
  },
];

/** One turn's first request, as the SDK put it on the wire. */
async function firstRequest(turn: Turn, lead = CHARTER): Promise<Record<string, unknown>> {
  await using mock = await ModelMock.start();
  mock.reply("messages", { json: anthropicMessage() });
  const provider = new AnthropicProvider({
    model: "claude-test",
    apiKey: "k",
    baseURL: mock.origin,
  });
  const stamp = turn.now.toISOString();
  const live = [
    ...FROZEN,
    Message.user(`[${stamp}] ${turn.contact}: are you there?`, { items: ["i2"] }),
    Message.system(`Current Time: ${stamp.slice(0, 19).replace("T", " ")} UTC\n\nStep 1 of 24.`),
  ];
  const volatile = composeVolatile({ now: turn.now, maxSteps: 24, memory: turn.memory });
  const view = withWorkingState(
    briefView(lead, volatile, provider.cacheMode),
    composeWorkingState([turn.note], []),
    null,
  );
  await provider.chat(await view(live), TOOLS);
  return mock.lastBody("messages");
}

Deno.test("anthropic cache: two turns on different days, contacts, memory and notes share every byte up to each breakpoint", async () => {
  const [a, b] = await Promise.all(TURNS.map((turn) => firstRequest(turn)));
  const pa = renderPrefixes(a);
  const pb = renderPrefixes(b);
  assert.equal(pa.prefixes.length, 2, "exactly two breakpoints");
  assert.equal(pb.prefixes.length, 2, "exactly two breakpoints");
  assert.equal(pa.prefixes[0], pb.prefixes[0], "bytes up to breakpoint 1");
  assert.equal(pa.prefixes[1], pb.prefixes[1], "bytes up to breakpoint 2");
  // The requests do differ — after the breakpoints.
  assert.notEqual(pa.whole, pb.whole);
  for (const [turn, rendered] of [[TURNS[0], pa], [TURNS[1], pb]] as const) {
    const cached = rendered.prefixes[1];
    for (const volatile of [turn.now.toISOString().slice(0, 10), turn.contact, turn.note[1]]) {
      assert.ok(!cached.includes(volatile), `'${volatile}' sits before a breakpoint`);
      assert.ok(rendered.whole.includes(volatile), `'${volatile}' is not in the request at all`);
    }
    assert.ok(!cached.includes(turn.memory.split("\n")[1]), "memory before a breakpoint");
    assert.ok(!cached.includes("Current Time: 2026-12"), "the now line before a breakpoint");
    assert.ok(!cached.includes("<working-state>"), "the notes block before a breakpoint");
  }
  // Breakpoint 1 covers the tools and the charter; breakpoint 2 ends on the last saved turn.
  assert.ok(pa.prefixes[0].endsWith(`${JSON.stringify({ type: "text", text: CHARTER })}\n`));
  assert.ok(pa.prefixes[1].endsWith('"text":"Greeted the timeline."}\n'));
});

const DATE = /\b20\d\d-\d\d-\d\d\b|\b\d\d:\d\d(:\d\d)?\b/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

Deno.test("anthropic cache: with a knowledge pack, both turns share every byte up to each breakpoint and the pack sits in breakpoint 1", async () => {
  const home = await Deno.makeTempDir({ prefix: "knowledge-prefix-" });
  try {
    await Deno.mkdir(`${home}/knowledge`);
    // Written as an operator might: CRLF line endings, a note, files out of order.
    await Deno.writeTextFile(
      `${home}/knowledge/refunds.md`,
      "# Refunds\r\nRefunds go through the billing desk.\r\n<!-- reviewed by ops -->\r\n",
    );
    await Deno.writeTextFile(
      `${home}/knowledge/faq.md`,
      "# FAQ\nThe office is closed on Sundays.\n",
    );
    const pack = await loadKnowledgePack(home);
    const lead = withKnowledge(CHARTER, pack.text)!;
    const [a, b] = await Promise.all(TURNS.map((turn) => firstRequest(turn, lead)));
    const pa = renderPrefixes(a);
    const pb = renderPrefixes(b);
    assert.equal(pa.prefixes.length, 2, "exactly two breakpoints");
    assert.equal(pa.prefixes[0], pb.prefixes[0], "bytes up to breakpoint 1");
    assert.equal(pa.prefixes[1], pb.prefixes[1], "bytes up to breakpoint 2");
    assert.notEqual(pa.whole, pb.whole);
    // Breakpoint 1 ends on the charter with the pack after it, in file-name order.
    assert.ok(pa.prefixes[0].endsWith(`${JSON.stringify({ type: "text", text: lead })}\n`));
    const cached1 = pa.prefixes[0];
    assert.ok(cached1.indexOf("knowledge/faq.md") < cached1.indexOf("knowledge/refunds.md"));
    assert.ok(cached1.indexOf(CHARTER) < cached1.indexOf("Knowledge pack:"));
    assert.ok(!cached1.includes("reviewed by ops") && !cached1.includes("\\r"));
    for (const [turn, rendered] of [[TURNS[0], pa], [TURNS[1], pb]] as const) {
      // The tools, the charter and the pack are free of dates, times and ids (the saved turns
      // before breakpoint 2 carry their own old stamps, the same in both turns) …
      assert.doesNotMatch(rendered.prefixes[0], DATE);
      assert.doesNotMatch(rendered.prefixes[0], UUID);
      // … and nothing before either breakpoint is one of this turn's facts.
      const cached = rendered.prefixes[1];
      for (const fact of [turn.contact, turn.note[1], turn.memory.split("\n")[1]]) {
        assert.ok(!cached.includes(fact), `'${fact}' sits before a breakpoint`);
        assert.ok(rendered.whole.includes(fact), `'${fact}' is not in the request at all`);
      }
    }
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
