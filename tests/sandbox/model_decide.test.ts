/** The demo model's decision rule, as a pure function of the conversation. */
import { strict as assert } from "node:assert";
import {
  decide,
  type DemoTurn,
  newestPeerLine,
  newestUserTurn,
  reply,
  SILENCE_DIRECTIVE,
} from "../../lib/sandbox/model/mod.ts";

const note: DemoTurn = { role: "system", text: "Current Time: x\n\nStep 1 of 24." };
const ask: DemoTurn = { role: "user", text: "[2026-01-01T09:00:00Z] ada: ping?" };
const call = { id: "call_1", name: "messages", arguments: "{}" };

Deno.test("decide: answers once per real user turn, not per injected caption", () => {
  const first = decide({ turns: [ask, note], tools: ["messages", "web_fetch"] });
  assert.equal(first.kind, "call");
  const after = [
    ask,
    note,
    { role: "assistant", text: "", calls: [call] },
    { role: "tool", callId: "call_1", text: "Posted." },
    // an image caption after tool results is the turn's own work, not a new question
    { role: "user", text: "(Showing image: cat.png)" },
    note,
  ] as DemoTurn[];
  assert.deepEqual(decide({ turns: after, tools: ["messages"] }), {
    kind: "text",
    text: "Answered @ada's question on the timeline.",
  });
  // a user turn after tool results is injected even without a caption prefix
  const injected = [...after.slice(0, 4), note, { role: "user", text: "note" }] as DemoTurn[];
  assert.equal(newestUserTurn(injected), 0);
  // a new real user turn is answered again
  const next = [...after, { role: "assistant", text: "done", calls: [] }, {
    role: "user",
    text: "[2026-01-01T09:05:00Z] ada: and again",
  }] as DemoTurn[];
  assert.equal(decide({ turns: next, tools: ["messages"] }).kind, "call");
});

Deno.test("decide: without a messages tool, or without any user turn, it narrates", () => {
  assert.equal(decide({ turns: [ask], tools: ["web_fetch"] }).kind, "text");
  assert.deepEqual(decide({ turns: [note], tools: ["messages"] }), {
    kind: "text",
    text: "Nothing new to answer this turn.",
  });
});

Deno.test("decide: another demo model's reply is never answered (no endless echo)", () => {
  const echo: DemoTurn = {
    role: "user",
    text: "[2026-01-01T09:00:00Z] bot2: (sandbox demo model) @me thanks for the message — …",
  };
  const decision = decide({ turns: [echo], tools: ["messages"] });
  assert.equal(decision.kind, "text");
  assert.match(decision.kind === "text" ? decision.text : "", /^Stayed quiet: @bot2's/);
});

Deno.test("peer lines: the newest wins, bodies span lines, quoted mentions lose their @", () => {
  const text = "[t1] bob: first\n[t2] @ada: line one\nline two @carol";
  assert.deepEqual(newestPeerLine(text), {
    createdAt: "t2",
    handle: "ada",
    body: "line one\nline two @carol",
  });
  assert.equal(newestPeerLine("no header here"), undefined);
  const body = reply(text);
  assert.match(body, /^\(sandbox demo model\) @ada thanks for the message — I read 5 words/);
  assert.match(body, /"line one line two carol"/);
  assert.doesNotMatch(body, /@carol/);
  assert.match(reply("A task activated."), /^\(sandbox demo model\) Thanks for the message/);
  assert.match(reply("   "), /It was empty\./);
});

Deno.test("decide: a charter line 'sandbox-model: stay silent' keeps it from ever speaking", () => {
  const charter: DemoTurn = {
    role: "system",
    text: `You are Ada.\n  ${SILENCE_DIRECTIVE.toUpperCase()}  \nBe kind.`,
  };
  assert.deepEqual(decide({ turns: [charter, ask, note], tools: ["messages"] }), {
    kind: "text",
    text: "Stayed quiet: my charter tells me to stay silent.",
  });
  // Mentioned inside a sentence it is not the directive: the model answers as usual.
  const prose: DemoTurn = { role: "system", text: `Never write "${SILENCE_DIRECTIVE}".` };
  assert.equal(decide({ turns: [prose, ask, note], tools: ["messages"] }).kind, "call");
});
