import assert from "node:assert/strict";
import { Engine, EngineError } from "../../lib/core/engine.ts";
import { ProviderAuthError } from "../../lib/core/types/faults.ts";
import { Message } from "../../lib/core/types/message.ts";
import { ToolRegistry } from "../../lib/core/registry.ts";
import {
  calls,
  EchoTool,
  RecordingJournal,
  recordingSleep,
  ScriptedProvider,
  text,
} from "./engine_fixtures.ts";

const NUDGE = "You've reached the step limit for this turn. Write an honest progress report: " +
  "what you completed, what remains, and what the next turn should do. This is your last text " +
  "of the turn and it is unspoken — it goes to your log and your memory, not to any timeline — " +
  "so if a peer is waiting on something, that had to be posted with the `messages` tool. Wrap " +
  "up in plain text.";

function busy(n: number) {
  return Array.from({ length: n }, (_, i) => calls("echo", { text: `step${i + 1}` }));
}

Deno.test("reserve: a spent budget makes one tool-less call whose text is unspoken", async () => {
  const journal = new RecordingJournal();
  const report = Message.assistant({
    content: "Did two echoes; nothing remains.",
    toolCalls: [{ id: "stray", name: "echo", arguments: { text: "stray" } }],
  });
  const provider = new ScriptedProvider([...busy(2), report]);
  const echo = new EchoTool();
  const messages = [Message.user("go")];
  let saves = 0;
  const engine = new Engine(provider, new ToolRegistry().register(echo), {
    journal,
    maxSteps: 2,
  });
  const result = await engine.run(messages, { persist: () => void saves++ });

  assert.equal(provider.calls.length, 3);
  assert.ok(provider.calls[0].tools?.length);
  assert.equal(provider.calls[2].tools, undefined);
  assert.equal(provider.calls[2].messages.at(-1)?.role, "system");
  assert.equal(provider.calls[2].messages.at(-1)?.content, NUDGE);
  assert.deepEqual(echo.ran, ["step1", "step2"]); // the stray call never ran
  assert.equal(result.kind, "reserve");
  assert.equal(result.text, "Did two echoes; nothing remains.");
  assert.equal(result.steps, 2);
  assert.equal(engine.steps, 2); // the reserve call is not a step
  const final = messages.at(-1)!;
  assert.equal(final.role, "assistant");
  assert.equal(final.content, "Did two echoes; nothing remains.");
  assert.equal(final.toolCalls, undefined);
  assert.ok(journal.lines().includes("WARNING wake used 2/2 steps + reserve summary"));
  assert.ok(!journal.lines().some((l) => l.startsWith("INFO wake used")));
  assert.ok(saves > 0);
});

Deno.test("reserve: a failing reserve call is an EngineError after its own retries", async () => {
  const journal = new RecordingJournal();
  const fault = new ProviderAuthError("key revoked", 401);
  const provider = new ScriptedProvider([...busy(1), fault]);
  const engine = new Engine(provider, new ToolRegistry().register(new EchoTool()), {
    journal,
    maxSteps: 1,
    sleep: recordingSleep().sleep,
  });
  await assert.rejects(engine.run([Message.user("go")]), (error: unknown) => {
    assert.ok(error instanceof EngineError);
    assert.equal(error.cause, fault);
    assert.match(
      error.message,
      /Step budget of 1 spent and the reserve summary call failed: key revoked/,
    );
    return true;
  });
  assert.ok(
    journal.lines().includes(
      "WARNING Reserve summary call failed after the step budget was spent: key revoked",
    ),
  );
});

Deno.test("reserve: a reply with no text is an EngineError and is not kept", async () => {
  const journal = new RecordingJournal();
  const provider = new ScriptedProvider([...busy(1), calls("echo", { text: "again" })]);
  const messages = [Message.user("go")];
  const engine = new Engine(provider, new ToolRegistry().register(new EchoTool()), {
    journal,
    maxSteps: 1,
  });
  await assert.rejects(engine.run(messages), EngineError);
  assert.ok(
    journal.lines().includes(
      "WARNING Reserve summary produced no text; falling back to the canned note.",
    ),
  );
  assert.equal(messages.at(-1)?.content, NUDGE); // the tool-call-only reply was not appended
});

Deno.test("reserve: whitespace-only text counts as no text", async () => {
  const provider = new ScriptedProvider([...busy(1), text("  \n ")]);
  const engine = new Engine(provider, new ToolRegistry().register(new EchoTool()), {
    maxSteps: 1,
  });
  await assert.rejects(engine.run([Message.user("go")]), EngineError);
});
