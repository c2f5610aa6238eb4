/**
 * Image preparation on real images the test makes with the codec itself
 * (docs/context.md#images-in-a-request): the default limits are the documented ones, a tall PNG is
 * split into overlapping full-width segments, a JPEG wider than the long-edge limit is scaled under
 * it with its aspect kept, a JPEG over a model's base64 limit is re-encoded and shrunk by the
 * overshoot until it fits, a corrupt file becomes text, only the newest images ride a request, and
 * the engine sends the prepared view while the transcript keeps the original.
 *
 * The fixtures are as small as the limits allow, because decoding and encoding pixels is what
 * costs here (a 9000×9000 photo took minutes on a loaded machine): each limit is crossed by an
 * image with few pixels — a narrow tall PNG (made once, for the two tests that share it), a
 * 9000 px wide strip, and noise over a model's smaller byte limit (the same code path as the
 * default's 5 MiB, with a sixteenth of the pixels).
 */
import assert from "node:assert/strict";
import { encode as encodePng } from "fast-png";
import { encode as encodeJpeg } from "jpeg-js";
import { Engine } from "../../lib/core/engine.ts";
import { base64Length, decodeImage, prepareView, type Raster } from "../../lib/core/image_prep.ts";
import { ToolRegistry } from "../../lib/core/registry.ts";
import { DEFAULT_IMAGE_PREP } from "../../lib/core/types/image_policy.ts";
import { type ImageContent, Message } from "../../lib/core/types/message.ts";
import {
  calls,
  EchoTool,
  image,
  RecordingJournal,
  ScriptedProvider,
  text,
  TINY_PNG,
  ViewTool,
} from "./engine_fixtures.ts";

/** A user turn showing `images`, as the engine injects one. */
function shown(images: ImageContent[]): Message {
  const turn = Message.user("(Showing image)", { injected: true });
  turn.images = images;
  return turn;
}

/** Decodes a prepared image back to pixels, with the codec the harness uses. */
function pixels(content: ImageContent): Raster {
  return decodeImage(Uint8Array.fromBase64(content.data), content.mimeType);
}

/** `width × height` opaque RGBA pixels, channel by channel from `r`, `g` and `b` of (x, y). */
function raster(
  width: number,
  height: number,
  r: (x: number, y: number) => number,
  g: (x: number, y: number) => number,
  b: (x: number, y: number) => number,
) {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0, o = 0; y < height; y++) {
    for (let x = 0; x < width; x++, o += 4) {
      data[o] = r(x, y);
      data[o + 1] = g(x, y);
      data[o + 2] = b(x, y);
      data[o + 3] = 255;
    }
  }
  return { width, height, data };
}

let tallFixture: ImageContent | undefined;

/**
 * A 60×20000 PNG whose every row is distinct, so overlaps can be checked row by row; made once
 * (the fastest deflate level: how the fixture is compressed is not under test).
 */
function tallPng(): ImageContent {
  if (tallFixture) return tallFixture;
  const tall = raster(60, 20000, (_x, y) => y & 0xff, (_x, y) => y >> 8, (x) => x & 0xff);
  const data = encodePng(tall, { zlib: { level: 1 } }).toBase64();
  tallFixture = { alt: "scroll.png", mimeType: "image/png", data };
  return tallFixture;
}

/** A JPEG of `width × height` pixels of seeded noise: the costliest content to compress. */
function noiseJpeg(width: number, height: number): Uint8Array {
  let seed = 20261203;
  const data = new Uint8Array(width * height * 4);
  for (let o = 0; o < data.length; o += 4) {
    // mulberry32: deterministic, so a failure reproduces
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    t = (t ^ (t >>> 14)) >>> 0;
    data[o] = t & 0xff;
    data[o + 1] = (t >>> 8) & 0xff;
    data[o + 2] = (t >>> 16) & 0xff;
    data[o + 3] = 255;
  }
  return new Uint8Array(encodeJpeg({ width, height, data }, 90).data);
}

Deno.test("image prep: the default limits are the ones docs/configuration.md documents", () => {
  assert.deepEqual(
    [
      DEFAULT_IMAGE_PREP.segmentHeight,
      DEFAULT_IMAGE_PREP.segmentOverlap,
      DEFAULT_IMAGE_PREP.maxBase64Bytes,
      DEFAULT_IMAGE_PREP.maxLongEdge,
      DEFAULT_IMAGE_PREP.maxImages,
    ],
    [4096, 50, 5 * 1024 * 1024, 8000, 20],
  );
});

Deno.test("image prep: a 60×20000 PNG becomes 5 full-width segments with 50 px overlap", async () => {
  const tall = tallPng();
  const { messages, segments } = await prepareView([shown([tall])], DEFAULT_IMAGE_PREP);
  const images = messages[0].images!;
  assert.equal(images.length, 5);
  assert.equal(segments, 5);
  const decoded = images.map(pixels);
  for (const part of decoded) {
    assert.equal(part.width, 60);
    assert.ok(part.height <= 4096, `a segment is ${part.height} px high`);
  }
  assert.deepEqual(decoded.map((p) => p.height), [4096, 4096, 4096, 4096, 3816]);
  // Each segment starts 50 rows above the previous one's end: the rows match byte for byte.
  const row = 60 * 4;
  for (let i = 1; i < decoded.length; i++) {
    const previous = decoded[i - 1].data;
    const tail = previous.subarray(previous.length - 50 * row);
    assert.deepEqual(decoded[i].data.subarray(0, 50 * row), tail, `overlap before part ${i + 1}`);
  }
  assert.equal(images[0].alt, "scroll.png (part 1/5, rows 0–4096)");
  assert.equal(images[4].alt, "scroll.png (part 5/5, rows 16184–20000)");
  for (const part of images) assert.ok(part.data.length <= DEFAULT_IMAGE_PREP.maxBase64Bytes);
});

Deno.test("image prep: a JPEG 9000 px wide is scaled to ≤ 8000 px, its aspect kept", async () => {
  // Gradients with fine texture, as a photo has; within the byte limit, so only the width is over.
  const wide = raster(
    9000,
    180,
    (x) => (x >> 5) & 0xff,
    (_x, y) => (y >> 2) & 0xff,
    (x, y) => ((x ^ y) & 31) + (((x + y) >> 7) & 127),
  );
  const jpeg = new Uint8Array(encodeJpeg(wide, 90).data);
  assert.ok(
    base64Length(jpeg.length) <= DEFAULT_IMAGE_PREP.maxBase64Bytes,
    "only the width is over",
  );
  assert.ok(9000 > DEFAULT_IMAGE_PREP.maxLongEdge);
  const original = { alt: "panorama.jpg", mimeType: "image/jpeg", data: jpeg.toBase64() };
  const { messages } = await prepareView([shown([original])], DEFAULT_IMAGE_PREP);
  const [out] = messages[0].images!;
  assert.equal(messages[0].images!.length, 1);
  assert.equal(out.mimeType, "image/jpeg");
  assert.ok(out.data.length <= 5 * 1024 * 1024, `${out.data.length} base64 characters`);
  const back = pixels(out);
  assert.ok(Math.max(back.width, back.height) <= 8000, `${back.width}×${back.height}`);
  assert.ok(back.width >= 7990, `scaled to the limit, not below it: ${back.width}`);
  assert.ok(
    Math.abs(back.width / back.height - 50) < 0.1,
    `the aspect is kept: ${back.width}×${back.height}`,
  );
});

Deno.test("image prep: a JPEG over a model's base64 limit is re-encoded, shrunk by the overshoot, until it fits", async () => {
  // A model configured for 256 KiB of base64 (max_base64_bytes in image_prep.json). Noise does
  // not compress: at 500×500 no JPEG quality brings it under that, so the image must also shrink.
  const policy = { ...DEFAULT_IMAGE_PREP, maxBase64Bytes: 256 * 1024 };
  const jpeg = noiseJpeg(500, 500);
  assert.ok(base64Length(jpeg.length) > 2 * policy.maxBase64Bytes, "the fixture is small");
  const original = { alt: "noise.jpg", mimeType: "image/jpeg", data: jpeg.toBase64() };
  const { messages, failures } = await prepareView([shown([original])], policy);
  assert.deepEqual(failures, []);
  const [out] = messages[0].images!;
  assert.equal(out.mimeType, "image/jpeg");
  assert.ok(out.data.length <= 256 * 1024, `${out.data.length} base64 characters`);
  const back = pixels(out);
  assert.ok(back.width < 500, `it had to shrink: ${back.width}×${back.height}`);
  assert.ok(back.width >= 250, `by the overshoot, not to a thumbnail: ${back.width}`);
  assert.equal(back.width, back.height, "the aspect ratio is kept");
});

Deno.test("image prep: a corrupt file is sent as text saying why, and the engine logs it", async () => {
  const corrupt = {
    alt: "broken.png",
    mimeType: "image/png",
    data: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4, 5, 6, 7, 8]).toBase64(),
  };
  const { messages, failures } = await prepareView([shown([corrupt])], DEFAULT_IMAGE_PREP);
  assert.equal(messages[0].images, undefined);
  assert.match(
    messages[0].content!,
    /^\(Showing image\)\n\(Image not sent: broken\.png — the file could not be decoded as image\/png \(.+\); it may be corrupt or truncated\.\)$/,
  );
  assert.equal(failures.length, 1);

  const journal = new RecordingJournal();
  // Two more steps after the view: the shown turn is re-sent, but decoded and reported once.
  const provider = new ScriptedProvider([
    calls("view", {}),
    calls("echo", { text: "again" }),
    text("ok"),
  ]);
  const registry = new ToolRegistry().register(new ViewTool([corrupt])).register(new EchoTool());
  await new Engine(provider, registry, { journal }).run([Message.user("look")]);
  for (const call of provider.calls.slice(1)) {
    const sent = call.messages.find((m) => m.injected)!;
    assert.equal(sent.images, undefined);
    assert.match(sent.content!, /Image not sent: broken\.png/);
  }
  const warnings = journal.lines().filter((l) =>
    l.startsWith("WARNING Image preparation sent 1 image(s) as text: broken.png: ")
  );
  assert.equal(warnings.length, 1, journal.lines().join("\n"));
});

Deno.test("image prep: of 25 images only the newest 20 ride the request, the rest as a note", async () => {
  const images = Array.from({ length: 25 }, (_, i) => image(`img${i + 1}.png`));
  const view = [shown(images.slice(0, 10)), Message.user("between"), shown(images.slice(10))];
  const { messages, dropped } = await prepareView(view, DEFAULT_IMAGE_PREP);
  assert.equal(dropped, 5);
  const sent = messages.flatMap((m) => m.images ?? []);
  assert.deepEqual(sent.map((i) => i.alt), images.slice(5).map((i) => i.alt));
  assert.equal(
    messages[0].content!.split("\n").filter((l) => l.startsWith("(Image not sent:")).length,
    5,
  );
  assert.match(messages[0].content!, /img1\.png — only the newest 20 image\(s\) ride a request/);
  assert.equal(messages[1], view[1], "a turn without images is passed through as it is");
  // Small whole images keep their bytes exactly.
  assert.ok(sent.every((i) => i.data === TINY_PNG));
});

Deno.test("image prep: the engine sends the prepared view; the transcript keeps the original", async () => {
  const tall = tallPng();
  const provider = new ScriptedProvider([calls("view", {}), text("seen")]);
  const registry = new ToolRegistry().register(new ViewTool([tall]));
  const messages = [Message.user("look")];
  await new Engine(provider, registry).run(messages);
  assert.equal(provider.calls[1].messages.at(-2)?.images?.length, 5);
  // The transcript's turn is untouched by preparation (the run's eviction drops its pixels).
  const turn = messages.find((m) => m.injected)!;
  assert.equal(turn.content, "(Showing image: scroll.png)");
  // With preparation off, the same image goes whole.
  const raw = new ScriptedProvider([calls("view", {}), text("seen")]);
  await new Engine(raw, new ToolRegistry().register(new ViewTool([tall])), { imagePrep: null })
    .run([Message.user("look")]);
  assert.deepEqual(raw.calls[1].messages.at(-2)?.images, [tall]);
});
