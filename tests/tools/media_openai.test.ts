/**
 * The OpenAI media tools: the real openai SDK against the wire mock, the real sandbox platform
 * for the assets they read and create.
 */
import { strict as assert } from "node:assert";
import type { ToolOutput } from "../../lib/core/types/tool.ts";
import {
  EditImageTool,
  GenerateImageTool,
  ListenTool,
  type MediaEndpoint,
} from "../../lib/tools/media/openai_media.ts";
import { mediaSlug } from "../../lib/tools/media/common.ts";
import { AssetsTool } from "../../lib/tools/assets.ts";
import { type FormValue, ModelMock, openaiError } from "../support/model_mock.ts";
import { uuid5 } from "../../lib/platform/idempotency.ts";
import { since, withRoom } from "./timelines_fixture.ts";
import { asUser } from "../support/cleared.ts";

const KEY = "0190f0a4-0000-7000-8000-00000000ae01";
const keyed = {
  idempotencyKey: (kind: string, id: string) => `${kind}:${id}` === "asset:c1" ? KEY : undefined,
};
const PNG = new Uint8Array([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  ...new TextEncoder().encode("made-by-the-mock"),
]);
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const text = (out: string | ToolOutput) => typeof out === "string" ? out : out.text;
const endpoint = (mock: ModelMock, over: Partial<MediaEndpoint> = {}): MediaEndpoint => ({
  provider: "openai",
  apiKey: "sk-media-test",
  baseURL: mock.baseURL,
  ...over,
});
const uuidOf = (line: string) => /asset uuid=([0-9a-f-]+)/.exec(line)?.[1] ?? "";
const field = (values: readonly FormValue[] | undefined) => values?.[0];

Deno.test("generate_image: sends the Images API request and uploads the bytes as a keyed asset", async () => {
  await using mock = await ModelMock.start();
  mock.reply("images", { json: { created: 1, data: [{ b64_json: b64(PNG) }] } });
  await withRoom(async ({ c, context, journal, agent }) => {
    const tool = new GenerateImageTool(endpoint(mock), context);
    const mark = c.sandbox.requests.length;
    const out = text(
      await tool.run({
        prompt: "A Red Fox, at dawn!",
        quality: "high",
        output_compression: 50,
        description: "a fox",
      }, { callId: "c1" }),
    );
    assert.match(
      out,
      /^Generated the image and posted it as 'a-red-fox-at-dawn\.png' \(asset uuid=/,
    );
    assert.ok(!out.includes(b64(PNG)));
    const body = mock.lastBody("images");
    assert.deepEqual(body, {
      model: "gpt-image-2",
      prompt: "A Red Fox, at dawn!",
      n: 1,
      size: "1024x1024",
      quality: "high",
      output_format: "png",
    });
    assert.equal(mock.requestsTo("images")[0].headers.get("authorization"), "Bearer sk-media-test");
    const post = since(c, mark).find((r) => r.method === "POST");
    assert.equal(post?.idempotencyKey, await uuid5(KEY, "media:c1"));
    const asset = await agent.client.assets.get(uuidOf(out));
    assert.equal(asset.content.file?.filename, "a-red-fox-at-dawn.png");
    assert.equal(asset.content.description, "a fox");
    const { bytes } = await agent.client.assets.download(asset);
    assert.deepEqual(bytes, PNG);
    assert.deepEqual(context.acts, ["asset"]);
    const line = journal.lines.find((l) => l.includes("media "));
    assert.match(
      line ?? "",
      /media provider=openai kind=image\.generate model=gpt-image-2 duration=/,
    );
    assert.ok(!journal.lines.join("\n").includes("sk-media-test"));
  }, keyed);
});

Deno.test("generate_image: jpeg keeps its compression and names the file from the filename", async () => {
  await using mock = await ModelMock.start();
  mock.reply("images", { json: { data: [{ b64_json: b64(PNG) }] } });
  await withRoom(async ({ context }) => {
    const tool = new GenerateImageTool(endpoint(mock), context);
    const out = text(
      await tool.run({
        prompt: "x",
        filename: "My Poster (v2).JPG",
        output_format: "jpeg",
        output_compression: "80",
        size: "1536x1024",
        background: "opaque",
      }),
    );
    assert.match(out, /posted it as 'my-poster-v2\.jpg'/);
    const body = mock.lastBody("images");
    assert.equal(body.output_format, "jpeg");
    assert.equal(body.output_compression, 80);
    assert.equal(body.size, "1536x1024");
    assert.equal(body.background, "opaque");
  });
});

Deno.test("generate_image: bad arguments are readable errors and nothing is sent", async () => {
  await using mock = await ModelMock.start();
  await withRoom(async ({ context }) => {
    const tool = new GenerateImageTool(endpoint(mock), context);
    assert.equal(await tool.run({}), "Error: 'prompt' is required.");
    assert.equal(
      await tool.run({ prompt: "x", quality: "ultra" }),
      "Error: 'quality' must be one of low, medium, high, auto.",
    );
    assert.equal(
      await tool.run({ prompt: "x", size: "big" }),
      "Error: 'size' must be WIDTHxHEIGHT (e.g. '1024x1024') or 'auto'.",
    );
    assert.equal(
      await tool.run({ prompt: "x", output_compression: 500 }),
      "Error: 'output_compression' must be a whole number from 0 to 100.",
    );
    assert.equal(await tool.run({ prompt: 3 }), "Error: 'prompt' must be a string.");
    assert.equal(mock.hits(), 0);
  });
});

Deno.test("generate_image: the API's error is relayed as the vendor's own words, no stack", async () => {
  await using mock = await ModelMock.start();
  mock.reply("images", {
    status: 400,
    json: openaiError("Your request was rejected by the safety system."),
  });
  await withRoom(async ({ context }) => {
    const out = text(await new GenerateImageTool(endpoint(mock), context).run({ prompt: "x" }));
    assert.equal(
      out,
      "Error generating image: OpenAI rejected the request — Your request was rejected by the " +
        "safety system.",
    );
    assert.deepEqual(context.acts, []);
  });
});

Deno.test("the OpenAI media tools refuse under another provider or without a key", async () => {
  await using mock = await ModelMock.start();
  await withRoom(async ({ context }) => {
    const xai = endpoint(mock, { provider: "xai" });
    assert.match(
      text(await new GenerateImageTool(xai, context).run({ prompt: "x" })),
      /^Error: the 'generate_image' tool needs the 'openai' provider with AI_API_KEY set \(this wake runs AI_PROVIDER=xai\)\.$/,
    );
    assert.match(
      text(await new ListenTool(endpoint(mock, { apiKey: undefined }), context).run({ uuid: "u" })),
      /needs the 'openai' provider with AI_API_KEY/,
    );
    assert.equal(mock.hits(), 0);
  });
});

Deno.test("edit_image: downloads the sources and sends them multipart with the mask", async () => {
  await using mock = await ModelMock.start();
  mock.reply("image_edits", { json: { data: [{ b64_json: b64(PNG) }] } });
  await withRoom(async ({ context, agent, timeline }) => {
    const one = await agent.client.assets.create(
      timeline,
      asUser("asset", { file: PNG, filename: "one.png" }),
    );
    const two = await agent.client.assets.create(
      timeline,
      asUser("asset", { file: PNG, filename: "two.png" }),
    );
    const mask = await agent.client.assets.create(
      timeline,
      asUser("asset", { file: PNG, filename: "mask.png" }),
    );
    const out = text(
      await new EditImageTool(endpoint(mock), context).run({
        image: [one.content.uuid, two.content.uuid],
        mask: mask.content.uuid,
        prompt: "Put them side by side",
        output_format: "webp",
      }),
    );
    assert.match(out, /^Edited the image and posted it as 'put-them-side-by-side\.webp'/);
    const form = mock.requestsTo("image_edits")[0].form ?? {};
    assert.equal(field(form.model), "gpt-image-2");
    assert.equal(field(form.prompt), "Put them side by side");
    assert.equal(field(form.n), "1");
    assert.equal(field(form.output_format), "webp");
    assert.equal(form.quality, undefined);
    assert.equal(form.background, undefined);
    const images = [...(form["image[]"] ?? []), ...(form.image ?? [])];
    assert.equal(images.length, 2);
    for (const image of images) {
      assert.ok(typeof image !== "string");
      assert.deepEqual(image.bytes, PNG);
      assert.equal(image.type, "image/png");
    }
    const sentMask = field(form.mask);
    assert.ok(sentMask && typeof sentMask !== "string" && sentMask.filename === "mask.png");
  });
});

Deno.test("edit_image: a non-image source and a missing image list are refused before any call", async () => {
  await using mock = await ModelMock.start();
  await withRoom(async ({ context, agent, timeline }) => {
    const tool = new EditImageTool(endpoint(mock), context);
    assert.equal(
      await tool.run({ prompt: "x" }),
      "Error: 'image' needs at least one source asset uuid.",
    );
    const notes = await agent.client.assets.create(
      timeline,
      asUser("asset", {
        file: new TextEncoder().encode("hi"),
        filename: "notes.txt",
      }),
    );
    assert.match(
      text(await tool.run({ image: [notes.content.uuid], prompt: "x" })),
      /^Error: the source must be an image file \(it is text\/plain/,
    );
    assert.equal(mock.hits(), 0);
  });
});

Deno.test("listen: transcribes an audio asset and answers with its meta line and transcript", async () => {
  await using mock = await ModelMock.start();
  mock.reply("transcriptions", { json: { text: "Hello from the clip." } });
  await withRoom(async ({ context, agent, timeline, journal }) => {
    const clip = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0, 1, 2, 3]);
    const mp3 = await agent.client.assets.create(
      timeline,
      asUser("asset", { file: clip, filename: "voice.mp3" }),
    );
    const out = text(await new ListenTool(endpoint(mock), context).run({ uuid: mp3.content.uuid }));
    const [meta, rest] = out.split("\n\n");
    assert.match(meta, new RegExp(`^uuid=${mp3.content.uuid} · filename='voice\\.mp3'`));
    assert.equal(rest, "Transcript:\nHello from the clip.");
    const form = mock.requestsTo("transcriptions")[0].form ?? {};
    assert.equal(field(form.model), "gpt-transcribe");
    const file = field(form.file);
    assert.ok(file && typeof file !== "string");
    assert.deepEqual(file.bytes, clip);
    assert.match(
      journal.lines.find((l) => l.includes("media ")) ?? "",
      /kind=audio\.transcribe model=gpt-transcribe/,
    );
  });
});

Deno.test("listen: a non-audio asset and an oversized clip are refused without a call", async () => {
  await using mock = await ModelMock.start();
  await withRoom(async ({ context, agent, timeline }) => {
    const png = await agent.client.assets.create(
      timeline,
      asUser("asset", { file: PNG, filename: "pic.png" }),
    );
    const tool = new ListenTool(endpoint(mock), context);
    const seen: string[] = [];
    const call = { callId: "l1", reportOutcome: (o: string) => void seen.push(o) };
    assert.match(
      text(await tool.run({ uuid: png.content.uuid }, call)),
      /^Error: asset \S+ is not audio \(it is image\/png\); listen only transcribes audio files\.$/,
    );
    assert.deepEqual(seen, ["refused"], "a file listen declines is never outcome ok");
    const clip = new Uint8Array(64);
    clip.set([0x49, 0x44, 0x33, 4]);
    const wav = await agent.client.assets.create(
      timeline,
      asUser("asset", { file: clip, filename: "long.mp3" }),
    );
    const small = new ListenTool(endpoint(mock), context, { maxBytes: 32 });
    assert.match(
      text(await small.run({ uuid: wav.content.uuid })),
      /^Error: asset \S+ is 64 bytes, over the 32-byte limit the transcription endpoint accepts/,
    );
    assert.equal(await tool.run({}), "Error: 'uuid' is required: the audio asset to listen to.");
    assert.equal(mock.hits(), 0);
  });
});

Deno.test("listen: a transcription error is relayed", async () => {
  await using mock = await ModelMock.start();
  mock.reply("transcriptions", { status: 413, json: { message: "file too large for model" } });
  await withRoom(async ({ context, agent, timeline }) => {
    const mp3 = await agent.client.assets.create(
      timeline,
      asUser("asset", {
        file: new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]),
        filename: "a.mp3",
      }),
    );
    assert.match(
      text(await new ListenTool(endpoint(mock), context).run({ uuid: mp3.content.uuid })),
      /^Error transcribing audio: OpenAI rejected the request — .*file too large for model/,
    );
  });
});

Deno.test("mediaSlug: [a-z0-9] runs of the filename stem or the prompt, at most 48, else image", () => {
  assert.equal(mediaSlug(undefined, "A Red Fox, at dawn!"), "a-red-fox-at-dawn");
  assert.equal(mediaSlug("Poster.final.PNG", "ignored"), "poster-final");
  assert.equal(mediaSlug("", "!!!"), "image");
  assert.equal(mediaSlug(undefined, "word ".repeat(30)).length <= 48, true);
  assert.ok(!mediaSlug(undefined, "word ".repeat(30)).endsWith("-"));
});

Deno.test("two generations in one turn keep two assets, and an assets create after them its own", async () => {
  // The live context counts ordinals over `assets create` calls only, so every media call of a
  // turn (and the first `assets create`) gets the same context key; the uploads must not collide.
  const same = { idempotencyKey: () => KEY };
  await using mock = await ModelMock.start();
  mock.always("images", { json: { data: [{ b64_json: b64(PNG) }] } });
  await withRoom(async ({ context, agent, timeline }) => {
    const tool = new GenerateImageTool(endpoint(mock), context);
    const one = text(await tool.run({ prompt: "one" }, { callId: "call_a" }));
    const two = text(await tool.run({ prompt: "two" }, { callId: "call_b" }));
    assert.notEqual(uuidOf(one), uuidOf(two));
    const note = await new AssetsTool(context).run(
      { action: "create", content: "notes", filename: "n.md" },
      { callId: "call_c" },
    );
    assert.match(text(note), /^Uploaded 'n\.md'/);
    const names = (await agent.client.assets.list({ timeline }).toArray())
      .map((a) => a.content.file?.filename).sort();
    assert.deepEqual(names, ["n.md", "one.png", "two.png"]);
  }, same);
});
