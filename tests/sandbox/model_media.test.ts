/**
 * The sandbox demo model's media routes, driven by the real media tools (the real openai SDK)
 * over HTTP: deterministic, valid images, transcripts that name the clip, offline.
 */
import { strict as assert } from "node:assert";
import type { ToolOutput } from "../../lib/core/types/tool.ts";
import { decide } from "../../lib/sandbox/model/demo_model.ts";
import { demoPng } from "../../lib/sandbox/model/media_wire.ts";
import { MODEL_PATH } from "../../lib/sandbox/model/routes.ts";
import {
  EditImageTool,
  GenerateImageTool,
  ListenTool,
} from "../../lib/tools/media/openai_media.ts";
import {
  GrokEditImageTool,
  GrokGenerateImageTool,
  GrokGenerateVideoTool,
} from "../../lib/tools/media/xai_media.ts";
import { withRoom } from "../tools/timelines_fixture.ts";
import { asUser } from "../support/cleared.ts";

const text = (out: string | ToolOutput) => typeof out === "string" ? out : out.text;
const uuidOf = (line: string) => /asset uuid=([0-9a-f-]+)/.exec(line)?.[1] ?? "";

/** Checks a PNG's structure: signature, chunk CRCs, and an IDAT that inflates to 16 rows. */
async function assertValidPng(bytes: Uint8Array): Promise<void> {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 8;
  const types: string[] = [];
  let idat = new Uint8Array();
  while (offset < bytes.length) {
    const length = view.getUint32(offset);
    const type = new TextDecoder().decode(bytes.subarray(offset + 4, offset + 8));
    types.push(type);
    if (type === "IDAT") idat = bytes.slice(offset + 8, offset + 8 + length);
    offset += 12 + length;
  }
  assert.deepEqual(types, ["IHDR", "IDAT", "IEND"]);
  const inflated = new Uint8Array(
    await new Response(
      new Blob([idat]).stream().pipeThrough(new DecompressionStream("deflate")),
    ).arrayBuffer(),
  );
  assert.equal(inflated.length, 16 * (1 + 16 * 3));
}

Deno.test("sandbox model: generate_image gets a valid PNG derived from the prompt", async () => {
  await withRoom(async ({ c, context, agent }) => {
    const endpoint = {
      provider: "openai",
      apiKey: "any",
      baseURL: `${c.baseUrl}${MODEL_PATH}`,
    };
    const tool = new GenerateImageTool(endpoint, context);
    const first = text(await tool.run({ prompt: "a lighthouse" }));
    assert.match(first, /posted it as 'a-lighthouse\.png'/);
    const asset = await agent.client.assets.get(uuidOf(first));
    assert.equal(asset.content.file?.content_type, "image/png");
    const { bytes } = await agent.client.assets.download(asset);
    await assertValidPng(bytes);
    assert.deepEqual(bytes, await demoPng("generate:a lighthouse"));
    assert.notDeepEqual(bytes, await demoPng("generate:a harbour"));

    const edited = text(
      await new EditImageTool(endpoint, context).run({
        image: [asset.content.uuid],
        prompt: "at night",
      }),
    );
    assert.match(edited, /^Edited the image and posted it as 'at-night\.png'/);
    const edit = await agent.client.assets.download(
      await agent.client.assets.get(uuidOf(edited)),
    );
    await assertValidPng(edit.bytes);
  });
});

Deno.test("sandbox model: listen gets a transcript naming the clip's size", async () => {
  await withRoom(async ({ c, context, agent, timeline }) => {
    const clip = new Uint8Array(40);
    clip.set([0x49, 0x44, 0x33, 4]);
    const mp3 = await agent.client.assets.create(
      timeline,
      asUser("asset", { file: clip, filename: "memo.mp3" }),
    );
    const out = text(
      await new ListenTool({
        provider: "openai",
        apiKey: "any",
        baseURL: `${c.baseUrl}${MODEL_PATH}`,
      }, context).run({ uuid: mp3.content.uuid }),
    );
    assert.match(
      out,
      /\n\nTranscript:\nThis is the sandbox transcript of a 40-byte audio clip\.$/,
    );
  });
});

Deno.test("sandbox model: the xAI image, edit and video routes serve the grok tools offline", async () => {
  await withRoom(async ({ c, context, agent, journal }) => {
    const endpoint = { provider: "xai", apiKey: "any", baseURL: `${c.baseUrl}${MODEL_PATH}` };
    const made = text(await new GrokGenerateImageTool(endpoint, context).run({ prompt: "dune" }));
    assert.match(made, /posted it as 'dune\.png'/);
    const image = await agent.client.assets.get(uuidOf(made));
    await assertValidPng((await agent.client.assets.download(image)).bytes);
    const edited = text(
      await new GrokEditImageTool(endpoint, context).run({
        image: [image.content.uuid, image.content.uuid],
        prompt: "with a moon",
      }),
    );
    assert.match(edited, /posted it as 'with-a-moon\.png'/);
    const video = text(
      await new GrokGenerateVideoTool(endpoint, context, { pollIntervalMs: 1 }).run({
        prompt: "waves",
      }),
    );
    assert.match(video, /^Generated the video and posted it as 'waves\.mp4'/);
    const clip = await agent.client.assets.get(uuidOf(video));
    const bytes = (await agent.client.assets.download(clip)).bytes;
    assert.equal(new TextDecoder().decode(bytes.subarray(4, 8)), "ftyp");
    assert.equal(journal.lines.filter((l) => l.includes("media provider=xai")).length, 3);
  });
});

Deno.test("demo model: /imagine calls the offered image tool once, then answers as usual", () => {
  const ask = { role: "user" as const, text: "[2026-01-01T00:00:00Z] @bob: /imagine a red kite" };
  const offered = ["messages", "generate_image"];
  assert.deepEqual(decide({ turns: [ask], tools: offered }), {
    kind: "call",
    name: "generate_image",
    arguments: { prompt: "a red kite" },
  });
  assert.equal(
    (decide({ turns: [ask], tools: ["messages", "grok_generate_image"] }) as { name?: string })
      .name,
    "grok_generate_image",
  );
  const drew = [
    ask,
    {
      role: "assistant" as const,
      text: "",
      calls: [{ id: "c1", name: "generate_image", arguments: "{}" }],
    },
    { role: "tool" as const, callId: "c1", text: "Generated the image and posted it …" },
  ];
  const next = decide({ turns: drew, tools: offered });
  assert.equal(next.kind === "call" ? next.name : next.kind, "messages");
  // Without an image tool, /imagine is an ordinary message.
  assert.equal(
    (decide({ turns: [ask], tools: ["messages"] }) as { name?: string }).name,
    "messages",
  );
});
