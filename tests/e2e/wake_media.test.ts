/**
 * The media tools end to end (docs/tools.md#media-tools): the real `harness wake` CLI against the
 * sandbox, the stems opted in by `harness install`, a scripted model whose media routes answer on
 * the same wire mock (AI_BASE_URL), and every effect checked from the outside: the asset on the
 * timeline, the journal's `media` line, the transcript on disk (which never holds the bytes), and
 * the next wake (the agent's own asset is skipped, so nothing generates again).
 */
import assert from "node:assert/strict";
import { chatCompletion, type RecordedRequest } from "../support/model_mock.ts";
import { runCli } from "../support/run_cli.ts";
import { startStub } from "../support/http_stub.ts";
import { demoPng } from "../../lib/sandbox/model/media_wire.ts";
import { MODEL_PATH } from "../../lib/sandbox/model/routes.ts";
import { agentPosts, say, sessionPath, type World, world } from "./wake_support.ts";
import { asUser } from "../support/cleared.ts";

const PNG = new Uint8Array([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  ...new TextEncoder().encode("a generated picture, pretend"),
]);
const MP4 = new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 1, 2]);
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

type Call = { id: string; name: string; arguments: Record<string, unknown> };
const step = (calls: Call[]) => ({ json: chatCompletion({ toolCalls: calls }) });
const say_ = (body: string): Call => ({
  id: "call_say",
  name: "messages",
  arguments: { action: "create", body },
});

/** The result text of call `id` in the last chat request that carries it. */
function resultOf(w: World, id: string): string {
  for (const request of w.model.requestsTo("chat").toReversed()) {
    const messages = (request.body as {
      messages: { role: string; content: unknown; tool_call_id?: string }[];
    }).messages;
    const hit = messages.find((m) => m.role === "tool" && m.tool_call_id === id);
    if (hit) return String(hit.content);
  }
  assert.fail(`no result for ${id}`);
}

async function install(w: World, stems: string, env: Record<string, string> = {}) {
  const installed = await runCli(["install", "--opt-in", stems], { env: { ...w.env, ...env } });
  assert.equal(installed.code, 0, installed.stderr);
}

async function agentAssets(w: World) {
  const all = await w.peer.client.assets.list({ timeline: w.timeline }).toArray();
  return all.filter((a) => a.user?.uuid === w.agent.uuid);
}

Deno.test("a wake generates an image, posts it, keeps the bytes out of the transcript; the next wake does not loop", async () => {
  await using w = await world();
  await install(w, "generate_image");
  await say(w, "draw me a red fox please");
  w.model.reply(
    "chat",
    step([{ id: "call_img", name: "generate_image", arguments: { prompt: "a red fox" } }]),
    step([say_("Here is your fox.")]),
    { json: chatCompletion({ content: "Drew the fox." }) },
  );
  w.model.reply("images", { json: { data: [{ b64_json: b64(PNG) }] } });
  const result = await w.wake();
  assert.equal(result.code, 0, result.stderr);

  const offered =
    (w.model.requestsTo("chat")[0].body as { tools: { function: { name: string } }[] })
      .tools.map((t) => t.function.name);
  assert.ok(offered.includes("generate_image"), offered.join(","));
  assert.equal(w.model.lastBody("images").model, "gpt-image-2");
  const mine = await agentAssets(w);
  assert.equal(mine.length, 1);
  assert.equal(mine[0].content.file?.filename, "a-red-fox.png");
  assert.deepEqual((await w.peer.client.assets.download(mine[0])).bytes, PNG);
  assert.match(resultOf(w, "call_img"), new RegExp(`asset uuid=${mine[0].content.uuid}`));
  assert.deepEqual(await agentPosts(w), ["Here is your fox."]);
  assert.match(result.stderr, /INFO media provider=openai kind=image\.generate model=gpt-image-2/);
  const transcript = await Deno.readTextFile(sessionPath(w));
  assert.ok(!transcript.includes(b64(PNG)), "the image's base64 reached the transcript");
  assert.ok(!transcript.includes(b64(PNG).slice(0, 24)));

  // The router wakes the agent for its own new asset: the self-filter skips it, so no model
  // call and no second generation — no generate → perceive → generate loop.
  const chats = w.model.hits("chat");
  const again = await w.wake(); // as the router runs it: --timeline only
  assert.equal(again.code, 0, again.stderr);
  assert.equal(w.model.hits("chat"), chats);
  assert.equal(w.model.hits("images"), 1);
  assert.equal((await agentAssets(w)).length, 1);
});

Deno.test("a wake edits a peer's image and transcribes a peer's clip", async () => {
  await using w = await world();
  await install(w, "edit_image,hear_audio");
  const photo = await w.peer.client.assets.create(
    w.timeline,
    asUser("asset", { file: PNG, filename: "me.png" }),
  );
  const clip = new Uint8Array(48);
  clip.set([0x49, 0x44, 0x33, 4]);
  const memo = await w.peer.client.assets.create(
    w.timeline,
    asUser("asset", { file: clip, filename: "memo.mp3" }),
  );
  await say(w, "make my photo sepia and tell me what my memo says");
  w.model.reply(
    "chat",
    step([
      {
        id: "call_edit",
        name: "edit_image",
        arguments: { image: [photo.content.uuid], prompt: "sepia tone" },
      },
      { id: "call_listen", name: "listen", arguments: { uuid: memo.content.uuid } },
    ]),
    step([say_("Done both.")]),
    { json: chatCompletion({ content: "Edited and listened." }) },
  );
  w.model.reply("image_edits", { json: { data: [{ b64_json: b64(PNG) }] } });
  w.model.reply("transcriptions", { json: { text: "buy milk" } });
  const result = await w.wake();
  assert.equal(result.code, 0, result.stderr);
  assert.match(resultOf(w, "call_edit"), /^Edited the image and posted it as 'sepia-tone\.png'/);
  assert.match(resultOf(w, "call_listen"), /\n\nTranscript:\nbuy milk$/);
  const sent = w.model.requestsTo("image_edits")[0].form ?? {};
  const image = [...(sent["image[]"] ?? []), ...(sent.image ?? [])][0];
  assert.ok(image && typeof image !== "string");
  assert.deepEqual(image.bytes, PNG);
  assert.equal((await agentAssets(w)).length, 1);
  assert.match(result.stderr, /kind=image\.edit/);
  assert.match(result.stderr, /kind=audio\.transcribe model=gpt-transcribe/);
});

Deno.test("under xAI a wake makes a video: submitted, polled, downloaded, posted", async () => {
  await using w = await world();
  const xai = { AI_PROVIDER: "xai" };
  await install(w, "grok_generate_video", xai);
  await say(w, "make a short clip of waves");
  w.model.reply(
    "chat",
    step([{ id: "call_vid", name: "grok_generate_video", arguments: { prompt: "ocean waves" } }]),
    step([say_("Your clip is up.")]),
    { json: chatCompletion({ content: "Made the clip." }) },
  );
  w.model.always("other", (request: RecordedRequest) => {
    if (request.path.endsWith("/videos/generations")) return { json: { request_id: "v-9" } };
    if (request.path.endsWith("/videos/v-9")) {
      return {
        json: {
          status: "done",
          video: { url: `${w.model.origin}/files/v-9.mp4` },
          usage: { cost_in_usd_ticks: 2e9 },
        },
      };
    }
    if (request.path === "/files/v-9.mp4") {
      return { text: String.fromCharCode(...MP4), contentType: "video/mp4" };
    }
    return { status: 404, json: { error: { message: `no route ${request.path}` } } };
  });
  const result = await w.wake([], xai);
  assert.equal(result.code, 0, result.stderr);
  assert.match(resultOf(w, "call_vid"), /^Generated the video and posted it as 'ocean-waves\.mp4'/);
  const mine = await agentAssets(w);
  assert.equal(mine.length, 1);
  assert.equal(mine[0].content.file?.filename, "ocean-waves.mp4");
  assert.match(
    result.stderr,
    /INFO media provider=xai kind=video\.generate model=grok-imagine-video-1\.5 duration=\S+ cost=0\.2/,
  );
  assert.deepEqual(await agentPosts(w), ["Your clip is up."]);
});

Deno.test("under xAI a video URL to a file: path or the box's own network is refused, journaled, nothing posted", async () => {
  await using w = await world();
  await using internal = await startStub(() => new Response(MP4));
  const secret = `${w.home}/secret.txt`;
  await Deno.writeTextFile(secret, "BASECRADLE_TOKEN=bc_uat_not_for_the_timeline\n");
  const xai = { AI_PROVIDER: "xai" };
  await install(w, "grok_generate_video", xai);
  await say(w, "make two short clips");
  const video = (id: string, prompt: string) =>
    step([{ id, name: "grok_generate_video", arguments: { prompt } }]);
  w.model.reply(
    "chat",
    video("call_file", "waves"),
    video("call_inside", "clouds"),
  );
  w.model.always("chat", { json: chatCompletion({ content: "Neither clip could be fetched." }) });
  const urls: Record<string, string> = {
    "v-file": `file://${secret}`,
    "v-inside": `${internal.url}/admin/clip.mp4`,
  };
  let submitted = 0;
  w.model.always("other", (request: RecordedRequest) => {
    if (request.path.endsWith("/videos/generations")) {
      return { json: { request_id: submitted++ === 0 ? "v-file" : "v-inside" } };
    }
    const id = request.path.split("/").at(-1) ?? "";
    if (id in urls) return { json: { status: "done", video: { url: urls[id] } } };
    return { status: 404, json: { error: { message: `no route ${request.path}` } } };
  });
  const result = await w.wake([], xai);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    resultOf(w, "call_file"),
    /^Error generating video: xAI finished video v-file, but the URL it gave for it was not fetched: the URL file:… was refused: only http and https URLs are fetched\. Nothing was posted\.$/,
  );
  assert.match(
    resultOf(w, "call_inside"),
    /127\.0\.0\.1 is a loopback address\. Nothing was posted\.$/,
  );
  // The wake's journal names each refusal, never the path.
  assert.match(
    result.stderr,
    /WARNING url refused via=media target=file: reason="only http and https URLs are fetched"/,
  );
  assert.match(
    result.stderr,
    /WARNING url refused via=media target=http:\/\/127\.0\.0\.1:\d+ reason=/,
  );
  assert.doesNotMatch(result.stderr, /secret\.txt|bc_uat_not_for_the_timeline/);
  assert.equal(
    (result.stderr.match(/INFO tool name=grok_generate_video duration=\S+ outcome=refused/g) ?? [])
      .length,
    2,
  );
  assert.equal(internal.requests.length, 0, "the internal server was never reached");
  assert.deepEqual(await agentAssets(w), []);
  assert.deepEqual(await agentPosts(w), []);
});

Deno.test("offline against the sandbox's demo model: /imagine draws a valid PNG once, posts it, and the next wake stays idle", async () => {
  await using w = await world();
  await install(w, "generate_image");
  const demo = {
    AI_BASE_URL: `${w.sandbox.baseUrl}${MODEL_PATH}`,
    AI_MODEL: "sandbox-demo",
    AI_SDK_SURFACE: "responses",
  };
  await say(w, "/imagine a lighthouse at dusk");
  const result = await w.wake([], demo);
  assert.equal(result.code, 0, result.stderr);
  const mine = await agentAssets(w);
  assert.equal(mine.length, 1);
  assert.equal(mine[0].content.file?.filename, "a-lighthouse-at-dusk.png");
  const { bytes } = await w.peer.client.assets.download(mine[0]);
  assert.deepEqual(bytes, await demoPng("generate:a lighthouse at dusk"));
  const posts = await agentPosts(w);
  assert.equal(posts.length, 1);
  assert.match(posts[0], /^\(sandbox demo model\)/);
  assert.match(result.stderr, /INFO media provider=openai kind=image\.generate/);
  const transcript = await Deno.readTextFile(sessionPath(w));
  assert.ok(!transcript.includes(b64(bytes).slice(0, 40)), "the PNG's base64 is in the transcript");

  const again = await w.wake([], demo); // as the router runs it: --timeline only
  assert.equal(again.code, 0, again.stderr);
  assert.equal((await agentAssets(w)).length, 1);
  assert.equal((await agentPosts(w)).length, 1);
  assert.doesNotMatch(again.stderr, /INFO media /);
});
