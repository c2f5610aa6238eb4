/** The gate against the real sandbox: what passes is posted, what fails never leaves. */
import { strict as assert } from "node:assert";
import { Gate, GateRefusal, parseGuardrails } from "../../lib/gate/mod.ts";
import { ForbiddenError } from "../../lib/platform/mod.ts";
import { rejection, withWorld } from "./support.ts";

const API_KEY = "sk-proj-Zx81kLmN0pQrSt2uVw4yAb6c";

Deno.test("gate: a clean message is posted and logged `posted … kind chars`", () =>
  withWorld(async ({ gate, tl, vega, journal, messagePosts }) => {
    const body = "Hello ada 👋";
    const message = await gate.post({ timeline: tl, body, kind: "tool" });
    assert.equal(message.content.body, body);
    assert.equal(message.user.uuid, vega.uuid);
    assert.equal(messagePosts(), 1);
    // chars counts code points: the emoji is one character, as in the reference.
    assert.deepEqual(journal.lines, [
      `INFO posted message=${message.content.uuid} timeline=${tl} kind=tool chars=11`,
    ]);
  }));

Deno.test("gate: an API-key-shaped body is refused and NEVER reaches the sandbox", () =>
  withWorld(async ({ gate, tl, journal, c, messagePosts }) => {
    const before = c.sandbox.requests.length;
    const error = await rejection(
      gate.post({ timeline: tl, body: `here is the key: ${API_KEY}`, kind: "tool" }),
    );
    assert.ok(error instanceof GateRefusal, String(error));
    assert.equal(error.check, "secret_guard");
    assert.match(error.message, /secret_guard/);
    assert.match(error.message, /an OpenAI-style API key/);
    assert.ok(!error.message.includes(API_KEY), "the refusal must not echo the secret");
    assert.equal(messagePosts(), 0);
    assert.deepEqual(c.sandbox.requests.slice(before), [], "no request at all left the gate");
    assert.deepEqual(journal.lines, [
      `WARNING post blocked timeline=${tl} kind=tool check=secret_guard`,
    ]);
  }));

Deno.test("gate: the agent's own token is refused even with the shape guard off", () =>
  withWorld(async ({ gate, tl, vega, journal, messagePosts }) => {
    // A bare token body: the literal check names it without relying on the bc_ shape.
    const error = await rejection(
      gate.post({ timeline: tl, body: `token=${vega.token}`, kind: "failure-report" }),
    );
    assert.ok(error instanceof GateRefusal);
    assert.equal(error.check, "known_secrets");
    assert.ok(!error.message.includes(vega.token));
    assert.equal(messagePosts(), 0);
    assert.ok(journal.lines.every((l) => !l.includes(vega.token)));
    assert.deepEqual(journal.lines, [
      `WARNING post blocked timeline=${tl} kind=failure-report check=known_secrets`,
    ]);
  }, { guardrails: parseGuardrails('{"secret_guard": false}', "g.json") }));

Deno.test("gate: secret_guard=false lets a key shape through (the switch really switches)", () =>
  withWorld(async ({ gate, tl, messagePosts }) => {
    const message = await gate.post({ timeline: tl, body: `k ${API_KEY}`, kind: "tool" });
    assert.equal(message.content.body, `k ${API_KEY}`);
    assert.equal(messagePosts(), 1);
  }, { guardrails: parseGuardrails('{"secret_guard": false}', "g.json") }));

Deno.test("gate: empty and whitespace-only bodies are refused (not_empty)", () =>
  withWorld(async ({ gate, tl, messagePosts }) => {
    for (const body of ["", "  \n\t "]) {
      const error = await rejection(gate.post({ timeline: tl, body, kind: "tool" }));
      assert.ok(error instanceof GateRefusal);
      assert.equal(error.check, "not_empty");
    }
    assert.equal(messagePosts(), 0);
  }));

Deno.test("gate: default length limit is 10 000 code points; one more is refused", () =>
  withWorld(async ({ gate, tl, messagePosts }) => {
    const atLimit = "😀".repeat(10_000); // 20 000 UTF-16 units, 10 000 characters
    await gate.post({ timeline: tl, body: atLimit, kind: "tool" });
    const error = await rejection(gate.post({ timeline: tl, body: atLimit + "x", kind: "tool" }));
    assert.ok(error instanceof GateRefusal);
    assert.equal(error.check, "max_length");
    assert.match(error.message, /10001 characters long and the limit is 10000/);
    assert.equal(messagePosts(), 1);
  }));

Deno.test("gate: a configured max_length applies", () =>
  withWorld(async ({ gate, tl, messagePosts }) => {
    await gate.post({ timeline: tl, body: "x".repeat(20), kind: "tool" });
    const error = await rejection(gate.post({ timeline: tl, body: "x".repeat(21), kind: "tool" }));
    assert.ok(error instanceof GateRefusal && error.check === "max_length");
    assert.equal(messagePosts(), 1);
  }, { guardrails: parseGuardrails('{"max_length": 20}', "g.json") }));

const PATTERNS = parseGuardrails(
  JSON.stringify({
    forbidden_patterns: [
      { pattern: "\\bnightjar\\b", flags: "i", reason: "the codename is internal" },
      { pattern: "DROP TABLE" },
    ],
  }),
  "g.json",
);

Deno.test("gate: forbidden patterns refuse (case-insensitive when flagged), naming the reason", () =>
  withWorld(async ({ gate, tl, journal, messagePosts }) => {
    const first = await rejection(
      gate.post({ timeline: tl, body: "Project NightJar ships Friday", kind: "tool" }),
    );
    assert.ok(first instanceof GateRefusal);
    assert.equal(first.check, "forbidden_patterns");
    assert.match(first.message, /pattern #1: the codename is internal/);
    const second = await rejection(gate.post({ timeline: tl, body: "DROP TABLE x", kind: "tool" }));
    assert.ok(second instanceof GateRefusal);
    assert.match(second.message, /pattern #2: it matches \/DROP TABLE\//);
    // No i flag on the second pattern: another case passes.
    await gate.post({ timeline: tl, body: "drop table x (lowercase is fine)", kind: "tool" });
    assert.equal(messagePosts(), 1);
    assert.equal(journal.lines.filter((l) => l.startsWith("WARNING post blocked")).length, 2);
  }, { guardrails: PATTERNS }));

Deno.test("gate: every failing check is reported, the first one names the refusal", () =>
  withWorld(async ({ gate, tl, journal }) => {
    const body = `nightjar ${API_KEY} ${"y".repeat(30)}`;
    const error = await rejection(gate.post({ timeline: tl, body, kind: "tool" }));
    assert.ok(error instanceof GateRefusal);
    assert.deepEqual(error.failed.map((v) => v.check), [
      "secret_guard",
      "max_length",
      "forbidden_patterns",
    ]);
    assert.equal(error.check, "secret_guard");
    assert.deepEqual(journal.lines, [
      `WARNING post blocked timeline=${tl} kind=tool check=secret_guard,max_length,forbidden_patterns`,
    ]);
  }, {
    guardrails: parseGuardrails(
      '{"max_length": 40, "forbidden_patterns": [{"pattern": "nightjar"}]}',
      "g.json",
    ),
  }));

Deno.test("gate: an Idempotency-Key is sent and a replay returns the same message", () =>
  withWorld(async ({ gate, tl, c, ada, journal }) => {
    const key = "7f0c3a52-0d7e-5b7a-9a43-5f1e0c7d2b11";
    const first = await gate.post({
      timeline: tl,
      body: "once",
      kind: "tool",
      idempotencyKey: key,
    });
    const again = await gate.post({
      timeline: tl,
      body: "once",
      kind: "tool",
      idempotencyKey: key,
    });
    assert.equal(again.content.uuid, first.content.uuid);
    const posts = c.sandbox.requests.filter((r) => r.method === "POST" && /messages$/.test(r.path));
    assert.deepEqual(posts.map((r) => r.idempotencyKey), [key, key]);
    const listed = await ada.client.messages.list({ timeline: tl }).toArray();
    assert.equal(listed.length, 1, "the replay created nothing");
    assert.equal(journal.lines.filter((l) => l.includes(first.content.uuid)).length, 2);
  }));

Deno.test("gate: without a key no Idempotency-Key header is sent", () =>
  withWorld(async ({ gate, tl, c }) => {
    const before = c.sandbox.requests.length;
    await gate.post({ timeline: tl, body: "no key", kind: "probe-ack" });
    const sent = c.sandbox.requests.slice(before);
    assert.deepEqual(sent.map((r) => [r.method, r.idempotencyKey]), [["POST", null]]);
  }));

Deno.test("gate: a platform refusal propagates as its typed error, with no `posted` line", () =>
  withWorld(async ({ gate, tl, ada, journal }) => {
    await ada.client.timelines.lock(tl);
    const error = await rejection(gate.post({ timeline: tl, body: "hello", kind: "tool" }));
    assert.ok(error instanceof ForbiddenError, String(error));
    assert.equal(error.code, "timeline_locked");
    assert.deepEqual(journal.lines, []);
  }));

Deno.test("gate: screen() runs the same checks without posting", () =>
  withWorld(({ gate, tl, journal, messagePosts }) => {
    const checked = gate.screen({ timeline: tl, body: "fine", kind: "tool" });
    assert.equal(checked.body, "fine");
    assert.ok(checked.verdicts.length >= 4 && checked.verdicts.every((v) => v.passed));
    assert.throws(() => gate.screen({ timeline: tl, body: " ", kind: "tool" }), GateRefusal);
    assert.equal(messagePosts(), 0);
    assert.deepEqual(journal.lines, [
      `WARNING post blocked timeline=${tl} kind=tool check=not_empty`,
    ]);
    return Promise.resolve();
  }));

Deno.test("gate: the default gate (no guardrails, no journal) still screens", () =>
  withWorld(async ({ vega, tl, messagePosts }) => {
    const bare = new Gate({ client: vega.client });
    await assert.rejects(bare.post({ timeline: tl, body: API_KEY, kind: "tool" }), GateRefusal);
    await bare.post({ timeline: tl, body: "plain", kind: "tool" });
    assert.equal(messagePosts(), 1);
  }));
