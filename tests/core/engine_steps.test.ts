import assert from "node:assert/strict";
import { Engine } from "../../lib/core/engine.ts";
import { Message } from "../../lib/core/types/message.ts";
import { ToolRegistry } from "../../lib/core/registry.ts";
import { isStepCounter, stepCounter } from "../../lib/core/types/step_counter.ts";
import {
  calls,
  EchoTool,
  fixedClock,
  RecordingJournal,
  ScriptedProvider,
  text,
} from "./engine_fixtures.ts";

// Typed out from docs/context.md#the-step-budget, not imported: a wording drift must fail here.
const LOW_STEPS_WARNING =
  " Steps are running low. Prioritize the most important remaining actions — " +
  "including anything you still mean to say on a timeline, which means calling the `messages` " +
  "tool — summarize progress cleanly, and if work remains, schedule a follow-up task before you " +
  "run out. Step 6 is your final action step — end it with plain text to finish cleanly. Never " +
  "ignore the step counter; treat it as a hard constraint.";

Deno.test("step counter: exact text, UTC stamp, the low-steps warning only when ≤5 steps remain", () => {
  const at = new Date("2026-03-04T05:06:07.890Z");
  assert.equal(stepCounter(1, 6, at), "Current Time: 2026-03-04 05:06:07 UTC\n\nStep 1 of 6.");
  assert.equal(
    stepCounter(2, 6, at),
    "Current Time: 2026-03-04 05:06:07 UTC\n\nStep 2 of 6." + LOW_STEPS_WARNING,
  );
  assert.ok(stepCounter(6, 6, at).endsWith(LOW_STEPS_WARNING));
  assert.equal(stepCounter(19, 24, at), "Current Time: 2026-03-04 05:06:07 UTC\n\nStep 19 of 24.");
  assert.ok(stepCounter(20, 24, at).includes("Step 24 is your final action step"));
  assert.ok(isStepCounter(Message.system(stepCounter(3, 6, at))));
  assert.ok(!isStepCounter(Message.system("Current Time: 2026-03-04 05:06:07 UTC (+00:00, Wed)")));
});

Deno.test("engine: a step counter precedes every model call and persists in the transcript", async () => {
  const provider = new ScriptedProvider([calls("echo", { text: "a" }), text("done")]);
  const registry = new ToolRegistry().register(new EchoTool());
  const engine = new Engine(provider, registry, { maxSteps: 6, now: fixedClock() });
  const messages = [Message.user("go")];
  const result = await engine.run(messages);

  assert.equal(provider.calls.length, 2);
  assert.equal(
    provider.calls[0].messages.at(-1)?.content,
    "Current Time: 2026-03-04 05:06:07 UTC\n\nStep 1 of 6.",
  );
  assert.equal(
    provider.calls[1].messages.at(-1)?.content,
    "Current Time: 2026-03-04 05:06:07 UTC\n\nStep 2 of 6." + LOW_STEPS_WARNING,
  );
  assert.deepEqual(messages.map((m) => m.role), [
    "user",
    "system",
    "assistant",
    "tool",
    "system",
    "assistant",
  ]);
  assert.equal(result.text, "done");
  assert.equal(result.kind, "narration");
  assert.equal(result.steps, 2);
  assert.equal(result.maxSteps, 6);
});

Deno.test("engine: the step ledger and usage lines are journaled", async () => {
  let t = Date.parse("2026-03-04T05:06:07Z");
  const now = () => new Date(t += 250); // every reading advances 0.25 s
  const journal = new RecordingJournal();
  const reply = calls("echo", { text: "a" }, "echo", { text: "b" });
  reply.usage = { tokensIn: 100, tokensOut: 7, tokensTotal: 107, cost: 0.00012 };
  const final = text("fine");
  final.usage = { tokensIn: 120, tokensOut: 3, tokensTotal: 123, cachedTokens: 64, cost: 0.0001 };
  const provider = new ScriptedProvider([reply, final]);
  const registry = new ToolRegistry().register(new EchoTool());
  const result = await new Engine(provider, registry, { journal, now }).run([Message.user("go")]);

  assert.deepEqual(journal.lines(), [
    "INFO llm provider=scripted model=script-1 duration=0.25s tokens_in=100 tokens_out=7 " +
    "tokens_total=107 cost=0.00012",
    "INFO tool name=echo duration=0.25s outcome=ok",
    "INFO tool name=echo duration=0.25s outcome=ok",
    "INFO step 1/24: tools=echo,echo (1.75s)",
    "INFO llm provider=scripted model=script-1 duration=0.25s tokens_in=120 tokens_out=3 " +
    "tokens_total=123 cached_tokens=64 cost=0.0001",
    "INFO step 2/24: final reply (0.75s)",
    "INFO wake used 2/24 steps",
  ]);
  assert.equal(result.usage.calls, 2);
  assert.equal(result.usage.tokensIn, 220);
  assert.equal(result.usage.cachedTokens, 64);
  assert.ok(Math.abs((result.usage.cost ?? 0) - 0.00022) < 1e-12);
  assert.deepEqual(result.toolCalls.map((c) => [c.name, c.outcome]), [["echo", "ok"], [
    "echo",
    "ok",
  ]]);
});

Deno.test("engine: the registry's sorted specs ride every call; none when nothing is registered", async () => {
  const provider = new ScriptedProvider([text("hi")]);
  const registry = new ToolRegistry();
  class Zed extends EchoTool {
    override readonly name = "zed";
  }
  registry.register(new Zed()).register(new EchoTool());
  await new Engine(provider, registry).run([Message.user("x")]);
  assert.deepEqual(provider.calls[0].tools?.map((t) => t.name), ["echo", "zed"]);

  const bare = new ScriptedProvider([text("hi")]);
  await new Engine(bare, new ToolRegistry()).run([Message.user("x")]);
  assert.equal(bare.calls[0].tools, undefined);
});

Deno.test("engine: the view option shapes the request but never the transcript", async () => {
  const provider = new ScriptedProvider([text("ok")]);
  const messages = [Message.user("hello")];
  await new Engine(provider, new ToolRegistry()).run(messages, {
    view: (live) => [Message.system("CHARTER"), ...live],
  });
  assert.equal(provider.calls[0].messages[0].content, "CHARTER");
  assert.ok(!messages.some((m) => m.content === "CHARTER"));
});

Deno.test("engine: counters count runs and model steps", async () => {
  const provider = new ScriptedProvider([calls("echo", { text: "a" }), text("1"), text("2")]);
  const engine = new Engine(provider, new ToolRegistry().register(new EchoTool()));
  await engine.run([Message.user("a")]);
  await engine.run([Message.user("b")]);
  assert.equal(engine.turns, 2);
  assert.equal(engine.steps, 3);
});

Deno.test("engine: a non-positive step budget is refused", () => {
  assert.throws(() => new Engine(new ScriptedProvider([]), new ToolRegistry(), { maxSteps: 0 }));
  assert.throws(() =>
    new Engine(new ScriptedProvider([]), new ToolRegistry(), { responseRetries: -1 })
  );
});

Deno.test("fixtures: the scripted provider answers in order and records deep copies", async () => {
  const provider = new ScriptedProvider([text("one"), new Error("two")]);
  const messages = [Message.user("hi")];
  assert.deepEqual((await provider.chat(messages)).content, "one");
  messages[0].content = "changed";
  assert.deepEqual(provider.calls[0].messages[0].content, "hi");
  await assert.rejects(() => provider.chat(messages), /two/);
  await assert.rejects(() => provider.chat(messages), /script exhausted/);
});

Deno.test("fixtures: the recording journal renders events and texts", () => {
  const journal = new RecordingJournal();
  journal.event("INFO", "tool", { name: "x", duration: "0.00s", skipped: undefined });
  journal.text("WARNING", "free text");
  assert.deepEqual(journal.lines(), ["INFO tool name=x duration=0.00s", "WARNING free text"]);
});
