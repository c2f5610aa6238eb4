/**
 * The persistence caps (docs/context.md#caps): what a step writes to disk is bounded, measured in
 * code points, water-filled, with replayable creates kept whole, and re-capping is a fixed point.
 */
import assert from "node:assert/strict";
import {
  ARG_ACTION_MAX,
  argumentMarker,
  capArguments,
  capForPersistence,
  capToolArguments,
  capToolResults,
  elideArgument,
  ELIDED_KEY,
  elideResult,
  gone,
  resultMarker,
  TOOL_ARGS_CAP,
  TOOL_RESULT_CAP,
  waterFill,
} from "../../lib/core/transcript/caps.ts";
import { codePointLength } from "../../lib/base/code_points.ts";
import { createKind } from "../../lib/core/types/create_calls.ts";
import { INTERRUPTED } from "../../lib/core/transcript/heal.ts";
import { Message, type ToolCall } from "../../lib/core/types/message.ts";
import { dumpsIndented, jsonSize } from "../../lib/pycompat/json.ts";
import { parseTranscript, serializeTranscript } from "../../lib/core/transcript/session_format.ts";

const call = (id: string, name: string, args: Record<string, unknown>): ToolCall => ({
  id,
  name,
  arguments: args,
});

/** One step: an assistant turn with `calls`, then a result per entry of `results`. */
function step(calls: ToolCall[], results: [string, string][]): Message[] {
  return [
    Message.assistant({ toolCalls: calls }),
    ...results.map(([id, text]) => Message.tool(id, text)),
  ];
}

const sixtyKb = Array.from({ length: 1000 }, (_, i) => `line ${i} ${"x".repeat(55)}\n`).join("");

Deno.test("a 60 KB result is persisted capped: head, marker naming the total, tail, id intact", () => {
  const live = [Message.user("go"), ...step([call("a", "web_fetch", {})], [["a", sixtyKb]])];
  const capped = capToolResults(live);
  const text = capped[2].content as string;
  assert.ok(codePointLength(text) < TOOL_RESULT_CAP);
  assert.ok(text.startsWith(sixtyKb.slice(0, 2048)));
  assert.ok(text.endsWith(sixtyKb.slice(-512)));
  assert.ok(text.includes(resultMarker(sixtyKb.length - 2560, sixtyKb.length)));
  assert.ok(text.includes("elided") && text.includes(`of ${sixtyKb.length}`));
  assert.equal(capped[2].toolCallId, "a");
  // The model saw it whole: the live list still holds the full result.
  assert.equal(live[2].content, sixtyKb);
});

Deno.test("a step that fans out shares one 4096 budget; small siblings stay whole", () => {
  const calls = ["b1", "b2", "b3"].map((id) => call(id, "web_fetch", {}));
  const live = step(calls, [["b1", "B".repeat(10000)], ["b2", "small result"], [
    "b3",
    "C".repeat(10000),
  ]]);
  const capped = capToolResults(live);
  const sizes = capped.slice(1).map((m) => codePointLength(m.content as string));
  assert.ok(sizes.reduce((a, b) => a + b) <= TOOL_RESULT_CAP, `total ${sizes}`);
  assert.equal(capped[2].content, "small result");
  // Each big one got about half of what the small one left, not a full cap each.
  const share = Math.floor((TOOL_RESULT_CAP - 12) / 2);
  assert.ok(sizes[0] <= share && sizes[0] > share - 20, `b1 ${sizes[0]}`);
  assert.ok((capped[1].content as string).startsWith("BBBB"));
  assert.ok((capped[1].content as string).includes("elided of 10000"));
});

Deno.test("a wide fan-out of small results is kept whole (water-filling costs it nothing)", () => {
  const ids = Array.from({ length: 10 }, (_, i) => `c${i}`);
  const live = step(ids.map((id) => call(id, "t", {})), ids.map((id) => [id, id.repeat(150)]));
  assert.deepEqual(capToolResults(live), live);
});

Deno.test("an orphan tool message is capped on its own at 4096", () => {
  const live = [Message.tool("stray", "o".repeat(9000)), Message.user("hi")];
  const capped = capToolResults(live);
  const text = capped[0].content as string;
  assert.ok(codePointLength(text) <= TOOL_RESULT_CAP);
  assert.ok(text.includes("elided of 9000"));
  // A tool message after an assistant turn with no calls is an orphan too.
  const late = [Message.assistant({ content: "hi" }), Message.tool("x", "p".repeat(5000))];
  assert.ok((capToolResults(late)[1].content as string).includes("elided of 5000"));
});

Deno.test("the interrupted sentinel and empty results are outside the pool, never elided", () => {
  const ids = Array.from({ length: 30 }, (_, i) => `c${i}`);
  const results: [string, string][] = ids.map((id) => [id, "r".repeat(10000)]);
  results.push(["x", INTERRUPTED], ["y", ""]);
  const live = step([...ids, "x", "y"].map((id) => call(id, "t", {})), results);
  const capped = capToolResults(live);
  assert.equal(capped[31].content, INTERRUPTED);
  assert.equal(capped[32].content, "");
  // Thirty results of 10k share 4096: the first ones get floor markers, the surplus rolls on.
  const total = capped.slice(1, 31).reduce((n, m) => n + codePointLength(m.content as string), 0);
  assert.ok(total <= TOOL_RESULT_CAP, `total ${total}`);
  assert.equal(capped[1].content, gone(10000));
});

Deno.test("sizes are code points: 4096 emoji fit, 4097 are cut without splitting a pair", () => {
  const fits = "😀".repeat(TOOL_RESULT_CAP); // 8192 UTF-16 units
  assert.equal(elideResult(fits, TOOL_RESULT_CAP), fits);
  const over = "😀".repeat(TOOL_RESULT_CAP + 1);
  const cut = elideResult(over, TOOL_RESULT_CAP);
  assert.ok(cut.startsWith("😀".repeat(2048) + "\n\n[... "));
  assert.ok(cut.endsWith("]\n\n" + "😀".repeat(512)));
  assert.ok(cut.includes(`elided of ${TOOL_RESULT_CAP + 1}`));
  assert.ok(cut.isWellFormed(), "no lone surrogate in the excerpt");
});

Deno.test("the floor marker when a share has no room for an excerpt, and it is never re-cut", () => {
  assert.equal(elideResult("z".repeat(500), 100), gone(500));
  assert.equal(elideResult(gone(500), 10), gone(500));
  assert.equal(elideResult("short", 0), "short");
});

Deno.test("an excerpt is sized against the widest marker it could carry", () => {
  // budget 1000, total 10000: marker(10000, 10000) is 151 long, so room 849 = head 680 + tail 169.
  const text = "h".repeat(680) + "m".repeat(10000 - 849) + "t".repeat(169);
  const cut = elideResult(text, 1000);
  assert.equal(cut, "h".repeat(680) + resultMarker(9151, 10000) + "t".repeat(169));
  assert.equal(cut.length, 999);
});

Deno.test("water-filling shares are floor divisions of what is left", () => {
  const kept = waterFill(
    ["a", "b", "c"].map((c) => c.repeat(100)),
    200,
    (s) => s.length,
    (s, n) => s.slice(0, n),
  );
  assert.deepEqual(kept.map((s) => s.length), [66, 67, 67]);
});

Deno.test("water-filling gives the surplus of small items to big ones, floor division", () => {
  const kept = waterFill(
    [50, 10, 200, 30].map((n) => "a".repeat(n)),
    200,
    (s) => s.length,
    (s, share) => s.slice(0, share),
  );
  // 10 fits 50, 30 fits 63, 50 fits 80, then 200 gets 200-90 = 110.
  assert.deepEqual(kept.map((s) => s.length), [50, 10, 110, 30]);
});

// ---- arguments ----

const TIMELINE = "5f0c1a2e-8b7d-4e3f-9a6b-1c2d3e4f5a6b";

function createStep(args: Record<string, unknown>, result: string | undefined): Message[] {
  const calls = [call("m", "messages", args)];
  return step(calls, result === undefined ? [] : [["m", result]]);
}

Deno.test("500 Japanese characters fit: measured unescaped, not as \\uXXXX", () => {
  const body = "日本語の文章です。".repeat(56).slice(0, 500);
  const args = { action: "create", timeline: TIMELINE, body };
  // The escaped (on-disk) form alone would blow the budget six times over…
  assert.ok(dumpsIndented(args).length > TOOL_ARGS_CAP);
  // …but what is measured is the text: 500 characters, so the call is kept verbatim.
  assert.ok(jsonSize(args) < TOOL_ARGS_CAP);
  const capped = capToolArguments(createStep(args, "Posted message 7."));
  assert.deepEqual(capped[0].toolCalls?.[0].arguments, args);
  // And the disk still stores escapes, which load back to the same text.
  const text = serializeTranscript(capped);
  assert.ok(text.includes("\\u65e5\\u672c\\u8a9e") && !text.includes("日"));
  assert.deepEqual(parseTranscript(text, "mem").at(0)?.toolCalls?.[0].arguments, args);
});

Deno.test("the same body in English and in Japanese is capped alike (by language, not script)", () => {
  const en = { action: "create", body: "a".repeat(1900) };
  const ja = { action: "create", body: "あ".repeat(1900) };
  assert.equal(jsonSize(en), jsonSize(ja));
  const a = capToolArguments(createStep(en, "ok"))[0].toolCalls?.[0].arguments;
  const j = capToolArguments(createStep(ja, "ok"))[0].toolCalls?.[0].arguments;
  assert.equal(a, en);
  assert.equal(j, ja);
});

Deno.test("an oversized argument persists capped: short args verbatim, action kept, live untouched", () => {
  const body = "The report. " + "detail ".repeat(3000) + "THE END";
  const args = { action: "create", timeline: TIMELINE, subject: "Weekly", body };
  const live = createStep(args, "Posted message 9.");
  const capped = capToolArguments(live)[0].toolCalls?.[0].arguments as Record<string, string>;
  assert.ok(jsonSize(capped) <= TOOL_ARGS_CAP);
  assert.equal(capped.action, "create");
  assert.equal(capped.timeline, TIMELINE);
  assert.equal(capped.subject, "Weekly");
  assert.ok(capped.body.startsWith("The report. detail"));
  assert.ok(capped.body.includes(`elided from ${body.length} chars`));
  assert.ok(capped.body.endsWith("THE END"));
  assert.equal(live[0].toolCalls?.[0].arguments.body, body);
  assert.equal(createKind({ name: "messages", arguments: capped }), "message");
});

Deno.test("an argument excerpt is head + marker + a fifth of the room as tail", () => {
  // budget 300, marker costs 125 as JSON: room 175 = head 140 + tail 35.
  const value = "h".repeat(500) + "m".repeat(300) + "t".repeat(200);
  const cut = elideArgument(value, 300) as string;
  assert.equal(cut, "h".repeat(140) + argumentMarker(1000) + "t".repeat(35));
  assert.equal(jsonSize(cut), 300);
});

Deno.test("the fit is measured: escapes that overrun the budget halve it and re-measure", () => {
  // 5000 quotes cost two characters each; the fit at 2048 overruns, the fit at 1024 holds.
  const args = { q: '"'.repeat(5000) };
  const capped = capArguments(args, TOOL_ARGS_CAP);
  assert.deepEqual(capped, { q: '"'.repeat(762) + argumentMarker(5000) + '"'.repeat(128) });
  assert.equal(jsonSize(capped), 1912);
});

Deno.test("a call of several medium arguments keeps all of them", () => {
  const args = {
    action: "create",
    title: "t".repeat(700),
    description: "d".repeat(700),
    notes: "n".repeat(700),
  };
  const capped = capArguments(args, TOOL_ARGS_CAP) as Record<string, string>;
  assert.ok(jsonSize(capped) <= TOOL_ARGS_CAP);
  assert.deepEqual(Object.keys(capped), Object.keys(args));
  assert.equal(capped.action, "create");
  for (const key of ["title", "description", "notes"]) {
    assert.ok(capped[key].startsWith(key[0].repeat(64)), key);
    assert.ok(capped[key].includes("elided from 700 chars"), key);
  }
  // Three 600-character fields fit whole.
  const fits = { action: "create", a: "a".repeat(600), b: "b".repeat(600), c: "c".repeat(600) };
  assert.equal(capArguments(fits, TOOL_ARGS_CAP), fits);
});

Deno.test("a non-string value too big for its share becomes the floor marker", () => {
  const args = { action: "update", rows: Array.from({ length: 1000 }, (_, i) => i) };
  const capped = capArguments(args, TOOL_ARGS_CAP);
  assert.deepEqual(capped, { action: "update", rows: gone(jsonSize(args.rows)) });
});

Deno.test("a call too big to bound by eliding values is stubbed and still classifiable", () => {
  const args: Record<string, unknown> = { action: "create" };
  for (let i = 0; i < 300; i++) args[`field_number_${i}`] = `value ${i} `.repeat(3);
  const stub = capArguments(args, TOOL_ARGS_CAP);
  assert.deepEqual(stub, { action: "create", [ELIDED_KEY]: gone(jsonSize(args)) });
  assert.equal(createKind({ name: "tasks", arguments: stub }), "task");
  // A long action cannot be a create, so the stub drops it.
  const long = { ...args, action: "x".repeat(ARG_ACTION_MAX + 1) };
  assert.deepEqual(Object.keys(capArguments(long, TOOL_ARGS_CAP)), [ELIDED_KEY]);
  // A stub is final, even when its share is smaller than itself.
  assert.equal(capArguments(stub, 10), stub);
});

Deno.test("replayable creates (no result, or the sentinel) keep their arguments whole", () => {
  const args = { action: "create", timeline: TIMELINE, body: "z".repeat(20000) };
  const inFlight = capToolArguments(createStep(args, undefined));
  assert.equal(inFlight[0].toolCalls?.[0].arguments, args);
  const interrupted = capToolArguments(createStep(args, INTERRUPTED));
  assert.equal(interrupted[0].toolCalls?.[0].arguments, args);
  const answered = capToolArguments(createStep(args, "Posted message 3."));
  assert.ok(jsonSize(answered[0].toolCalls?.[0].arguments) <= TOOL_ARGS_CAP);
  // A non-create interrupted call is never re-run, so its arguments are bounded at once.
  const image = step([call("g", "generate_image", { prompt: "p".repeat(5000) })], [[
    "g",
    INTERRUPTED,
  ]]);
  assert.ok(jsonSize(capToolArguments(image)[0].toolCalls?.[0].arguments) <= TOOL_ARGS_CAP);
});

Deno.test("a replayable call is outside the pool: its siblings still share the whole budget", () => {
  const big = { action: "create", body: "z".repeat(20000) };
  const sibling = { query: "q".repeat(1900) };
  const live = step([call("m", "messages", big), call("s", "web_search", sibling)], [[
    "s",
    "found",
  ]]);
  const calls = capToolArguments(live)[0].toolCalls ?? [];
  assert.equal(calls[0].arguments, big);
  assert.equal(calls[1].arguments, sibling);
});

Deno.test("results pair with calls only inside their own run (reused call_0 ids)", () => {
  const args = { action: "create", body: "z".repeat(20000) };
  const live = [
    ...step([call("call_0", "messages", { action: "list" })], [["call_0", "[]"]]),
    Message.assistant({ toolCalls: [call("call_0", "messages", args)] }),
  ];
  // The earlier call_0 result does not answer the later create: it is in flight, kept whole.
  assert.equal(capToolArguments(live)[2].toolCalls?.[0].arguments, args);
});

Deno.test("the calls of one step share one argument budget", () => {
  const live = step(
    [
      call("a", "web_search", { query: "a".repeat(1500) }),
      call("b", "web_search", {
        query: "b".repeat(1500),
      }),
    ],
    [["a", "ok"], ["b", "ok"]],
  );
  const calls = capToolArguments(live)[0].toolCalls ?? [];
  const total = calls.reduce((sum, c) => sum + jsonSize(c.arguments), 0);
  assert.ok(total <= TOOL_ARGS_CAP, `total ${total}`);
  assert.ok(calls.every((c) => String(c.arguments.query).includes("elided from 1500 chars")));
});

Deno.test("capping never modifies the live list or its arguments", () => {
  const live = [
    ...createStep({ action: "create", body: "y".repeat(9000) }, "ok"),
    ...step([call("r", "web_fetch", {})], [["r", sixtyKb]]),
  ];
  const before = structuredClone(live);
  const capped = capForPersistence(live);
  assert.deepEqual(live, before);
  assert.notEqual(capped, live);
});

// ---- the fixed point, over many shapes ----

/** A small deterministic PRNG (mulberry32) so failures reproduce. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABETS = ["abc def\n", "日本語テキスト", "😀🎉👍", '"\\\t{}', "x"];

/** The longest text {@link randomText} is asked for, in code points. */
const LONGEST_TEXT = 12000;

/**
 * Per alphabet, one long run of its characters in random order (each character of an alphabet
 * is one code point of the same UTF-16 width). A text is a stretch of its alphabet's run: drawing
 * every character anew cost more than capping them.
 */
const RUNS = ALPHABETS.map((alphabet, i) => {
  const chars = [...alphabet];
  const random = prng(i + 1);
  const run = Array.from(
    { length: 2 * LONGEST_TEXT },
    () => chars[Math.floor(random() * chars.length)],
  ).join("");
  return { run, width: chars[0].length };
});

function randomText(random: () => number, max: number): string {
  const { run, width } = RUNS[Math.floor(random() * ALPHABETS.length)];
  const length = Math.floor(random() ** 3 * max);
  const start = Math.floor(random() * (2 * LONGEST_TEXT - length));
  // A string of its own, as one parsed from a transcript file is (a bare slice would stay a view
  // into the run, which the size counting walks several times slower).
  return JSON.parse(JSON.stringify(run.slice(start * width, (start + length) * width)));
}

function randomTranscript(random: () => number): Message[] {
  const messages: Message[] = [];
  if (random() < 0.2) messages.push(Message.tool("orphan", randomText(random, 9000)));
  const steps = 1 + Math.floor(random() * 4);
  for (let s = 0; s < steps; s++) {
    messages.push(Message.user(randomText(random, 200)));
    const fanOut = 1 + Math.floor(random() ** 3 * 60);
    const calls: ToolCall[] = [];
    for (let c = 0; c < fanOut; c++) {
      const args: Record<string, unknown> = {};
      if (random() < 0.5) args.action = random() < 0.5 ? "create" : "list";
      const fields = Math.floor(random() ** 4 * 120);
      for (let f = 0; f < fields; f++) {
        args[`f${f}`] = random() < 0.8 ? randomText(random, 3000) : [f, randomText(random, 300)];
      }
      calls.push(call(`call_${c}`, random() < 0.5 ? "messages" : "tasks", args));
    }
    messages.push(Message.assistant({ toolCalls: calls }));
    for (const c of calls) {
      const r = random();
      if (r < 0.1) continue; // unanswered
      messages.push(Message.tool(c.id, r < 0.2 ? INTERRUPTED : randomText(random, 12000)));
    }
  }
  return messages;
}

let samples: Message[][] | undefined;

/** 80 random transcripts, each capped once: made once, for the two tests that read them. */
function cappedSamples(): Message[][] {
  if (samples) return samples;
  const random = prng(20260818);
  samples = Array.from({ length: 80 }, () => capForPersistence(randomTranscript(random)));
  return samples;
}

Deno.test("re-capping a capped transcript is a fixed point (80 random transcripts)", () => {
  cappedSamples().forEach((once, i) => {
    const twice = capForPersistence(once);
    assert.deepEqual(twice, once, `transcript ${i}`);
    assert.equal(serializeTranscript(twice), serializeTranscript(once));
  });
});

Deno.test("a step's persisted arguments are bounded by 2048 (outside floor markers and replays)", () => {
  cappedSamples().forEach((messages, i) => {
    messages.forEach((message, index) => {
      const calls = message.toolCalls ?? [];
      const next = messages.findIndex((m, k) => k > index && m.role === "assistant");
      const run = messages.slice(index + 1, next < 0 ? undefined : next);
      const results = run.filter((m) => m.role === "tool");
      const bounded = calls.filter((c) => {
        const result = results.find((r) => r.toolCallId === c.id);
        return !(createKind(c) && (!result || result.content === INTERRUPTED));
      });
      if (bounded.length > 30) return; // a fan-out past ~50 may pay one floor marker per call
      const total = bounded.reduce((sum, c) => sum + jsonSize(c.arguments), 0);
      assert.ok(total <= TOOL_ARGS_CAP, `transcript ${i} message ${index}: ${total}`);
    });
  });
});
