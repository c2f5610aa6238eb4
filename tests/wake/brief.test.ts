import assert from "node:assert/strict";
import { Message } from "../../lib/core/message.ts";
import {
  briefView,
  composeCharter,
  composeVolatile,
  manifestPart,
  nowPart,
} from "../../lib/wake/brief.ts";

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
