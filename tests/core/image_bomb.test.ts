/**
 * Decompression bombs (docs/context.md#images-in-a-request): an image whose header declares more
 * than the megapixel limit is refused from its header, never inflated. The bomb is made here: a
 * 20000×20000 single-colour PNG whose pixels compress to a few hundred kilobytes and would
 * inflate to 400 MB of samples (1.6 GB as RGBA). The same holds for JPEG, GIF and WebP headers.
 * The refusal is a note the model reads and a WARNING in the journal; a separate process shows
 * the refusal costs no more memory than the file.
 */
import assert from "node:assert/strict";
import { encode as encodeJpeg } from "jpeg-js";
import { Engine } from "../../lib/core/engine.ts";
import {
  headerSize,
  MAX_DECODE_MEGAPIXELS,
  prepareImage,
  prepareView,
} from "../../lib/core/image_prep.ts";
import { ToolRegistry } from "../../lib/core/registry.ts";
import { DEFAULT_IMAGE_PREP } from "../../lib/core/types/image_policy.ts";
import { Message } from "../../lib/core/types/message.ts";
import { calls, RecordingJournal, ScriptedProvider, text, ViewTool } from "./engine_fixtures.ts";

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/**
 * A valid `width`×`height` 8-bit greyscale PNG, every pixel black: its rows (a filter byte and
 * `width` zero samples each) are deflated as a stream, so the test never holds them whole.
 */
async function pngBomb(width: number, height: number): Promise<Uint8Array> {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 0, 0, 0, 0], 8); // depth 8, greyscale, deflate, no filter method, no interlace
  let remaining = height * (width + 1);
  const zeros = new Uint8Array(1 << 20);
  const raw = new ReadableStream<BufferSource>({
    pull(controller) {
      if (remaining === 0) return controller.close();
      const n = Math.min(remaining, zeros.length);
      remaining -= n;
      controller.enqueue(zeros.subarray(0, n));
    },
  });
  const idat = await new Response(raw.pipeThrough(new CompressionStream("deflate"))).bytes();
  const parts = [
    Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", idat),
    chunk("IEND", new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * A real 16×16 JPEG (encoded by the codec the harness uses) whose frame header (SOF0) is then
 * made to declare `width`×`height`: what a hostile peer would send.
 */
function jpegDeclaring(width: number, height: number): Uint8Array {
  const data = new Uint8Array(16 * 16 * 4).fill(255);
  const jpeg = new Uint8Array(encodeJpeg({ width: 16, height: 16, data }, 80).data);
  const sof = jpeg.findIndex((b, i) => b === 0xff && jpeg[i + 1] === 0xc0);
  assert.ok(sof > 0, "a baseline frame header");
  const view = new DataView(jpeg.buffer);
  view.setUint16(sof + 5, height);
  view.setUint16(sof + 7, width);
  return jpeg;
}

/** A GIF's logical screen descriptor declaring `width`×`height` (16 bits, little-endian). */
function gifHeader(width: number, height: number): Uint8Array {
  return Uint8Array.from([
    ...new TextEncoder().encode("GIF89a"),
    width & 0xff,
    width >> 8,
    height & 0xff,
    height >> 8,
    0,
    0,
    0,
    0x3b,
  ]);
}

/** A lossless WebP (VP8L) header declaring `width`×`height` (14 bits each, minus one). */
function webpHeader(width: number, height: number): Uint8Array {
  const bits = (width - 1) | ((height - 1) << 14);
  const body = Uint8Array.from([
    ...new TextEncoder().encode("VP8L"),
    5,
    0,
    0,
    0,
    0x2f,
    bits & 0xff,
    (bits >> 8) & 0xff,
    (bits >> 16) & 0xff,
    (bits >>> 24) & 0xff,
    0,
  ]);
  const riff = new Uint8Array(12 + body.length);
  riff.set(new TextEncoder().encode("RIFF"), 0);
  new DataView(riff.buffer).setUint32(4, 4 + body.length, true);
  riff.set(new TextEncoder().encode("WEBP"), 8);
  riff.set(body, 12);
  return riff;
}

Deno.test("image bomb: a 20000×20000 PNG of a few hundred KB is refused from its header", async () => {
  const bomb = await pngBomb(20_000, 20_000);
  assert.ok(bomb.length < 1_000_000, `the bomb is ${bomb.length} bytes`);
  assert.deepEqual(headerSize(bomb), { width: 20_000, height: 20_000, type: "png" });
  const image = { alt: "bomb.png", mimeType: "image/png", data: bomb.toBase64() };
  const outcome = await prepareImage(image, DEFAULT_IMAGE_PREP);
  assert.equal(
    outcome,
    "its header declares 20000×20000 pixels (400 megapixels), over the " +
      `${MAX_DECODE_MEGAPIXELS}-megapixel limit; it was refused without being decoded.`,
  );
});

Deno.test("image bomb: JPEG, GIF and WebP headers over the limit are refused the same way", async () => {
  const cases = [
    { mimeType: "image/jpeg", bytes: jpegDeclaring(60_000, 60_000), size: "60000×60000" },
    { mimeType: "image/gif", bytes: gifHeader(65_535, 65_535), size: "65535×65535" },
    { mimeType: "image/webp", bytes: webpHeader(16_384, 16_384), size: "16384×16384" },
  ];
  for (const { mimeType, bytes, size } of cases) {
    const outcome = await prepareImage(
      { alt: "big", mimeType, data: bytes.toBase64() },
      DEFAULT_IMAGE_PREP,
    );
    assert.equal(typeof outcome, "string", mimeType);
    assert.match(outcome as string, new RegExp(`^its header declares ${size} pixels`), mimeType);
  }
  // Within the limit, a GIF or WebP still goes as it is: only the header was read.
  const small = { alt: "small", mimeType: "image/gif", data: gifHeader(640, 480).toBase64() };
  assert.deepEqual(await prepareImage(small, DEFAULT_IMAGE_PREP), [small]);
});

Deno.test("image bomb: the model reads why the image was not sent, and the journal says so once", async () => {
  const bomb = await pngBomb(20_000, 20_000);
  const image = { alt: "bomb.png", mimeType: "image/png", data: bomb.toBase64() };
  const view = Message.user("(Showing image)", { injected: true });
  view.images = [image];
  const prepared = await prepareView([view], DEFAULT_IMAGE_PREP);
  assert.equal(prepared.messages[0].images, undefined);
  assert.match(prepared.messages[0].content!, /Image not sent: bomb\.png — its header declares/);

  const journal = new RecordingJournal();
  const provider = new ScriptedProvider([calls("view", {}), text("ok")]);
  const registry = new ToolRegistry().register(new ViewTool([image]));
  await new Engine(provider, registry, { journal }).run([Message.user("look")]);
  const sent = provider.calls[1].messages.find((m) => m.injected)!;
  assert.equal(sent.images, undefined);
  assert.match(sent.content!, /Image not sent: bomb\.png — its header declares 20000×20000/);
  const warnings = journal.lines().filter((l) =>
    l.startsWith("WARNING Image preparation sent 1 image(s) as text: bomb.png: its header")
  );
  assert.equal(warnings.length, 1, journal.lines().join("\n"));
});

Deno.test("image bomb: refusing it costs a process no more memory than the file", async () => {
  const bomb = await pngBomb(20_000, 20_000);
  const dir = await Deno.makeTempDir({ prefix: "image-bomb-" });
  try {
    await Deno.writeFile(`${dir}/bomb.png`, bomb);
    // A separate process: its peak resident size (VmHWM) is this one refusal's and nothing else's.
    const script = `
      import { prepareImage } from "${new URL("../../lib/core/image_prep.ts", import.meta.url)}";
      import { DEFAULT_IMAGE_PREP } from "${new URL(
      "../../lib/core/types/image_policy.ts",
      import.meta.url,
    )}";
      const data = (await Deno.readFile(Deno.args[0])).toBase64();
      const outcome = await prepareImage({ alt: "b", mimeType: "image/png", data }, DEFAULT_IMAGE_PREP);
      const peak = /VmHWM:\\s+(\\d+) kB/.exec(await Deno.readTextFile("/proc/self/status"))[1];
      console.log(JSON.stringify({ outcome, peakKb: Number(peak) }));
    `;
    await Deno.writeTextFile(`${dir}/probe.ts`, script);
    const run = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--quiet",
        "--config",
        new URL("../../deno.json", import.meta.url).pathname,
        `${dir}/probe.ts`,
        `${dir}/bomb.png`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(run.stderr);
    assert.equal(run.code, 0, stderr);
    const { outcome, peakKb } = JSON.parse(new TextDecoder().decode(run.stdout));
    assert.match(outcome, /^its header declares 20000×20000 pixels/);
    // Inflating the samples alone would take 400 MB; the refusal stays far below that.
    assert.ok(peakKb < 300_000, `peak resident size ${peakKb} kB`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
