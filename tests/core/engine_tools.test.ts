import assert from "node:assert/strict";
import { Engine } from "../../lib/core/engine.ts";
import { Message } from "../../lib/core/types/message.ts";
import { ToolRegistry } from "../../lib/core/registry.ts";
import { Tool } from "../../lib/core/types/tool.ts";
import {
  BoomTool,
  calls,
  EchoTool,
  fixedClock,
  RecordingJournal,
  ScriptedProvider,
  text,
} from "./engine_fixtures.ts";

Deno.test("engine: parallel calls in one reply run in order, each result appended", async () => {
  const echo = new EchoTool();
  const provider = new ScriptedProvider([
    calls("echo", { text: "first" }, "echo", { text: "second" }, "echo", { text: "third" }),
    text("done"),
  ]);
  const messages = [Message.user("go")];
  const result = await new Engine(provider, new ToolRegistry().register(echo)).run(messages);

  assert.deepEqual(echo.ran, ["first", "second", "third"]);
  const results = messages.filter((m) => m.role === "tool");
  assert.deepEqual(results.map((m) => [m.toolCallId, m.content]), [
    ["call_1", "echo: first"],
    ["call_2", "echo: second"],
    ["call_3", "echo: third"],
  ]);
  // The results follow their assistant turn uninterrupted, and the model saw all of them.
  const at = messages.findIndex((m) => m.toolCalls?.length === 3);
  assert.deepEqual(messages.slice(at + 1, at + 4).map((m) => m.role), ["tool", "tool", "tool"]);
  assert.equal(provider.calls[1].messages.filter((m) => m.role === "tool").length, 3);
  assert.equal(result.toolCalls.length, 3);
});

Deno.test("engine: unknown tool, built-in and throwing tool come back as model-readable text", async () => {
  const journal = new RecordingJournal();
  const provider = new ScriptedProvider(
    [calls("nope", {}, "web_search", { q: "x" }, "boom", {}), text("ok")],
    { builtins: ["web_search"] },
  );
  const registry = new ToolRegistry().register(new BoomTool());
  const messages = [Message.user("go")];
  const result = await new Engine(provider, registry, { journal, now: fixedClock() }).run(
    messages,
  );

  assert.deepEqual(messages.filter((m) => m.role === "tool").map((m) => m.content), [
    "Error: no tool named 'nope'.",
    "web_search runs server-side — you don't call it as a function. State what you want to find " +
    "in your text and the search runs automatically. Do not retry this function call.",
    "Error running 'boom': the fuse was lit",
  ]);
  assert.deepEqual(journal.lines().filter((l) => l.includes(" tool ")), [
    "INFO tool name=nope duration=0.00s outcome=error",
    "WARNING tool name=nope error=no tool named 'nope'",
    "INFO tool name=web_search duration=0.00s outcome=error",
    "WARNING tool name=web_search error='web_search' is server-side, not a function",
    "INFO tool name=boom duration=0.00s outcome=error",
    "WARNING tool name=boom error=the fuse was lit",
  ]);
  assert.deepEqual(result.toolCalls.map((c) => [c.name, c.outcome]), [
    ["nope", "error"],
    ["web_search", "error"],
    ["boom", "error"],
  ]);
  assert.equal(result.text, "ok");
});

Deno.test("engine: builtins can also be named in the engine options", async () => {
  const provider = new ScriptedProvider([calls("x_search", {}), text("ok")]);
  const messages = [Message.user("go")];
  await new Engine(provider, new ToolRegistry(), { builtins: ["x_search"] }).run(messages);
  assert.match(
    messages.find((m) => m.role === "tool")?.content ?? "",
    /^x_search runs server-side/,
  );
});

Deno.test("engine: a registered tool wins over a built-in of the same name", async () => {
  class WebSearch extends EchoTool {
    override readonly name = "web_search";
  }
  const provider = new ScriptedProvider([calls("web_search", { text: "q" }), text("ok")], {
    builtins: ["web_search"],
  });
  const messages = [Message.user("go")];
  await new Engine(provider, new ToolRegistry().register(new WebSearch())).run(messages);
  assert.equal(messages.find((m) => m.role === "tool")?.content, "echo: q");
});

Deno.test("engine: a tool receives its arguments and call id", async () => {
  const seen: unknown[] = [];
  class Spy extends Tool {
    readonly name = "spy";
    readonly description = "Records.";
    run(args: Record<string, unknown>, context?: { callId: string }): string {
      seen.push(args, context?.callId);
      return "seen";
    }
  }
  const provider = new ScriptedProvider([calls("spy", { a: 1 }), text("ok")]);
  await new Engine(provider, new ToolRegistry().register(new Spy())).run([Message.user("go")]);
  assert.deepEqual(seen, [{ a: 1 }, "call_1"]);
});

Deno.test("engine: a tool throwing a non-Error still becomes text", async () => {
  class Weird extends Tool {
    readonly name = "weird";
    readonly description = "Throws a string.";
    run(): string {
      throw "plain string";
    }
  }
  const provider = new ScriptedProvider([calls("weird", {}), text("ok")]);
  const messages = [Message.user("go")];
  await new Engine(provider, new ToolRegistry().register(new Weird())).run(messages);
  assert.equal(
    messages.find((m) => m.role === "tool")?.content,
    "Error running 'weird': plain string",
  );
});

Deno.test("engine: each tool call keeps its own action, even when a provider reuses call ids", async () => {
  // Both steps' calls are `call_1`, as some providers number them per reply.
  const provider = new ScriptedProvider([
    calls("echo", { action: "list", text: "a" }),
    calls("echo", { action: "create", text: "b" }, "echo", { text: "c" }),
    text("done"),
  ]);
  const result = await new Engine(provider, new ToolRegistry().register(new EchoTool())).run([
    Message.user("go"),
  ]);
  assert.deepEqual(
    result.toolCalls.map(({ callId, action }) => [callId, action]),
    [["call_1", "list"], ["call_1", "create"], ["call_2", undefined]],
  );
});
