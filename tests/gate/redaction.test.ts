/**
 * A refused post's secret does not outlive the refusal: GateRefusal carries the body with every
 * located secret replaced by `[redacted]`, and the messages tool swaps it into the call's own
 * arguments (the object the transcript holds). Against the real in-process sandbox.
 */
import { strict as assert } from "node:assert";
import { GateRefusal, parseGuardrails, redactSpans } from "../../lib/gate/mod.ts";
import { MessagesTool } from "../../lib/tools/messages.ts";
import { fake } from "./samples.ts";
import { rejection, withWorld } from "./support.ts";

const NPM = `npm_${fake(36, undefined, 201)}`;
const CALL = { callId: "call_1" };

Deno.test("redaction: spans are merged and replaced, the rest kept", () => {
  assert.equal(redactSpans("abcdefghij", [[2, 4], [3, 6], [8, 9]]), "ab[redacted]gh[redacted]j");
  assert.equal(redactSpans("abc", [[0, 3]]), "[redacted]");
  assert.equal(redactSpans("abc", []), "abc");
  assert.equal(redactSpans("abc", [[1, 1], [5, 9]]), "abc", "empty and out-of-range spans");
});

Deno.test("redaction: the refusal carries the body with the token and the key redacted", () =>
  withWorld(async ({ gate, tl, vega, journal, messagePosts }) => {
    const part = vega.token.slice("bc_uat_".length);
    const spelled = `${part.slice(0, 9)}\u200b${part.slice(9)}`; // zero-width, no prefix
    const body = `my token is ${spelled} and npm says ${NPM}, bye`;
    const error = await rejection(gate.post({ timeline: tl, body, kind: "tool" }));
    assert.ok(error instanceof GateRefusal, String(error));
    assert.deepEqual(error.failed.map((v) => v.check), ["known_secrets", "secret_guard"]);
    assert.equal(
      error.redactedFields.body,
      "my token is [redacted] and npm says [redacted], bye",
    );
    for (const text of [error.message, ...journal.lines]) {
      assert.ok(!text.includes(part.slice(9)) && !text.includes(NPM.slice(4)), text);
    }
    assert.deepEqual(journal.lines, [
      `WARNING post blocked timeline=${tl} kind=tool check=known_secrets,secret_guard`,
    ]);
    assert.equal(messagePosts(), 0);
  }));

Deno.test("redaction: a refusal that located no secret carries no redacted body", () =>
  withWorld(async ({ gate, tl }) => {
    const error = await rejection(gate.post({ timeline: tl, body: "z".repeat(41), kind: "tool" }));
    assert.ok(error instanceof GateRefusal && error.check === "max_length");
    assert.equal(error.redactedFields.body, undefined);
  }, { guardrails: parseGuardrails('{"max_length": 40}', "g.json") }));

Deno.test("redaction: the messages tool rewrites the refused call's own body argument", () =>
  withWorld(async ({ context, vega, messagePosts }) => {
    const tool = new MessagesTool(context());
    const args = { action: "create", body: `here: ${vega.token} and ${NPM}`, extra: 1 };
    const text = await tool.run(args, CALL);
    assert.match(text, /^Couldn't create a message: the outbound gate blocked it/);
    assert.deepEqual(args, {
      action: "create",
      body: "here: [redacted] and [redacted]", // the token's shape covers its prefix too
      extra: 1,
    });
    assert.ok(!text.includes(vega.token) && !JSON.stringify(args).includes(vega.token));
    assert.equal(messagePosts(), 0);
  }));

Deno.test("redaction: a body refused for its length only, or a frozen call, is left as it was", () =>
  withWorld(async ({ context }) => {
    const tool = new MessagesTool(context());
    const long = { action: "create", body: "y".repeat(41) };
    assert.match(await tool.run(long, CALL), /failed check: max_length/);
    assert.equal(long.body, "y".repeat(41));
    const frozen = Object.freeze({ action: "create", body: NPM });
    assert.match(await tool.run(frozen, CALL), /failed check: secret_guard\)/);
    assert.equal(frozen.body, NPM);
  }, { guardrails: parseGuardrails('{"max_length": 40}', "g.json") }));

Deno.test("redaction: a clean post leaves the arguments untouched", () =>
  withWorld(async ({ context, messagePosts }) => {
    const args = { action: "create", body: "all good" };
    assert.match(await new MessagesTool(context()).run(args, CALL), /^Posted to timeline/);
    assert.deepEqual(args, { action: "create", body: "all good" });
    assert.equal(messagePosts(), 1);
  }));
