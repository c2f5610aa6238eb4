import assert from "node:assert/strict";
import { Compactor } from "../../lib/core/compaction/compaction.ts";
import { withOverflowHeal } from "../../lib/core/compaction/heal.ts";
import { isSummary } from "../../lib/core/types/summary_marker.ts";
import { ContextCeiling } from "../../lib/core/compaction/context_ceiling.ts";
import { Engine } from "../../lib/core/engine.ts";
import { ProviderAuthError, ProviderContextLengthError } from "../../lib/core/types/faults.ts";
import { Message } from "../../lib/core/types/message.ts";
import { ToolRegistry } from "../../lib/core/registry.ts";
import {
  calls,
  EchoTool,
  RecordingJournal,
  type Scripted,
  text,
  TINY_PNG,
} from "./engine_fixtures.ts";
import { conversation, SplitProvider } from "./compaction_fixtures.ts";

const overflow = () =>
  new ProviderContextLengthError("This model's maximum context length is 8000 tokens", 400);

/** A wake-shaped turn: the transcript, a new peer turn appended, an engine, a compactor. */
function setup(agent: Scripted[], override = 8000) {
  const journal = new RecordingJournal();
  const provider = new SplitProvider(agent, ["NOTES"]);
  const budget = new ContextCeiling(provider, { override, maxSteps: 1, journal });
  const compactor = new Compactor(provider, budget, { journal });
  const echo = new EchoTool();
  const engine = new Engine(provider, new ToolRegistry().register(echo), { journal });
  const messages = conversation(10);
  const turn = Message.user("[t11] ann: and now?", { items: ["u11"] });
  messages.push(turn);
  const saves: number[] = [];
  const save = () => void saves.push(messages.length);
  let attempts = 0;
  const run = (attempt: number) => {
    attempts = attempt;
    return engine.run(messages, { persist: save });
  };
  const heal = () => withOverflowHeal(run, { compactor, messages, save, journal });
  return { journal, provider, echo, messages, turn, saves, heal, attempts: () => attempts };
}

Deno.test("heal: an over-length 400 compacts and retries the turn once", async () => {
  const t = setup([overflow(), text("answered")]);
  const result = await t.heal();
  assert.equal(result.text, "answered");
  assert.equal(t.attempts(), 2);
  assert.equal(t.provider.summaryCalls.length, 1);
  // The failed attempt's residue (its step counter) is gone; the turn is answered once.
  const at = t.messages.indexOf(t.turn);
  assert.deepEqual(t.messages.slice(at + 1).map((m) => m.role), ["system", "assistant"]);
  assert.ok(isSummary(t.messages[1]));
  // The retry saw the compacted transcript (charter, summary, kept tail, the turn).
  const retried = t.provider.agentCalls[1];
  assert.ok(retried.some(isSummary));
  assert.equal(retried.filter((m) => m.content === t.turn.content).length, 1);
  const warnings = t.journal.lines().filter((l) => /overflow|Retrying|context compact/.test(l));
  assert.equal(warnings.length, 3);
  assert.match(warnings[0], /^WARNING context overflow: the last request exceeded/);
  assert.match(warnings[1], /^INFO context compact limit=8000 .* emergency=yes$/);
  assert.equal(
    warnings[2],
    "WARNING Retrying the turn once against the compacted transcript: This model's maximum " +
      "context length is 8000 tokens",
  );
  assert.ok(t.saves.length >= 2, "the compacted transcript is saved before the retry");
});

Deno.test("heal: an overflow after a tool already ran does not re-run the turn", async () => {
  const t = setup([calls("echo", { text: "posted once" }), overflow(), text("never")]);
  await assert.rejects(t.heal(), ProviderContextLengthError);
  assert.deepEqual(t.echo.ran, ["posted once"]);
  assert.equal(t.attempts(), 1);
  assert.match(
    t.journal.at("WARNING").find((l) => l.includes("had already run")) ?? "",
    /^WARNING Context overflow after 1 tool call\(s\) had already run: the turn is NOT retried/,
  );
  // The work stays on record; the transcript is still compacted for the next wake.
  assert.ok(t.messages.some((m) => m.role === "tool" && m.content === "echo: posted once"));
  assert.ok(t.messages.some(isSummary));
  assert.ok(t.journal.lines().some((l) => l.includes("emergency=yes")));
  assert.equal(t.journal.lines().some((l) => l.includes("Retrying")), false);
  // Saved once compacted, so the next wake loads the short transcript, not the one that overflowed.
  const beforeCompaction = t.saves.at(-2) ?? 0;
  assert.ok(t.messages.length < beforeCompaction, "the compaction shortened the transcript");
  assert.equal(t.saves.at(-1), t.messages.length, "the compacted transcript is the one saved last");
});

Deno.test("heal: a second overflow propagates", async () => {
  const t = setup([overflow(), overflow(), text("never")]);
  await assert.rejects(t.heal(), ProviderContextLengthError);
  assert.equal(t.attempts(), 2);
  assert.equal(t.provider.summaryCalls.length, 1, "one emergency compaction, no more");
});

Deno.test("heal: 0 means off even at the wall", async () => {
  const t = setup([overflow(), text("never")], 0);
  const before = structuredClone(t.messages);
  await assert.rejects(t.heal(), ProviderContextLengthError);
  assert.equal(t.attempts(), 1);
  assert.equal(t.provider.summaryCalls.length, 0);
  assert.deepEqual(t.journal.at("WARNING"), [
    "WARNING Context overflow, but compaction is disabled (HARNESS_MAX_CONTEXT_TOKENS=0): the " +
    "transcript is left exactly as it is and the error stands.",
  ]);
  // Only the failed attempt's own step counter was added; nothing was rewritten.
  assert.deepEqual(t.messages.slice(0, before.length), before);
});

Deno.test("heal: with nothing to cut, the error stands and no retry is made", async () => {
  const journal = new RecordingJournal();
  const provider = new SplitProvider([overflow(), text("never")]);
  const compactor = new Compactor(provider, new ContextCeiling(provider, { override: 8000 }), {
    journal,
  });
  const messages = [Message.user("x".repeat(50_000), { items: ["u1"] })];
  const engine = new Engine(provider, new ToolRegistry());
  let attempts = 0;
  await assert.rejects(
    withOverflowHeal(() => {
      attempts++;
      return engine.run(messages);
    }, { compactor, messages, journal }),
    ProviderContextLengthError,
  );
  assert.equal(attempts, 1);
  assert.ok(journal.at("WARNING").some((l) => l.includes("Context compaction declined")));
});

Deno.test("heal: other errors pass through untouched", async () => {
  const t = setup([new ProviderAuthError("bad key", 401), text("never")]);
  await assert.rejects(t.heal(), ProviderAuthError);
  assert.equal(t.attempts(), 1);
  assert.equal(t.provider.summaryCalls.length, 0);
  assert.equal(t.journal.at("WARNING").length, 0);
});

Deno.test("heal: the peer's image is shown again on the retry", async () => {
  const t = setup([overflow(), text("a cat")]);
  // A whole PNG: the engine's image preparation sends a corrupt one as text instead.
  t.turn.images = [{ alt: "cat.png", mimeType: "image/png", data: TINY_PNG }];
  // A host that evicted the pixels during the failed attempt must not lose them for the retry.
  const provider = t.provider;
  const chat = provider.chat.bind(provider);
  let first = true;
  provider.chat = (messages, tools) => {
    if (first && messages.includes(t.turn)) {
      first = false;
      delete t.turn.images;
    }
    return chat(messages, tools);
  };
  await t.heal();
  const retried = provider.agentCalls[1].find((m) => m.content === t.turn.content);
  assert.deepEqual(retried?.images?.map((i) => i.alt), ["cat.png"]);
});
