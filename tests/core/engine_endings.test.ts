/**
 * The loop's hand-offs (docs/security.md#refusal-and-truncation-are-hand-offs): a refused reply
 * ends the run `refused` without running its calls or asking a hook; a reply the output limit cut
 * in a tool call is dropped and the same context asked once more — cut again, the run ends
 * `truncated`; a reply cut in its text ends `truncated` at once. Whatever ends the run is kept in
 * the transcript without tool calls, so the next load has no dangling call.
 */
import assert from "node:assert/strict";
import { Engine } from "../../lib/core/engine.ts";
import { type Ending, Message } from "../../lib/core/types/message.ts";
import { ToolRegistry } from "../../lib/core/registry.ts";
import {
  calls,
  EchoTool,
  fixedClock,
  RecordingJournal,
  ScriptedProvider,
  text,
} from "./engine_fixtures.ts";

/** `reply` ended as `ending` (and marked as cutting a call when `cutCall`). */
function ended(reply: Message, ending: Ending, extra: Partial<Message> = {}): Message {
  return { ...reply, ending, ...extra };
}

function setup(script: ConstructorParameters<typeof ScriptedProvider>[0]) {
  const provider = new ScriptedProvider(script);
  const echo = new EchoTool();
  const journal = new RecordingJournal();
  const engine = new Engine(provider, new ToolRegistry().register(echo), {
    maxSteps: 6,
    now: fixedClock(),
    journal,
  });
  return { provider, echo, journal, engine };
}

Deno.test("engine: a refused reply ends the run refused; its calls never run, no hook extends it", async () => {
  const refusal = ended(calls("echo", { text: "leak" }), "refused", { refusal: "No." });
  const { provider, echo, engine } = setup([calls("echo", { text: "a" }), refusal]);
  let asked = 0;
  const messages = [Message.user("go")];
  const result = await engine.run(messages, {
    hooks: [{
      beforeFinish: () => {
        asked++;
        return true;
      },
    }],
  });
  assert.equal(result.kind, "refused");
  assert.equal(result.reply.refusal, "No.");
  assert.deepEqual(echo.ran, ["a"], "the refused reply's call did not run");
  assert.equal(asked, 0, "a hand-off is not a finish a hook may extend");
  assert.equal(provider.calls.length, 2);
  const last = messages.at(-1)!;
  assert.equal(last.role, "assistant");
  assert.equal(last.toolCalls, undefined, "kept without its calls");
});

Deno.test("engine: a cut tool call is asked again once with the same context, then acted on", async () => {
  const cut = ended(Message.assistant({ content: null }), "truncated", { cutCall: true });
  const { provider, echo, journal, engine } = setup([
    cut,
    calls("echo", { text: "whole" }),
    text("done"),
  ]);
  const messages = [Message.user("go")];
  const result = await engine.run(messages);
  assert.equal(result.kind, "narration");
  assert.deepEqual(echo.ran, ["whole"]);
  assert.equal(provider.calls.length, 3);
  assert.deepEqual(
    provider.calls[1].messages,
    provider.calls[0].messages,
    "the second ask carries exactly the first's context",
  );
  assert.ok(!messages.some((m) => m.ending), "the cut reply never reached the transcript");
  assert.deepEqual(journal.at("WARNING"), [
    "WARNING reply cut step=1 call_cut=yes asked_again=yes",
  ]);
});

Deno.test("engine: a tool call cut twice ends the run truncated, nothing run", async () => {
  const cut = ended(Message.assistant({ content: "Posting" }), "truncated", { cutCall: true });
  const { provider, echo, journal, engine } = setup([cut, cut, text("never")]);
  const messages = [Message.user("go")];
  const result = await engine.run(messages);
  assert.equal(result.kind, "truncated");
  assert.equal(result.text, "Posting");
  assert.deepEqual(echo.ran, []);
  assert.equal(provider.calls.length, 2, "asked again once, not more");
  assert.equal(messages.at(-1)?.toolCalls, undefined);
  assert.deepEqual(journal.at("WARNING"), [
    "WARNING reply cut step=1 call_cut=yes asked_again=yes",
    "WARNING reply cut step=1 call_cut=yes asked_again=no",
  ]);
});

Deno.test("engine: a reply cut in its text ends the run truncated without asking again", async () => {
  const cut = ended(text("A long answ"), "truncated");
  const { provider, engine } = setup([calls("echo", { text: "a" }), cut, text("never")]);
  const result = await engine.run([Message.user("go")]);
  assert.equal(result.kind, "truncated");
  assert.equal(result.text, "A long answ");
  assert.equal(result.steps, 2);
  assert.equal(provider.calls.length, 2);
});
