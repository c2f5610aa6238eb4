/**
 * The tone check end to end below the wake: guardrails.json's `tone`, the judge over the real
 * openai SDK against a local wire mock, the gate posting to the real sandbox platform, and the
 * wake's context keeping the verdict for the turn record.
 */
import { strict as assert } from "node:assert";
import { GateRefusal, GuardrailsError, parseGuardrails } from "../../lib/gate/mod.ts";
import { parseJudgement, ToneJudgeError, type ToneVerdict } from "../../lib/gate/tone.ts";
import { GateVerdictSchema } from "../../lib/home/records/schema.ts";
import { WakeContext } from "../../lib/wake/context.ts";
import { wakeToneJudge } from "../../lib/wake/tone_judge.ts";
import { chatCompletion, ModelMock, openaiError, responsesReply } from "../support/model_mock.ts";
import { rejection, withWorld } from "./support.ts";

const INSTRUCTION = "Warm and plain; never sarcastic.";
const FILE = "/etc/basecradle/guardrails.json";

function judgeOn(mock: ModelMock, surface = "chat", maxTokens: number | undefined = 200) {
  return wakeToneJudge({ instruction: INSTRUCTION, model: "judge-mini", maxTokens }, {
    provider: "openai",
    sdk: "openai",
    surface,
    model: "agent-model",
    apiKey: "sk-test",
    baseURL: mock.baseURL,
  });
}

Deno.test("tone config: read from guardrails.json, off by default", () => {
  const on = parseGuardrails(
    JSON.stringify({ tone: { instruction: ` ${INSTRUCTION} `, model: "m", max_tokens: 64 } }),
    FILE,
  );
  assert.deepEqual(on.tone, { instruction: INSTRUCTION, model: "m", maxTokens: 64 });
  assert.equal(parseGuardrails("{}", FILE).tone, undefined);
});

Deno.test("tone config: a wrong tone entry refuses to load, naming file, key and fix", () => {
  const cases: [string, RegExp][] = [
    ['{"tone": {}}', /at 'tone\.instruction': the key is missing\. Fix: describe the tone/],
    ['{"tone": {"instruction": "   "}}', /at 'tone\.instruction'.*Fix: describe the tone/],
    [
      '{"tone": {"instruction": "x", "temp": 1}}',
      /at 'tone\.temp': unknown key\. Fix: tone's keys/,
    ],
    ['{"tone": {"instruction": "x", "max_tokens": 2.5}}', /at 'tone\.max_tokens'.*from 16 to/],
    ['{"tone": {"instruction": "x", "model": ""}}', /at 'tone\.model'.*leave the key out/],
    ['{"tone": "be nice"}', /at 'tone'.*Fix: make it an object like/],
  ];
  for (const [text, expected] of cases) {
    let error: unknown;
    try {
      parseGuardrails(text, FILE);
    } catch (caught) {
      error = caught;
    }
    assert.ok(error instanceof GuardrailsError);
    assert.ok(error.message.startsWith(`Guardrails file ${FILE} is invalid`), error.message);
    assert.match(error.message, expected);
  }
});

Deno.test("tone judgement: one JSON object, alone or fenced; anything else is unparseable", () => {
  assert.deepEqual(parseJudgement('{"pass": true, "reason": "Friendly."}'), {
    pass: true,
    reason: "Friendly.",
  });
  assert.deepEqual(parseJudgement('```json\n{"pass": false, "reason": "Curt."}\n```'), {
    pass: false,
    reason: "Curt.",
  });
  for (const reply of ["Sure! It passes.", '{"pass": "yes", "reason": "x"}', '{"pass": true}']) {
    assert.throws(() => parseJudgement(reply), (e) => e instanceof ToneJudgeError);
  }
  assert.throws(
    () => parseJudgement('{"pass": true, "reason": "ok", "score": 9}'),
    /unparseable|not \{"pass"/,
  );
});

Deno.test("tone gate: a message the judge passes is posted; the judge saw the instruction", async () => {
  await using mock = await ModelMock.start();
  mock.reply("chat", { json: chatCompletion({ content: '{"pass": true, "reason": "Kind."}' }) });
  await withWorld(async ({ gate, tl, messagePosts }) => {
    const seen: ToneVerdict[] = [];
    const message = await gate.post({
      timeline: tl,
      body: "Happy to help!",
      kind: "tool",
      onTone: (v) => seen.push(v),
    });
    assert.equal(message.content.body, "Happy to help!");
    assert.equal(messagePosts(), 1);
    assert.equal(seen.length, 1);
    assert.equal(seen[0].passed, true);
    assert.equal(seen[0].reason, "Kind.");
    assert.equal(seen[0].model, "judge-mini");
    const body = mock.lastBody("chat") as Record<string, unknown>;
    assert.equal(body.model, "judge-mini");
    assert.equal(body.max_completion_tokens, 200);
    assert.equal(body.tools, undefined);
    const [system, user] = body.messages as { role: string; content: string }[];
    assert.ok(system.content.includes(INSTRUCTION));
    assert.ok(user.content.includes("Happy to help!"));
  }, { tone: judgeOn(mock) });
});

Deno.test("tone gate: a failing verdict refuses with the judge's reason verbatim; nothing posted", async () => {
  await using mock = await ModelMock.start();
  const reason = "It mocks the reader; drop the sarcasm.";
  mock.reply("chat", {
    json: chatCompletion({ content: JSON.stringify({ pass: false, reason }) }),
  });
  await withWorld(async ({ gate, tl, journal, messagePosts }) => {
    const error = await rejection(
      gate.post({ timeline: tl, body: "Oh, brilliant.", kind: "tool" }),
    );
    assert.ok(error instanceof GateRefusal, String(error));
    assert.equal(error.check, "tone");
    assert.ok(error.message.includes(reason), error.message);
    assert.equal(messagePosts(), 0);
    assert.deepEqual(journal.lines, [`WARNING post blocked timeline=${tl} kind=tool check=tone`]);
  }, { tone: judgeOn(mock) });
});

Deno.test("tone gate: the rule checks run first; a refused body never reaches the judge", async () => {
  await using mock = await ModelMock.start();
  await withWorld(async ({ gate, tl, vega }) => {
    const error = await rejection(gate.post({ timeline: tl, body: vega.token, kind: "tool" }));
    assert.ok(error instanceof GateRefusal);
    assert.equal(error.check, "known_secrets");
    assert.equal(mock.hits("chat"), 0);
  }, { tone: judgeOn(mock) });
});

Deno.test("tone gate: the wake's own reports are not judged", async () => {
  await using mock = await ModelMock.start();
  await withWorld(async ({ gate, tl, messagePosts }) => {
    await gate.post({ timeline: tl, body: "I could not answer.", kind: "failure-report" });
    assert.equal(messagePosts(), 1);
    assert.equal(mock.hits("chat"), 0);
  }, { tone: judgeOn(mock) });
});

Deno.test("tone gate: a broken judge fails closed with a typed verdict and one WARNING line", async () => {
  await using mock = await ModelMock.start();
  mock.reply("chat", { json: chatCompletion({ content: "Looks fine to me!" }) });
  mock.reply("chat", { status: 400, json: openaiError("model judge-mini does not exist") });
  await withWorld(async ({ gate, tl, journal, messagePosts }) => {
    const seen: ToneVerdict[] = [];
    for (const expected of ["unparseable", "failed"]) {
      const error = await rejection(
        gate.post({ timeline: tl, body: "Hello!", kind: "tool", onTone: (v) => seen.push(v) }),
      );
      assert.ok(error instanceof GateRefusal, String(error));
      assert.equal(error.check, "tone");
      assert.match(error.message, /could not judge the message.*not about your wording/);
      assert.equal(seen.at(-1)?.error, expected);
      assert.equal(seen.at(-1)?.passed, false);
    }
    assert.equal(messagePosts(), 0);
    assert.equal(journal.lines.length, 4);
    assert.match(
      journal.lines[0],
      /^WARNING tone unjudged timeline=\S+ model=judge-mini error=unparseable why=/,
    );
    assert.match(journal.lines[2], /^WARNING tone unjudged .*error=failed why=.*does not exist/);
    assert.ok(journal.lines.every((l) => !/\n|\s{4}at /.test(l)), "no stack trace");
  }, { tone: judgeOn(mock) });
});

Deno.test("tone gate: on the Responses surface the cap is max_output_tokens", async () => {
  await using mock = await ModelMock.start();
  mock.reply("responses", { json: responsesReply({ text: '{"pass": true, "reason": "Fine."}' }) });
  await withWorld(async ({ gate, tl, messagePosts }) => {
    await gate.post({ timeline: tl, body: "Hi there.", kind: "tool" });
    assert.equal(messagePosts(), 1);
    const body = mock.lastBody("responses") as Record<string, unknown>;
    assert.equal(body.max_output_tokens, 200);
    assert.equal(body.model, "judge-mini");
  }, { tone: judgeOn(mock, "responses") });
});

Deno.test("tone verdicts reach the turn's gate verdicts, and a tone refusal counts", async () => {
  await using mock = await ModelMock.start();
  mock.reply("chat", { json: chatCompletion({ content: '{"pass": false, "reason": "Curt."}' }) });
  mock.reply("chat", { json: chatCompletion({ content: '{"pass": true, "reason": "Kind."}' }) });
  await withWorld(async ({ gate, tl, vega, journal }) => {
    const context = new WakeContext({
      client: vega.client,
      gate,
      timeline: tl,
      self: { uuid: vega.uuid, handle: vega.handle },
      journal,
    });
    context.beginTurn(undefined, [], 0);
    await rejection(context.gate.post({ timeline: tl, body: "No.", kind: "tool" }));
    await context.gate.post({ timeline: tl, body: "Sorry, not today!", kind: "tool" });
    assert.equal(context.refusals, 1);
    const [refused, passed] = context.verdicts;
    assert.deepEqual([refused.verdict, refused.checks, refused.tone?.reason], [
      "refused",
      ["tone"],
      "Curt.",
    ]);
    assert.deepEqual([passed.verdict, passed.tone?.passed, passed.tone?.model], [
      "passed",
      true,
      "judge-mini",
    ]);
    // The stored shape the records writer produces validates.
    const stored = {
      kind: "tool",
      verdict: "passed",
      checks: [],
      tone: {
        passed: true,
        reason: "Kind.",
        model: "judge-mini",
        body_sha256: passed.tone?.bodySha256,
        instruction_sha256: passed.tone?.instructionSha256,
      },
    };
    assert.ok(GateVerdictSchema.safeParse(stored).success);
  }, { tone: judgeOn(mock) });
});
