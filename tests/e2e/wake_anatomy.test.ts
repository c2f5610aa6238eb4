/**
 * The request's anatomy from real wakes (docs/records.md#the-request-anatomy): each turn record
 * names the parts of the turn's first request in request order with their sizes and hashes and
 * the first call's usage; with `HARNESS_CAPTURE_REQUESTS` on, the parts' texts are kept beside
 * the record, scrubbed, and they are exactly what went over the wire.
 */
import assert from "node:assert/strict";
import { sha256HexAsync } from "../../lib/base/sha256.ts";
import { readCapture } from "../../lib/home/request_capture.ts";
import { TurnRecordSchema } from "../../lib/home/records/mod.ts";
import { encode as encodePng } from "fast-png";
import { chatCompletion } from "../support/model_mock.ts";
import { asUser } from "../support/cleared.ts";
import { say, scriptReply, upload, world } from "./wake_support.ts";

const PARTS = ["tools", "charter", "transcript", "brief", "recall", "working_state", "new_turn"];

async function records(home: string, timeline: string) {
  const text = await Deno.readTextFile(`${home}/records/${timeline}.jsonl`);
  return text.trim().split("\n").map((line) => TurnRecordSchema.parse(JSON.parse(line)));
}

Deno.test("anatomy: each record names its first request's parts; capture keeps their texts", async () => {
  await using w = await world();
  scriptReply(w.model, "Hello, Bob.", "Answered.", {
    create: { prompt: 5000, completion: 12, cached: 1024 },
    close: { prompt: 5100, completion: 3, cached: 4096 },
  });
  await say(w, "@ada hello");
  const first = await w.wake([], { HARNESS_CAPTURE_REQUESTS: "1" });
  assert.equal(first.code, 0, first.stderr);
  scriptReply(w.model, "Still here.");
  await say(w, "@ada are you there?");
  // Capture off (the default): the record keeps the anatomy, no text is kept.
  const second = await w.wake();
  assert.equal(second.code, 0, second.stderr);

  const [one, two] = await records(w.home, w.timeline);
  assert.deepEqual(one.context?.parts.map((p) => p.name), PARTS);
  assert.deepEqual(one.context?.first_call, {
    tokens_in: 5000,
    tokens_out: 12,
    tokens_total: 5012,
    cached_tokens: 1024,
  });
  const part = (r: typeof one, name: string) => r.context!.parts.find((p) => p.name === name)!;
  // The first wake's transcript was empty; the second's holds the first exchange.
  assert.equal(part(one, "transcript").messages, 0);
  assert.ok(part(two, "transcript").messages! >= 3, JSON.stringify(two.context));
  assert.ok(part(one, "tools").chars > 1000 && part(one, "charter").chars > 1000);
  assert.ok(part(one, "brief").chars > 0 && part(one, "new_turn").chars > 0);
  assert.equal(part(one, "recall").chars, 0); // the default memory recalls nothing
  // Nothing changed in the configuration between the wakes: the stable parts hash the same.
  for (const name of ["tools", "charter"]) {
    assert.equal(part(one, name).sha256, part(two, name).sha256, name);
  }
  assert.notEqual(part(one, "new_turn").sha256, part(two, "new_turn").sha256);

  // The first record's capture: every part's text, hashing to the record's hash.
  const capture = await readCapture(w.home, w.timeline, one.record_id);
  assert.ok(capture, "the first wake captured its request");
  assert.equal(capture.wake_id, one.wake_id);
  assert.deepEqual(capture.parts.map((p) => p.name), PARTS);
  for (const captured of capture.parts) {
    assert.equal(captured.sha256, part(one, captured.name).sha256, captured.name);
    assert.equal(await sha256HexAsync(captured.text), captured.sha256, captured.name);
  }
  const text = (name: string) => capture.parts.find((p) => p.name === name)!.text;
  // The texts are what the model was sent: the charter's message, the brief, the new turn.
  const [request] = w.model.requestsTo("chat");
  const sent = (request.body as { messages: { role: string; content: string }[] }).messages;
  assert.equal(text("charter"), `<system>\n${sent[0].content}`);
  assert.match(text("brief"), /^<system>\nCurrent Time: /);
  assert.match(text("new_turn"), /^<user>\n\[[^\]]+\] bob: @ada hello/);
  assert.match(text("tools"), /^\{"name":"[a-z_]+","description":/);
  assert.equal(await readCapture(w.home, w.timeline, two.record_id), null);
  // The key never reaches the capture (the scrubber runs on it).
  const raw = await Deno.readTextFile(
    `${w.home}/requests/${w.timeline}/${one.record_id}.json`,
  );
  assert.ok(!raw.includes(w.env.AI_API_KEY));
});

Deno.test("anatomy: a capture that cannot be written is a WARNING; the record and the turn stand", async () => {
  await using w = await world();
  scriptReply(w.model, "Hello, Bob.");
  await say(w, "@ada hello");
  // A file where the captures' folder belongs.
  await Deno.writeTextFile(`${w.home}/requests`, "not a folder");
  const woke = await w.wake([], { HARNESS_CAPTURE_REQUESTS: "1" });
  assert.equal(woke.code, 0, woke.stderr);
  assert.match(woke.stderr, /WARNING Could not keep the request's text beside its record\. \(/);
  assert.match(woke.stderr, /outcome=ok/);
  const [record] = await records(w.home, w.timeline);
  assert.equal(record.result, "spoke");
  assert.equal(record.context?.parts.length, PARTS.length);
});

Deno.test("anatomy: a knowledge pack is its own part after the charter, in the same system message", async () => {
  await using w = await world();
  await Deno.mkdir(`${w.home}/config/knowledge`, { recursive: true });
  await Deno.writeTextFile(`${w.home}/config/knowledge/harbour.md`, "The harbour opens at six.\n");
  scriptReply(w.model, "Hello, Bob.");
  await say(w, "@ada hello");
  const woke = await w.wake([], { HARNESS_CAPTURE_REQUESTS: "1" });
  assert.equal(woke.code, 0, woke.stderr);
  const [record] = await records(w.home, w.timeline);
  const names = record.context!.parts.map((p) => p.name);
  assert.deepEqual(names, [...PARTS.slice(0, 2), "knowledge", ...PARTS.slice(2)]);
  const capture = (await readCapture(w.home, w.timeline, record.record_id))!;
  const text = (name: string) => capture.parts.find((p) => p.name === name)!.text;
  const [request] = w.model.requestsTo("chat");
  const sent = (request.body as { messages: { role: string; content: string }[] }).messages;
  // The two parts together are the leading system message, byte for byte.
  assert.equal(`${text("charter")}${text("knowledge")}`, `<system>\n${sent[0].content}`);
  assert.match(text("knowledge"), /^\n\nKnowledge pack: [^]*The harbour opens at six\.$/);
  const part = (name: string) => record.context!.parts.find((p) => p.name === name)!;
  assert.equal(part("knowledge").chars, text("knowledge").length);
});

Deno.test("anatomy: an image is measured as the provider is sent it, after image preparation", async () => {
  await using w = await world();
  // A first wake over a file of the agent's own sets the mark, so the next upload is acted on.
  await upload(w, "seed.txt", { who: w.agent });
  assert.equal((await w.wake()).code, 0);
  // 60×6000: taller than one segment (docs/context.md#images-in-a-request), so the request carries
  // the image as several segments, not as the file that was uploaded.
  const width = 60, height = 6000;
  const data = new Uint8Array(width * height * 4).map((_, i) =>
    i % 4 === 3 ? 255 : (i >> 8) & 0xff
  );
  const png = encodePng({ width, height, data }, { zlib: { level: 1 } });
  await w.peer.client.assets.create(
    w.timeline,
    asUser("asset", { file: png, filename: "scroll.png", contentType: "image/png" }),
  );
  w.model.reply("chat", { json: chatCompletion({ content: "Noted." }) });
  const woke = await w.wake([], { HARNESS_CAPTURE_REQUESTS: "1" });
  assert.equal(woke.code, 0, woke.stderr);

  type Part = { type: string; image_url?: { url: string } };
  const [request] = w.model.requestsTo("chat");
  const sent = (request.body as { messages: { content: string | Part[] }[] }).messages;
  const urls = sent.flatMap((m) => Array.isArray(m.content) ? m.content : [])
    .filter((part) => part.type === "image_url").map((part) => part.image_url!.url);
  assert.ok(urls.length >= 2, `the image went as ${urls.length} segment(s)`);
  const sentImages = await Promise.all(urls.map(async (url) => {
    const base64 = url.slice(url.indexOf(",") + 1);
    return { chars: base64.length, sha256: await sha256HexAsync(base64) };
  }));

  const record = (await records(w.home, w.timeline)).at(-1)!;
  const capture = (await readCapture(w.home, w.timeline, record.record_id))!;
  const newTurn = capture.parts.find((p) => p.name === "new_turn")!.text;
  const lines = [
    ...newTurn.matchAll(/\[image (\S+) "[^"]*": (\d+) base64 characters, sha256 (\w+)\]/g),
  ];
  assert.deepEqual(
    lines.map(([, , chars, sha256]) => ({ chars: Number(chars), sha256 })),
    sentImages,
    "the record's image lines are the images the provider was sent",
  );
  // The journal's attribution counts the same request.
  assert.match(woke.stderr, /context attribution /);
});
