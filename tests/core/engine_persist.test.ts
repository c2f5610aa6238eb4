import assert from "node:assert/strict";
import { Engine } from "../../lib/core/engine.ts";
import { Message } from "../../lib/core/types/message.ts";
import { ToolRegistry } from "../../lib/core/registry.ts";
import { Tool } from "../../lib/core/types/tool.ts";
import { calls, EchoTool, RecordingJournal, ScriptedProvider, text } from "./engine_fixtures.ts";

Deno.test("persist: the reply naming a call is saved before that call runs (invariant 3)", async () => {
  const saved: Message[][] = [];
  const messages = [Message.user("go")];
  let onDiskWhenRun: Message[] | undefined;
  class Witness extends Tool {
    readonly name = "witness";
    readonly description = "Looks at the store.";
    run(): string {
      onDiskWhenRun = structuredClone(saved.at(-1));
      return "seen";
    }
  }
  const provider = new ScriptedProvider([calls("witness", {}), text("done")]);
  await new Engine(provider, new ToolRegistry().register(new Witness())).run(messages, {
    persist: () => {
      saved.push(structuredClone(messages));
    },
  });
  const last = onDiskWhenRun?.at(-1);
  assert.equal(last?.role, "assistant");
  assert.deepEqual(last?.toolCalls?.map((c) => [c.id, c.name]), [["call_1", "witness"]]);
  assert.ok(!onDiskWhenRun?.some((m) => m.role === "tool"));
  // The final save holds the whole turn.
  assert.deepEqual(saved.at(-1)?.map((m) => m.role), [
    "user",
    "system",
    "assistant",
    "tool",
    "system",
    "assistant",
  ]);
});

Deno.test("persist: a reply that cannot be recorded dispatches nothing and fails the turn", async () => {
  const echo = new EchoTool();
  const provider = new ScriptedProvider([calls("echo", { text: "never" }), text("x")]);
  const diskFull = new Error("ENOSPC: no space left on device");
  const messages = [Message.user("go")];
  await assert.rejects(
    new Engine(provider, new ToolRegistry().register(echo)).run(messages, {
      persist: () => Promise.reject(diskFull),
    }),
    (error) => error === diskFull,
  );
  assert.deepEqual(echo.ran, []);
  assert.ok(!messages.some((m) => m.role === "tool"));
  assert.equal(provider.calls.length, 1);
});

Deno.test("persist: a failed save after a tool ran is logged and the turn carries on", async () => {
  const journal = new RecordingJournal();
  const echo = new EchoTool();
  const provider = new ScriptedProvider([calls("echo", { text: "a" }), text("done")]);
  let saves = 0;
  const result = await new Engine(provider, new ToolRegistry().register(echo), { journal }).run(
    [Message.user("go")],
    {
      persist: () => {
        saves++;
        if (saves === 2) throw new Error("disk hiccup"); // the save after the tool result
      },
    },
  );
  assert.equal(result.text, "done");
  assert.deepEqual(echo.ran, ["a"]);
  assert.deepEqual(journal.at("ERROR"), [
    "ERROR Could not persist a turn in progress; some of its work may be lost: disk hiccup",
  ]);
  assert.ok(saves >= 3);
});
