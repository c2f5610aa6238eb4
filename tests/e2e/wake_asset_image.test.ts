/**
 * Asset perception end to end (docs/operating.md#what-each-kind-of-item-becomes,
 * docs/home-layout.md#transcripts): a peer's viewable image is shown to the model on the turn that
 * announces it (`… Looking at it now.` + an `image_url` data URL on the chat surface); the pixels
 * never reach the transcript on disk and are gone from the next turn's request; a non-image file,
 * or an image whose download fails, reads as the text form — still exactly one turn.
 */
import assert from "node:assert/strict";
import type { Asset } from "../../lib/platform/mod.ts";
import {
  chatCompletion,
  type ModelMock,
  openaiError,
  type RecordedRequest,
} from "../support/model_mock.ts";
import {
  agentPosts,
  claimOf,
  mark,
  session,
  sessionPath,
  upload,
  type World,
  world,
} from "./wake_support.ts";
import { asUser } from "../support/cleared.ts";

/** A valid 1×1 PNG. */
const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const PNG = Uint8Array.fromBase64(PNG_BASE64);

/** The peer uploads the PNG above. */
async function uploadPng(w: World, filename = "pixel.png"): Promise<Asset> {
  return await w.peer.client.assets.create(
    w.timeline,
    asUser("asset", {
      file: PNG,
      filename,
      contentType: "image/png",
      description: "a tiny dot",
    }),
  );
}

type Part = { type: string; text?: string; image_url?: { url: string } };
type WireMessage = { role: string; content: string | Part[] | null };

/** The user turns of the `i`th chat request, content as sent (a string or parts). */
function userTurns(model: ModelMock, i: number): WireMessage[] {
  return (model.requestsTo("chat")[i].body as { messages: WireMessage[] }).messages
    .filter((m) => m.role === "user");
}

/** `n` silent (text-only) turns. */
function silent(model: ModelMock, n = 1): void {
  for (let i = 0; i < n; i++) model.reply("chat", { json: chatCompletion({ content: "Noted." }) });
}

/**
 * Sets the assets mark with a first wake over a seed file of the agent's own (a first wake acts
 * on the newest file, and the self-filter settles the agent's own without a turn), so later
 * uploads are all acted on.
 */
async function seedMark(w: World): Promise<void> {
  await upload(w, "seed.txt", { who: w.agent });
  const first = await w.wake();
  assert.equal(first.code, 0, first.stderr);
  assert.equal(w.model.hits("chat"), 0);
}

Deno.test("a peer's PNG is shown on its turn as an image_url data URL, never persisted, evicted after", async () => {
  await using w = await world();
  await seedMark(w);
  const png = await uploadPng(w);
  const note = await upload(w, "notes.txt");
  silent(w.model, 2);
  const before = w.sandbox.requests.length;
  const result = await w.wake();
  assert.equal(result.code, 0, result.stderr);
  assert.equal(w.model.hits("chat"), 2); // one turn per new file
  // The brief's primer is requested once the turn is certain, before the image is downloaded.
  const requested = w.sandbox.requests.slice(before).map((r) => r.path);
  const primer = requested.indexOf("/users/dashboard.md");
  const pixels = requested.findIndex((path) => path.endsWith("/pixel.png"));
  assert.ok(primer >= 0 && pixels > primer, requested.join("\n"));

  // The image turn: text part with "Looking at it now." plus the pixels as a data URL.
  const shown = userTurns(w.model, 0).at(-1)!;
  assert.ok(Array.isArray(shown.content), JSON.stringify(shown));
  const parts = shown.content as Part[];
  assert.equal(parts.length, 2);
  assert.equal(parts[0].type, "text");
  assert.match(
    parts[0].text!,
    /^\[\S+\] bob posted a file to this timeline: uuid=\S+ · filename='pixel\.png' · \d+ bytes · image\/png — a tiny dot\. Looking at it now\.$/,
  );
  assert.ok(parts[0].text!.includes(png.content.uuid));
  assert.equal(parts[1].type, "image_url");
  assert.equal(parts[1].image_url?.url, `data:image/png;base64,${PNG_BASE64}`);

  // The next turn (same wake) re-sends the image turn as text only: the pixels were evicted.
  const next = userTurns(w.model, 1);
  const replayed = next.find((m) => JSON.stringify(m.content).includes(png.content.uuid));
  assert.equal(typeof replayed?.content, "string");
  assert.match(String(replayed?.content), /Looking at it now\.$/);
  assert.doesNotMatch(JSON.stringify(w.model.requestsTo("chat")[1].body), /image_url|base64,/);
  assert.match(String(next.at(-1)?.content), /notes\.txt.*Use the assets tool to 'read' it/);

  // The transcript on disk holds the text only.
  const raw = await Deno.readTextFile(sessionPath(w));
  assert.ok(!raw.includes(PNG_BASE64), "pixels reached the transcript");
  assert.doesNotMatch(raw, /"images"|image_url|data:image/);
  const turn = (await session(w)).find((m) =>
    m.role === "user" && String(m.content).includes(png.content.uuid)
  );
  assert.match(String(turn?.content), /Looking at it now\.$/);

  assert.equal((await claimOf(w, "assets", png.content.uuid))?.phase, "done");
  assert.equal(await mark(w, "assets"), note.content.uuid);
});

Deno.test("a text file reads as the text form, a plain string turn", async () => {
  await using w = await world();
  const report = await upload(w, "report.txt", { description: "Q3 numbers" });
  silent(w.model);
  const result = await w.wake(["--asset", report.content.uuid]); // the router's trigger
  assert.equal(result.code, 0, result.stderr);
  assert.equal(w.model.hits("chat"), 1);
  const turn = userTurns(w.model, 0).at(-1)!;
  assert.equal(typeof turn.content, "string");
  assert.match(
    turn.content as string,
    /^\[\S+\] bob posted a file to this timeline: .*report\.txt.* — Q3 numbers\. Use the assets tool to 'read' it \(or 'view' an image \/ 'listen' to audio\) if you want to engage with it\.$/,
  );
  assert.doesNotMatch(JSON.stringify(w.model.requests.map((r) => r.body)), /image_url/);
});

Deno.test("an image whose download fails reads as the text form, still one turn", async () => {
  await using w = await world();
  const png = await uploadPng(w);
  w.sandbox.addFault({ path: "^/blobs/", status: 403, count: 10 });
  silent(w.model);
  const result = await w.wake(["--asset", png.content.uuid]); // the router's trigger
  assert.equal(result.code, 0, result.stderr);
  assert.equal(w.model.hits("chat"), 1);
  assert.ok(
    w.sandbox.requests.some((r) => r.path.startsWith("/blobs/") && r.status === 403),
    "the blob download was attempted",
  );
  const turn = userTurns(w.model, 0).at(-1)!;
  assert.equal(typeof turn.content, "string");
  assert.match(turn.content as string, /pixel\.png.*Use the assets tool to 'read' it/);
  assert.doesNotMatch(turn.content as string, /Looking at it now/);
  assert.match(result.stderr, /Could not download asset \S+ \(pixel\.png\)/);
  assert.equal((await claimOf(w, "assets", png.content.uuid))?.phase, "done");
  assert.equal(await mark(w, "assets"), png.content.uuid);
});

Deno.test("a 413 on a request carrying an image is replayed once without it, and the turn answers", async () => {
  await using w = await world();
  const png = await uploadPng(w);
  const carries = (request: RecordedRequest) => JSON.stringify(request.body).includes("image_url");
  w.model.reply(
    "chat",
    (request) =>
      carries(request)
        ? {
          status: 413,
          json: openaiError("Request entity too large: 31457280 bytes exceeds the limit."),
        }
        : { json: chatCompletion({ content: "unexpected: the first request had no image" }) },
    (request) =>
      carries(request)
        ? { json: chatCompletion({ content: "unexpected: the replay still had the image" }) }
        : {
          json: chatCompletion({
            toolCalls: [{
              id: "call_0",
              name: "messages",
              arguments: { action: "create", body: "Got your picture." },
            }],
          }),
        },
    { json: chatCompletion({ content: "Replied." }) },
  );
  const result = await w.wake(["--asset", png.content.uuid], { NO_COLOR: "" });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(w.model.hits("chat"), 3);
  const [first, replay] = w.model.requestsTo("chat");
  assert.ok(carries(first), "the first request carried the image");
  assert.ok(!carries(replay), "the replay carried no image");
  const replayed = userTurns(w.model, 1).at(-1)!;
  assert.match(
    String(replayed.content),
    /Looking at it now\.\n\(Image omitted from this request: .+ — the request was too large with it inline\.\)$/,
  );
  // One reply, no failure notice.
  assert.deepEqual(await agentPosts(w), ["Got your picture."]);
  assert.doesNotMatch(result.stderr, /reported_failure/);
  assert.match(
    result.stderr,
    /WARNING Request too large with 1 inline image\(s\): replaying once without them: /,
  );
  // The transcript still holds the image's turn as before: its text, never its pixels.
  const turn = (await session(w)).find((m) =>
    m.role === "user" && String(m.content).includes(png.content.uuid)
  );
  assert.match(String(turn?.content), /Looking at it now\.$/);
  const raw = await Deno.readTextFile(sessionPath(w));
  assert.ok(!raw.includes(PNG_BASE64), "pixels reached the transcript");
  assert.doesNotMatch(raw, /Image omitted/);
  assert.equal((await claimOf(w, "assets", png.content.uuid))?.phase, "done");
});

Deno.test("a 413 that the image-less replay also gets takes the usual failure path", async () => {
  await using w = await world();
  const png = await uploadPng(w);
  const tooLarge = {
    status: 413,
    json: openaiError("Request entity too large: 31457280 bytes exceeds the limit."),
  };
  w.model.reply("chat", tooLarge, tooLarge);
  const result = await w.wake(["--asset", png.content.uuid], { NO_COLOR: "" });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(w.model.hits("chat"), 2); // the request, then its one replay: never a third
  assert.match(result.stderr, /WARNING Request too large with 1 inline image\(s\)/);
  assert.equal(result.stderr.split("\n").filter((l) => l.includes("reported_failure")).length, 1);
  const posts = await agentPosts(w);
  assert.equal(posts.length, 1);
  assert.match(posts[0], /^I couldn't process the file you shared \(pixel\.png\)/);
});
