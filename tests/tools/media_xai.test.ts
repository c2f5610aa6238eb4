/**
 * The xAI media tools against a local stub of xAI's API (the tools speak `fetch`), with the real
 * sandbox platform for the assets they read and create, and the video poll's every ending.
 */
import { strict as assert } from "node:assert";
import type { ToolOutput } from "../../lib/core/types/tool.ts";
import {
  GrokEditImageTool,
  GrokGenerateImageTool,
  GrokGenerateVideoTool,
  type MediaEndpoint,
} from "../../lib/tools/media/xai_media.ts";
import { json, type Recorded, routes, startStub } from "../support/http_stub.ts";
import { urlRefused } from "../../lib/journal/catalogue_wake.ts";
import { onUrlRefused } from "../../lib/net/refusal.ts";
import { uuid5 } from "../../lib/platform/idempotency.ts";
import { since, withRoom } from "./timelines_fixture.ts";
import { asUser } from "../support/cleared.ts";

const KEY = "0190f0a4-0000-7000-8000-00000000ae02";
const keyed = {
  idempotencyKey: (kind: string, id: string) => `${kind}:${id}` === "asset:c1" ? KEY : undefined,
};
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 9, 9]);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const MP4 = new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 7, 7]);
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const text = (out: string | ToolOutput) => typeof out === "string" ? out : out.text;
const uuidOf = (line: string) => /asset uuid=([0-9a-f-]+)/.exec(line)?.[1] ?? "";
const xai = (url: string, over: Partial<MediaEndpoint> = {}): MediaEndpoint => ({
  provider: "xai",
  apiKey: "xai-test-key",
  baseURL: `${url}/v1`,
  ...over,
});
const FAST = { pollIntervalMs: 5, deadlineMs: 2_000 };

Deno.test("grok_generate_image: posts the request, sniffs the JPEG, uploads keyed, logs the cost", async () => {
  await using stub = await startStub(routes({
    "POST /v1/images/generations": () =>
      json({ data: [{ b64_json: b64(JPEG) }], usage: { cost_in_usd_ticks: 700_000_000 } }),
  }));
  await withRoom(async ({ c, context, agent, journal }) => {
    const mark = c.sandbox.requests.length;
    const out = text(
      await new GrokGenerateImageTool(xai(stub.url), context).run({
        prompt: "Neon city at night",
        aspect_ratio: "16:9",
        resolution: "2k",
      }, { callId: "c1" }),
    );
    assert.match(out, /^Generated the image and posted it as 'neon-city-at-night\.jpg'/);
    const request = stub.requests[0];
    assert.equal(request.headers.get("authorization"), "Bearer xai-test-key");
    assert.deepEqual(request.json(), {
      model: "grok-imagine-image-quality",
      prompt: "Neon city at night",
      n: 1,
      response_format: "b64_json",
      aspect_ratio: "16:9",
      resolution: "2k",
    });
    assert.equal(
      since(c, mark).find((r) => r.method === "POST")?.idempotencyKey,
      await uuid5(KEY, "media:c1"),
    );
    const asset = await agent.client.assets.get(uuidOf(out));
    assert.deepEqual((await agent.client.assets.download(asset)).bytes, JPEG);
    assert.match(
      journal.lines.find((l) => l.includes("media ")) ?? "",
      /media provider=xai kind=image\.generate model=grok-imagine-image-quality duration=\S+ cost=0\.07/,
    );
  }, keyed);
});

Deno.test("grok_generate_image: xAI's error is relayed, and the wrong provider is refused", async () => {
  await using stub = await startStub(routes({
    "POST /v1/images/generations": () => json({ error: "Content policy violation" }, 400),
  }));
  await withRoom(async ({ context }) => {
    assert.equal(
      text(await new GrokGenerateImageTool(xai(stub.url), context).run({ prompt: "x" })),
      "Error generating image: xAI rejected the request — Content policy violation",
    );
    const openai = xai(stub.url, { provider: "openai" });
    assert.match(
      text(await new GrokGenerateImageTool(openai, context).run({ prompt: "x" })),
      /^Error: the 'grok_generate_image' tool needs the 'xai' provider/,
    );
    assert.equal(stub.requests.length, 1);
  });
});

Deno.test("grok_edit_image: one source is `image`, several are `images`, at most three", async () => {
  const bodies: unknown[] = [];
  await using stub = await startStub(routes({
    "POST /v1/images/edits": (rec: Recorded) => {
      bodies.push(rec.json());
      return json({ data: [{ b64_json: b64(PNG) }] });
    },
  }));
  await withRoom(async ({ context, agent, timeline }) => {
    const tool = new GrokEditImageTool(xai(stub.url), context);
    const a = await agent.client.assets.create(
      timeline,
      asUser("asset", { file: PNG, filename: "a.png" }),
    );
    const b = await agent.client.assets.create(
      timeline,
      asUser("asset", { file: PNG, filename: "b.png" }),
    );
    const one = text(await tool.run({ image: [a.content.uuid], prompt: "make it blue" }));
    assert.match(one, /posted it as 'make-it-blue\.png'/);
    const uri = `data:image/png;base64,${b64(PNG)}`;
    assert.deepEqual((bodies[0] as Record<string, unknown>).image, { url: uri, type: "image_url" });
    await tool.run({ image: [a.content.uuid, b.content.uuid], prompt: "merge" });
    const two = bodies[1] as Record<string, unknown>;
    assert.equal(two.image, undefined);
    assert.equal((two.images as unknown[]).length, 2);
    const four = Array(4).fill(a.content.uuid);
    assert.equal(
      await tool.run({ image: four, prompt: "x" }),
      "Error: 'image' takes at most 3 source images (4 given).",
    );
    assert.equal(bodies.length, 2);
  });
});

/** A stub whose video poll answers `states` in turn (the last one repeats). */
function videoStub(states: unknown[], origin: () => string) {
  let polls = 0;
  return routes({
    "POST /v1/videos/generations": () => json({ request_id: "vid-1" }),
    "GET /v1/videos/vid-1": () => {
      const state = states[Math.min(polls++, states.length - 1)];
      return json(
        typeof state === "string" && state === "done"
          ? {
            status: "done",
            video: { url: `${origin()}/files/vid-1.mp4` },
            usage: { cost_in_usd_ticks: 1e9 },
          }
          : state,
      );
    },
    "GET /files/vid-1.mp4": () => new Response(MP4, { headers: { "content-type": "video/mp4" } }),
  });
}

Deno.test("grok_generate_video: polls until done, downloads without the key, posts the mp4", async () => {
  let url = "";
  await using stub = await startStub(
    videoStub([{ status: "pending" }, { status: "pending" }, "done"], () => url),
  );
  url = stub.url;
  await withRoom(async ({ context, agent, journal }) => {
    const tool = new GrokGenerateVideoTool(xai(stub.url), context, FAST);
    const out = text(await tool.run({ prompt: "A cat surfing", duration: "6" }));
    assert.match(out, /^Generated the video and posted it as 'a-cat-surfing\.mp4'/);
    const submit = stub.requests[0];
    assert.deepEqual(submit.json(), {
      model: "grok-imagine-video-1.5",
      prompt: "A cat surfing",
      duration: 6,
    });
    assert.equal(stub.requests.filter((r) => r.path === "/v1/videos/vid-1").length, 3);
    const download = stub.requests.find((r) => r.path === "/files/vid-1.mp4");
    assert.equal(download?.headers.get("authorization"), null);
    const asset = await agent.client.assets.get(uuidOf(out));
    assert.deepEqual((await agent.client.assets.download(asset)).bytes, MP4);
    assert.match(
      journal.lines.join("\n"),
      /kind=video\.generate model=grok-imagine-video-1\.5 .*cost=0\.1/,
    );
  });
});

Deno.test("grok_generate_video: a hostile vendor's file:, metadata or internal video URL is refused, journaled, nothing posted", async () => {
  const secret = await Deno.makeTempFile({ prefix: "xai-video-" });
  await Deno.writeTextFile(secret, "BASECRADLE_TOKEN=bc_uat_leaked\n");
  // The box's own network: a loopback server on another port than xAI's endpoint.
  await using internal = await startStub(() => new Response(MP4));
  const hostile: Array<[url: string, answer: RegExp]> = [
    [`file://${secret}`, /the URL file:… was refused: only http and https URLs are fetched\./],
    [
      "http://169.254.169.254/latest/meta-data/iam/security-credentials/role",
      /the URL http:\/\/169\.254\.169\.254… was refused: 169\.254\.169\.254 is a cloud metadata address\./,
    ],
    [`${internal.url}/admin/video.mp4`, /127\.0\.0\.1 is a loopback address\./],
  ];
  try {
    for (const [videoUrl, answer] of hostile) {
      await using stub = await startStub(routes({
        "POST /v1/videos/generations": () => json({ request_id: "vid-1" }),
        "GET /v1/videos/vid-1": () => json({ status: "done", video: { url: videoUrl } }),
      }));
      await withRoom(async ({ c, context, journal }) => {
        onUrlRefused((refusal) => urlRefused(journal, refusal));
        try {
          const mark = c.sandbox.requests.length;
          const out = text(
            await new GrokGenerateVideoTool(xai(stub.url), context, FAST).run({ prompt: "x" }),
          );
          assert.match(
            out,
            /^Error generating video: xAI finished video vid-1, but the URL it gave for it was not fetched: /,
          );
          assert.match(out, answer);
          assert.match(out, /Nothing was posted\.$/);
          assert.doesNotMatch(out, /bc_uat_leaked/);
          assert.equal(
            since(c, mark).filter((r) => r.method === "POST").length,
            0,
            "nothing was uploaded or posted",
          );
          const line = journal.lines.find((l) => l.includes("url refused"));
          assert.match(line ?? "", /^WARNING url refused via=media target=\S+ reason=/);
        } finally {
          onUrlRefused(null);
        }
      });
    }
    assert.equal(internal.requests.length, 0, "the internal server was never reached");
  } finally {
    await Deno.remove(secret);
  }
});

Deno.test("grok_generate_video: failed and expired relay xAI's message; the deadline gives up", async () => {
  await withRoom(async ({ context }) => {
    {
      await using stub = await startStub(
        videoStub([{ status: "failed", error: { message: "moderation blocked" } }], () => ""),
      );
      assert.equal(
        text(
          await new GrokGenerateVideoTool(xai(stub.url), context, FAST).run({ prompt: "x" }),
        ),
        "Error generating video: xAI rejected the request — the video failed: moderation blocked",
      );
    }
    {
      await using stub = await startStub(videoStub([{ status: "expired" }], () => ""));
      assert.equal(
        text(
          await new GrokGenerateVideoTool(xai(stub.url), context, FAST).run({ prompt: "x" }),
        ),
        "Error generating video: xAI rejected the request — the video expired",
      );
    }
    {
      await using stub = await startStub(videoStub([{ status: "pending" }], () => ""));
      const tool = new GrokGenerateVideoTool(xai(stub.url), context, {
        pollIntervalMs: 10,
        deadlineMs: 50,
      });
      assert.equal(
        text(await tool.run({ prompt: "x" })),
        "Error generating video: xAI did not finish video vid-1 within 0.05 s; it was not posted",
      );
      assert.ok(stub.requests.filter((r) => r.path === "/v1/videos/vid-1").length >= 2);
    }
    assert.deepEqual(context.acts, []);
    assert.equal(
      await new GrokGenerateVideoTool(xai("http://127.0.0.1:1"), context).run({
        prompt: "x",
        duration: "forever",
      }),
      "Error: 'duration' must be a whole number of seconds from 1 to 60.",
    );
  });
});
