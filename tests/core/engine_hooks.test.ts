import assert from "node:assert/strict";
import { Engine, nudgeOnce, type StepContext, type TurnHook } from "../../lib/core/engine.ts";
import { Message } from "../../lib/core/types/message.ts";
import { ToolRegistry } from "../../lib/core/registry.ts";
import { calls, EchoTool, RecordingJournal, ScriptedProvider, text } from "./engine_fixtures.ts";

const NUDGE = "You were mentioned by name in what you just read, and this turn is about to end.";

Deno.test("hooks: a one-time nudge appends one system turn and extends the turn once", async () => {
  const journal = new RecordingJournal();
  const provider = new ScriptedProvider([text("thinking aloud"), text("still silent"), text("x")]);
  const messages = [Message.user("@nova hi")];
  let asked = 0;
  const result = await new Engine(provider, new ToolRegistry(), { journal }).run(messages, {
    hooks: [nudgeOnce(() => (asked++, NUDGE))],
  });
  assert.equal(provider.calls.length, 2);
  assert.equal(result.text, "still silent");
  assert.equal(result.steps, 2);
  assert.equal(asked, 1); // spent after the first nudge
  const nudges = messages.filter((m) => m.content === NUDGE);
  assert.equal(nudges.length, 1);
  assert.equal(nudges[0].role, "system");
  // The nudge sits after the first reply and before the second step counter.
  const at = messages.indexOf(nudges[0]);
  assert.equal(messages[at - 1].content, "thinking aloud");
  assert.match(messages[at + 1].content ?? "", /^Current Time: .*\n\nStep 2 of 24\.$/);
  assert.equal(provider.calls[1].messages.filter((m) => m.content === NUDGE).length, 1);
  const steps = journal.lines().filter((l) =>
    l.startsWith("INFO step ") || l.includes("wake used")
  );
  assert.deepEqual(steps.map((l) => l.replace(/ \([\d.]+s\)$/, "")), [
    "INFO step 1/24: hook continue",
    "INFO step 2/24: final reply",
    "INFO wake used 2/24 steps",
  ]);
});

Deno.test("hooks: an unarmed nudge lets the turn end", async () => {
  const provider = new ScriptedProvider([text("fine")]);
  const messages = [Message.user("hi")];
  await new Engine(provider, new ToolRegistry()).run(messages, {
    hooks: [nudgeOnce(() => undefined)],
  });
  assert.equal(provider.calls.length, 1);
  assert.equal(messages.filter((m) => m.role === "system").length, 1); // the step counter only
});

Deno.test("hooks: beforeFinish is not asked while the model is still calling tools", async () => {
  const provider = new ScriptedProvider([calls("echo", { text: "a" }), text("done")]);
  const seen: number[] = [];
  const hook: TurnHook = {
    beforeFinish(context) {
      seen.push(context.step);
      return false;
    },
  };
  await new Engine(provider, new ToolRegistry().register(new EchoTool())).run(
    [Message.user("go")],
    { hooks: [hook] },
  );
  assert.deepEqual(seen, [2]);
});

Deno.test("hooks: afterStep observes every step with its tool runs, engine hooks first", async () => {
  const order: string[] = [];
  const observed: StepContext[] = [];
  const engineHook: TurnHook = { afterStep: (c) => void order.push(`engine:${c.step}`) };
  const runHook: TurnHook = {
    afterStep: (c) => {
      order.push(`run:${c.step}`);
      observed.push(c);
    },
  };
  const provider = new ScriptedProvider([calls("echo", { text: "a" }), text("done")]);
  await new Engine(provider, new ToolRegistry().register(new EchoTool()), {
    hooks: [engineHook],
  }).run([Message.user("go")], { hooks: [runHook] });
  assert.deepEqual(order, ["engine:1", "run:1", "engine:2", "run:2"]);
  assert.deepEqual(observed[0].toolRuns.map((r) => [r.name, r.outcome, r.text]), [
    ["echo", "ok", "echo: a"],
  ]);
  assert.equal(observed[1].reply.content, "done");
  assert.equal(observed[1].maxSteps, 24);
});

Deno.test("hooks: the first extending hook wins and its turn is persisted", async () => {
  const provider = new ScriptedProvider([text("one"), text("two")]);
  const messages = [Message.user("go")];
  const saved: number[] = [];
  let secondAsked = 0;
  await new Engine(provider, new ToolRegistry()).run(messages, {
    persist: () => void saved.push(messages.length),
    hooks: [
      nudgeOnce(() => "first nudge"),
      { beforeFinish: () => (secondAsked++, false) },
    ],
  });
  assert.equal(secondAsked, 1); // only on the final ending, not on the extended one
  assert.ok(messages.some((m) => m.content === "first nudge"));
  // A save happened with the nudge in place, before the next model call.
  const nudgeAt = messages.findIndex((m) => m.content === "first nudge");
  assert.ok(saved.includes(nudgeAt + 1));
});

Deno.test("hooks: an extension on the last step still ends in the reserve summary", async () => {
  const provider = new ScriptedProvider([text("quiet"), text("report")]);
  const result = await new Engine(provider, new ToolRegistry(), { maxSteps: 1 }).run(
    [Message.user("go")],
    { hooks: [nudgeOnce(() => "nudge")] },
  );
  assert.equal(result.kind, "reserve");
  assert.equal(result.text, "report");
});
