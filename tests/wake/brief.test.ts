import assert from "node:assert/strict";
import { Message } from "../../lib/core/types/message.ts";
import type { ToolSpec } from "../../lib/core/types/tool.ts";
import { toChatMessages, toChatTools } from "../../lib/providers/openai_chat.ts";
import { briefView, composeVolatile, nowPart } from "../../lib/wake/engaged/brief.ts";
import { composeCharter, manifestPart } from "../../lib/runtime/charter.ts";

const charterInput = {
  systemPrompt: "You are Ada.",
  initialize: "Be kind.",
  manifest: manifestPart([{ name: "memory" }, { name: "messages", note: "speak" }]),
};

Deno.test("the time anchor names UTC, the offset and the weekday", () => {
  const text = nowPart(new Date("2026-08-18T09:05:07Z"));
  assert.ok(text.startsWith("Current Time: 2026-08-18 09:05:07 UTC (+00:00, Tuesday)\n"));
});

Deno.test("the charter is byte-identical across wakes on different days with different memory", () => {
  const transcript = [
    Message.user("[t] bob: hi", { items: ["a"] }),
    Message.assistant({ content: "ok" }),
    Message.user("[t] bob: again", { items: ["b"] }),
  ];
  const day1 = briefView(
    composeCharter(charterInput),
    composeVolatile({ now: new Date("2026-08-18T00:00:00Z"), maxSteps: 24, memory: "m1" }),
  )(transcript);
  const day2 = briefView(
    composeCharter(charterInput),
    composeVolatile({
      now: new Date("2026-09-01T00:00:00Z"),
      maxSteps: 24,
      memory: "m2",
      dashboard: "# dash",
    }),
  )(transcript);
  // Charter + frozen transcript up to the newest user turn: identical prefix bytes.
  assert.equal(JSON.stringify(day1.slice(0, 3)), JSON.stringify(day2.slice(0, 3)));
  assert.equal(day1[0].role, "system");
  assert.equal(
    day1[0].content,
    "You are Ada.\n\nBe kind.\n\nYour active tools right now:\n- memory\n- messages — speak",
  );
  // The volatile part sits immediately before the newest user turn.
  assert.equal(day1[3].role, "system");
  assert.ok(day1[3].content?.startsWith("Current Time: 2026-08-18"));
  assert.ok(day2[3].content?.includes("# dash"));
  assert.equal(day1[4], transcript[2]);
  // The transcript itself is untouched.
  assert.equal(transcript.length, 3);
});

Deno.test("injected user turns are not the splice point; no user turn appends at the end", () => {
  const view = briefView(undefined, "V");
  const out = view([
    Message.user("real", { items: ["a"] }),
    Message.user("(Showing image: x)", { injected: true }),
  ]);
  assert.deepEqual(out.map((m) => m.content), ["V", "real", "(Showing image: x)"]);
  assert.deepEqual(view([Message.assistant({ content: "x" })]).map((m) => m.content), ["x", "V"]);
});

Deno.test("blank parts are omitted; the budget names the messages tool", () => {
  const text = composeVolatile({ now: new Date(0), maxSteps: 7, dashboard: "  " });
  assert.equal(text.split("\n\n").length, 2);
  assert.ok(text.includes("up to 7 steps") && text.includes("`messages` tool"));
  assert.equal(composeCharter({}), undefined);
});

Deno.test("explicit cache mode: a first wake anchors the charter, never the brief or new turn", () => {
  const live = [Message.user("[t] bob: hi", { items: ["a"] })];
  const view = briefView("CHARTER", "VOLATILE", "explicit")(live);
  assert.deepEqual(view.map((m) => m.content), ["CHARTER", "VOLATILE", "[t] bob: hi"]);
  assert.deepEqual(view.map((m) => m.cacheAnchor === true), [true, false, false]);
  assert.equal(live[0].cacheAnchor, undefined);
});

Deno.test("explicit cache mode: a later wake anchors the last frozen non-tool turn with content", () => {
  const live: Message[] = [
    Message.user("[t] bob: weather?", { items: ["a"] }),
    Message.assistant({ content: "Looking.", toolCalls: [{ id: "c1", name: "w", arguments: {} }] }),
    Message.tool("c1", "-5 C"),
    Message.assistant({ content: null, toolCalls: [{ id: "c2", name: "w", arguments: {} }] }),
    Message.tool("c2", "-6 C"),
    Message.user("[t] bob: again", { items: ["b"] }),
  ];
  const before = JSON.stringify(live);
  const view = briefView("CHARTER", "VOLATILE", "explicit")(live);
  const anchored = view.flatMap((m, i) => (m.cacheAnchor ? [i] : []));
  // Exactly one anchor: on "Looking." (the tool turns and the content-less call turn are skipped).
  assert.deepEqual(anchored, [2]);
  assert.equal(view[2].content, "Looking.");
  assert.notEqual(view[2], live[1]); // a copy, not the live message
  assert.equal(view[6].content, "VOLATILE");
  assert.equal(view[6].cacheAnchor, undefined);
  assert.equal(view[7], live[5]);
  // The live transcript is not mutated.
  assert.equal(JSON.stringify(live), before);
  assert.ok(live.every((m) => m.cacheAnchor === undefined));
});

Deno.test("explicit cache mode: no user turn anchors before the appended brief; others never anchor", () => {
  const live = [Message.user("real", { items: ["a"] }), Message.assistant({ content: "done" })];
  const explicit = briefView("C", "V", "explicit");
  // The newest user turn is the boundary, so "real" and "done" are not frozen: the charter is.
  assert.deepEqual(explicit(live).map((m) => m.cacheAnchor === true), [true, false, false, false]);
  const noUser = [Message.assistant({ content: "x" })];
  assert.deepEqual(explicit(noUser).map((m) => [m.content, m.cacheAnchor === true]), [
    ["C", false],
    ["x", true],
    ["V", false],
  ]);
  for (const mode of [undefined, "automatic", "none"] as const) {
    assert.ok(briefView("C", "V", mode)(live).every((m) => m.cacheAnchor === undefined));
  }
});

const TOOLS: ToolSpec[] = [
  {
    name: "memory",
    description: "Search and store long-term memory.",
    parameters: { type: "object", properties: { query: { type: "string" } } },
  },
  {
    name: "messages",
    description: "Post to a timeline.",
    parameters: { type: "object", properties: { body: { type: "string" } } },
  },
];
const DATE_OR_TIME = /\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}(:\d{2})?|Current Time|\bUTC\b/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

Deno.test("golden prefix: the tools and charter sent carry no time, uuid or memory", () => {
  const charter = composeCharter(charterInput);
  const wakes = [
    {
      now: new Date("2026-08-18T09:05:07Z"),
      memory: "Bob's cat is called Miso (recalled 2026-08-17).",
      dashboard: "# Dashboard\n- bob (3f1c2a9e-0b7d-4c55-9e2a-6b1f0c3d4e5f) online at 09:00",
      peer: "bob",
    },
    {
      now: new Date("2026-09-01T23:59:59Z"),
      memory: "Carol prefers tea; meeting moved to Friday 14:30.",
      dashboard:
        "# Dashboard\n- carol (9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d) away since 2026-09-01",
      peer: "carol",
    },
  ];
  const sent = wakes.map((wake) => {
    const transcript = [Message.user(`[2026-08-18 09:00:00] ${wake.peer}: hi`, { items: ["x"] })];
    const view = briefView(
      charter,
      composeVolatile({ ...wake, maxSteps: 24 }),
    )(transcript);
    return { tools: toChatTools(TOOLS), messages: toChatMessages(view) };
  });
  const golden = sent.map((s) => JSON.stringify({ tools: s.tools, charter: s.messages[0] }));
  // Byte-identical across the two wakes...
  assert.equal(golden[0], golden[1]);
  // ...and free of anything that varies per wake.
  for (const text of golden) {
    assert.doesNotMatch(text, DATE_OR_TIME);
    assert.doesNotMatch(text, UUID);
    for (const wake of wakes) {
      assert.ok(!text.includes(wake.memory), "memory text in the golden prefix");
      assert.ok(!text.includes("Miso") && !text.includes("tea"));
      assert.ok(!text.includes("Dashboard"));
    }
  }
  // The varying parts did reach the model, after the golden prefix, in the volatile brief.
  sent.forEach((s, i) => {
    assert.equal(s.messages[0].content, charter);
    const brief = String(s.messages[1].content);
    assert.ok(brief.includes(wakes[i].memory) && brief.includes(wakes[i].dashboard));
    assert.match(brief, DATE_OR_TIME);
    assert.match(brief, UUID);
  });
});
