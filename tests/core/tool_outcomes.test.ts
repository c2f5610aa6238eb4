/**
 * The `tool` line's `outcome=` vocabulary (docs/journal.md#the-line-catalogue) carried from the
 * tool to the line: real calls through the real engine and dispatch, each ending its own way —
 * `ok`, `error` (a throw, no such tool), and the three a tool reports through
 * `ToolContext.reportOutcome` while still answering the model: `invalid`, `refused` and
 * `blocked`, the last from the real `messages` tool behind the real outbound gate.
 */
import assert from "node:assert/strict";
import { Engine } from "../../lib/core/engine.ts";
import { runToolCall } from "../../lib/core/dispatch.ts";
import { Message } from "../../lib/core/types/message.ts";
import { ToolRegistry } from "../../lib/core/registry.ts";
import { Policy } from "../../lib/core/policy.ts";
import {
  Tool,
  TOOL_VERDICTS,
  type ToolContext,
  type ToolOutcome,
  type ToolVerdict,
} from "../../lib/core/types/tool.ts";
import type { ToolLineOutcome } from "../../lib/journal/catalogue_engine.ts";
import { LockTool } from "../../lib/tools/lock.ts";
import { MessagesTool } from "../../lib/tools/messages.ts";
import { TimelinesTool } from "../../lib/tools/timelines.ts";
import { WebFetchTool } from "../../lib/tools/web_fetch.ts";
import { withWorld } from "../gate/support.ts";
import {
  BoomTool,
  calls,
  EchoTool,
  fixedClock,
  RecordingJournal,
  ScriptedProvider,
  text,
} from "./engine_fixtures.ts";

/** Checks its `count` argument; a bad one is the model's mistake, answered and logged `invalid`. */
class CountTool extends Tool {
  readonly name = "count";
  readonly description = "Count to n.";
  run(args: { n?: unknown }, call?: ToolContext): string {
    if (typeof args.n !== "number") {
      call?.reportOutcome?.("invalid");
      return "Error: 'n' must be a number.";
    }
    return Array.from({ length: args.n }, (_, i) => i + 1).join(" ");
  }
}

/** Declines anything but example.com on policy, answering the model with why. */
class FenceTool extends Tool {
  readonly name = "fence";
  readonly description = "Visit a host.";
  async run(args: { host?: string }, call?: ToolContext): Promise<string> {
    await Promise.resolve(); // the report may come after an await: it still counts
    if (args.host !== "example.com") {
      call?.reportOutcome?.("refused");
      return `Couldn't visit '${args.host}': refused: not on the allow list.`;
    }
    return "visited";
  }
}

/** The INFO `tool` lines as [name, outcome]. */
function toolLines(journal: RecordingJournal): string[][] {
  return journal.entries.flatMap((e) =>
    e.kind === "event" && e.head === "tool" && e.level === "INFO"
      ? [[String(e.fields.name), String(e.fields.outcome)]]
      : []
  );
}

Deno.test("every outcome reaches the tool line for a real call through the engine", async () => {
  const journal = new RecordingJournal();
  const provider = new ScriptedProvider([
    calls(
      "echo",
      { text: "hi" },
      "boom",
      {},
      "nope",
      {},
      "count",
      { n: "three" },
      "count",
      { n: 3 },
      "fence",
      { host: "169.254.169.254" },
      "fence",
      { host: "example.com" },
    ),
    text("done"),
  ]);
  const registry = new ToolRegistry()
    .register(new EchoTool())
    .register(new BoomTool())
    .register(new CountTool())
    .register(new FenceTool());
  const messages = [Message.user("go")];
  const result = await new Engine(provider, registry, { journal, now: fixedClock() }).run(
    messages,
  );

  assert.deepEqual(toolLines(journal), [
    ["echo", "ok"],
    ["boom", "error"],
    ["nope", "error"],
    ["count", "invalid"],
    ["count", "ok"],
    ["fence", "refused"],
    ["fence", "ok"],
  ]);
  // The model read every answer as before: a declined call is still a plain result text.
  assert.deepEqual(messages.filter((m) => m.role === "tool").map((m) => m.content), [
    "echo: hi",
    "Error running 'boom': the fuse was lit",
    "Error: no tool named 'nope'.",
    "Error: 'n' must be a number.",
    "1 2 3",
    "Couldn't visit '169.254.169.254': refused: not on the allow list.",
    "visited",
  ]);
  // Only a failure gets the WARNING line; a declined call was answered.
  assert.deepEqual(journal.at("WARNING"), [
    "WARNING tool name=boom error=the fuse was lit",
    "WARNING tool name=nope error=no tool named 'nope'",
  ]);
  // The turn record keeps the same outcome as the journal line: a declined call is never `ok`.
  assert.deepEqual(result.toolCalls.map((c) => [c.name, c.outcome]), [
    ["echo", "ok"],
    ["boom", "error"],
    ["nope", "error"],
    ["count", "invalid"],
    ["count", "ok"],
    ["fence", "refused"],
    ["fence", "ok"],
  ]);
});

Deno.test("a post the gate blocks is logged blocked, after the gate's own line", () =>
  withWorld(async ({ context, vega, journal, messagePosts }) => {
    const tool = new MessagesTool(context());
    const provider = new ScriptedProvider([
      // The agent's own token as literal text: the gate's known_secrets check refuses it.
      calls("messages", { action: "create", body: `my token is ${vega.token}` }),
      calls("messages", { action: "create", body: "All good." }),
      text("done"),
    ]);
    const registry = new ToolRegistry({ policy: Policy.unlocked() }).register(tool);
    const messages = [Message.user("go")];
    await new Engine(provider, registry, { journal, now: fixedClock() }).run(messages);

    const lines = journal.lines.filter((l) => / tool |post blocked|posted/.test(l));
    assert.equal(lines.length, 4, lines.join("\n"));
    assert.match(lines[0], /^WARNING post blocked timeline=\S+ kind=tool check=\S*known_secrets/);
    assert.equal(lines[1], "INFO tool name=messages duration=0.00s outcome=blocked");
    assert.match(lines[2], /^INFO posted message=\S+ timeline=\S+ kind=tool chars=9$/);
    assert.equal(lines[3], "INFO tool name=messages duration=0.00s outcome=ok");
    assert.equal(messagePosts(), 1);
    const replies = messages.filter((m) => m.role === "tool").map((m) => m.content ?? "");
    assert.match(replies[0], /^Couldn't create a message: the outbound gate blocked it/);
    assert.ok(!replies[0].includes(vega.token));
  }));

Deno.test("the shipped tools report their own outcomes: a bad argument, a lock unconfirmed, a refused fetch", () =>
  withWorld(async ({ context, journal }) => {
    const ctx = context();
    const provider = new ScriptedProvider([
      calls("timelines", { action: 42 }),
      calls("lock", { timeline: ctx.timeline }),
      calls("web_fetch", { url: "http://169.254.169.254/latest/meta-data/" }),
      text("done"),
    ]);
    const registry = new ToolRegistry({ policy: Policy.unlocked() })
      .register(new TimelinesTool(ctx))
      .register(new LockTool(ctx))
      .register(new WebFetchTool());
    await new Engine(provider, registry, { journal, now: fixedClock() }).run([Message.user("go")]);
    const outcomes = journal.lines.filter((l) => / tool name=/.test(l))
      .map((l) => l.match(/name=(\S+) .*outcome=(\S+)/)!.slice(1));
    assert.deepEqual(outcomes, [["timelines", "invalid"], ["lock", "refused"], [
      "web_fetch",
      "refused",
    ]]);
  }));

Deno.test("only a known word, reported while the call runs, changes the outcome", async () => {
  let late: ((outcome: ToolVerdict) => void) | undefined;
  class OddTool extends Tool {
    readonly name = "odd";
    readonly description = "Reports oddly.";
    run(args: { mode: string }, call?: ToolContext): string {
      if (args.mode === "stray") call?.reportOutcome?.("weird" as ToolVerdict);
      if (args.mode === "late") late = call?.reportOutcome;
      if (args.mode === "twice") {
        call?.reportOutcome?.("invalid");
        call?.reportOutcome?.("refused");
      }
      if (args.mode === "then-throw") {
        call?.reportOutcome?.("refused");
        throw new Error("gave up");
      }
      return args.mode;
    }
  }
  const journal = new RecordingJournal();
  const options = {
    registry: new ToolRegistry().register(new OddTool()),
    builtins: new Set<string>(),
    journal,
    now: fixedClock(),
  };
  const run = (mode: string) =>
    runToolCall({ id: mode, name: "odd", arguments: { mode } }, options);
  assert.equal((await run("stray")).outcome, "ok");
  assert.equal((await run("late")).outcome, "ok");
  late?.("blocked"); // after the call settled: ignored, the line is already written
  assert.equal((await run("twice")).outcome, "refused");
  assert.equal((await run("then-throw")).outcome, "error");
  assert.deepEqual(toolLines(journal), [
    ["odd", "ok"],
    ["odd", "ok"],
    ["odd", "refused"],
    ["odd", "error"],
  ]);
});

Deno.test("the journal's outcome words are exactly the core's", () => {
  // Compile-time: each type is assignable to the other, so neither can drift alone.
  const toLine = (o: ToolOutcome): ToolLineOutcome => o;
  const toCore = (o: ToolLineOutcome): ToolOutcome => o;
  const words: ToolOutcome[] = ["ok", "error", ...TOOL_VERDICTS];
  assert.deepEqual(words.map(toLine).map(toCore), ["ok", "error", "invalid", "refused", "blocked"]);
});
