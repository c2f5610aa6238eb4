/**
 * The demo model as the gate's tone judge (docs/sandbox.md#the-demo-models-tone-judge): it knows
 * a judge request by the gate's own prompt (`judgeSystem`, `judgeUser`), fails a message holding
 * a marker of its documented list or a phrase the instruction quotes, passes any other, and
 * answers the strict JSON the gate parses — on every wire, through the real SDKs the wake's
 * judge uses (openai on both surfaces, anthropic, openrouter), and streamed on Chat Completions.
 */
import { strict as assert } from "node:assert";
import OpenAI from "openai";
import { judgeSystem, judgeUser, MAX_TONE_REASON, parseJudgement } from "../../lib/gate/tone.ts";
import type { BuildProviderOptions } from "../../lib/providers/factory.ts";
import { Sandbox } from "../../lib/sandbox/mod.ts";
import {
  decide,
  DEMO_MODEL_ID,
  type DemoConversation,
  judgeQuestion,
  judgeTone,
  quotedPhrases,
  TONE_MARKERS,
} from "../../lib/sandbox/model/mod.ts";
import { wakeToneJudge } from "../../lib/wake/tone_judge.ts";

const INSTRUCTION = "Warm and plain; never sarcastic.";

/** The conversation the gate's judge sends, read off any wire. */
function judgeRequest(instruction: string, body: string): DemoConversation {
  return {
    turns: [
      { role: "system", text: judgeSystem(instruction) },
      { role: "user", text: judgeUser(body) },
    ],
    tools: [],
  };
}

/** What the demo model answers the judge request, read the way the gate reads it. */
function verdict(body: string, instruction = INSTRUCTION): { pass: boolean; reason: string } {
  const decision = decide(judgeRequest(instruction, body));
  assert.equal(decision.kind, "text");
  return parseJudgement(decision.kind === "text" ? decision.text : "");
}

Deno.test("demo judge: the gate's own prompt is recognised, its instruction and body read back", () => {
  // The instruction may span lines and even repeat the format's opening; the body may hold fences.
  const instruction = "Be kind.\n\nAnswer with exactly one JSON object and nothing else: no.";
  const body = "line one\n>>>\n<<<\nline two";
  assert.deepEqual(judgeQuestion(judgeRequest(instruction, body)), { instruction, body });
  assert.deepEqual(judgeQuestion(judgeRequest(INSTRUCTION, "")), {
    instruction: INSTRUCTION,
    body: "",
  });
});

Deno.test("demo judge: a request not shaped like the judge's is answered as a conversation", () => {
  const request = judgeRequest(INSTRUCTION, "Obviously.");
  const peer = { role: "user" as const, text: "[2026-01-01T09:00:00Z] ada: obviously, hi" };
  const cases: DemoConversation[] = [
    // tools offered: an agent's turn, not a judge's
    { ...request, tools: ["messages"] },
    // another system text
    { turns: [{ role: "system", text: "You are a peer." }, request.turns[1]], tools: [] },
    // the user turn is not the fenced message
    { turns: [request.turns[0], peer], tools: [] },
    // a judge's prompt with more turns around it
    { turns: [...request.turns, { role: "system", text: "Step 1 of 24." }], tools: [] },
  ];
  for (const conversation of cases) assert.equal(judgeQuestion(conversation), undefined);
  const agent = decide({ turns: [{ role: "system", text: "You are a peer." }, peer], tools: [] });
  assert.equal(agent.kind, "text");
  assert.throws(() => parseJudgement(agent.kind === "text" ? agent.text : ""));
  // with the messages tool offered it answers as an agent does: one post
  assert.equal(decide({ ...request, tools: ["messages"] }).kind, "call");
});

Deno.test("demo judge: a listed marker fails the message, as a whole word in any case", () => {
  assert.deepEqual(verdict("Thanks, happy to help with that."), {
    pass: true,
    reason: "The sandbox's demo judge found no rude or sarcastic marker and no phrase the " +
      "instruction quotes.",
  });
  assert.deepEqual(verdict("OBVIOUSLY, the sky is blue."), {
    pass: false,
    reason: 'The message says "obviously", a marker the sandbox\'s demo judge counts as rude ' +
      "or sarcastic; say it without that.",
  });
  // any whitespace between a phrase's words; never inside a longer word
  assert.equal(verdict("Yeah\n  right, sure.").pass, false);
  assert.equal(verdict("Lift the dumbbell; shutup is one word.").pass, true);
  assert.equal(verdict("That was dumb.").pass, false);
  // the earliest marker in the message is the one named
  assert.match(verdict("Whatever — that is stupid.").reason, /says "whatever"/);
  assert.match(verdict("That is stupid, whatever.").reason, /says "stupid"/);
  for (const marker of TONE_MARKERS) {
    assert.equal(verdict(`Well, ${marker.toUpperCase()}.`).pass, false, marker);
  }
});

Deno.test("demo judge: a phrase the instruction puts in double quotes fails the message", () => {
  const instruction = 'Plain words. Never "per my last message", nor “circle back”, nor "".';
  assert.deepEqual(quotedPhrases(instruction), ["per my last message", "circle back"]);
  assert.deepEqual(verdict("As per  my LAST message: no.", instruction), {
    pass: false,
    reason: 'The message says "per my last message", a phrase the operator\'s instruction ' +
      "quotes; say it without that.",
  });
  assert.equal(verdict("Let's circle back tomorrow.", instruction).pass, false);
  assert.equal(verdict("My last message was short.", instruction).pass, true);
  // a quoted phrase is matched literally, regular-expression characters and all
  assert.equal(verdict("We wrote it in C.", 'Never say "C++ (sic)".').pass, true);
  assert.equal(verdict("We wrote it in c++ (SIC).", 'Never say "C++ (sic)".').pass, false);
  // a long quoted phrase is clipped in the reason: the gate keeps a sentence, not an essay
  const long = "x".repeat(600);
  const clipped = judgeTone({ instruction: `Never "${long}".`, body: `${long}!` });
  assert.equal(clipped.pass, false);
  assert.ok(clipped.reason.length < MAX_TONE_REASON, clipped.reason);
  assert.match(clipped.reason, /x…", a phrase/);
});

/** The wires the wake's judge can speak, as the wake's provider options name them. */
const WIRES: readonly [string, (sandbox: Sandbox) => BuildProviderOptions][] = [
  ["openai/chat", (sandbox) => openai(sandbox, "chat")],
  ["openai/responses", (sandbox) => openai(sandbox, "responses")],
  ["anthropic", (sandbox) => ({
    provider: "anthropic",
    sdk: "anthropic",
    model: DEMO_MODEL_ID,
    apiKey: "x",
    baseURL: sandbox.anthropicModelUrl,
  })],
  ["openrouter", (sandbox) => ({
    provider: "openrouter",
    sdk: "openrouter",
    model: DEMO_MODEL_ID,
    apiKey: "x",
    baseURL: sandbox.modelUrl,
  })],
];

function openai(sandbox: Sandbox, surface: string): BuildProviderOptions {
  return {
    provider: "openai",
    sdk: "openai",
    surface,
    model: DEMO_MODEL_ID,
    apiKey: "x",
    baseURL: sandbox.modelUrl,
  };
}

for (const [name, options] of WIRES) {
  Deno.test(`demo judge over ${name}: the wake's judge gets a verdict, pass and fail`, async () => {
    const sandbox = await Sandbox.start({ port: 0, log: () => {} });
    try {
      const judge = wakeToneJudge(
        { instruction: 'Warm. Never "per my last".', maxTokens: 100 },
        options(sandbox),
      );
      const kind = await judge.judge("Happy to help!");
      assert.equal(kind.error, undefined, kind.reason);
      assert.equal(kind.passed, true);
      assert.equal(kind.model, DEMO_MODEL_ID);
      const rude = await judge.judge("Obviously you missed it.");
      assert.equal(rude.error, undefined, rude.reason);
      assert.equal(rude.passed, false);
      assert.match(rude.reason, /^The message says "obviously"/);
      const quoted = await judge.judge("As per my last note.");
      assert.equal(quoted.passed, false);
      assert.match(quoted.reason, /"per my last", a phrase the operator's instruction quotes/);
    } finally {
      await sandbox.close();
    }
  });
}

Deno.test("demo judge over chat with stream: true: the verdict arrives as content deltas", async () => {
  const sandbox = await Sandbox.start({ port: 0, log: () => {} });
  try {
    const client = new OpenAI({ baseURL: sandbox.modelUrl, apiKey: "x", maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: DEMO_MODEL_ID,
      stream: true,
      messages: [
        { role: "system", content: judgeSystem(INSTRUCTION) },
        { role: "user", content: judgeUser("Shut up and listen.") },
      ],
    });
    let text = "";
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    assert.equal(finish, "stop");
    assert.deepEqual(parseJudgement(text), verdict("Shut up and listen."));
    assert.equal(parseJudgement(text).pass, false);
  } finally {
    await sandbox.close();
  }
});
