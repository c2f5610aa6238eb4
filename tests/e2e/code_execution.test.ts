/**
 * Server-side code execution end to end (docs/tools.md#code_execution-run-code-in-the-vendors-sandbox): real `harness wake`
 * processes on the sandbox platform, the openai SDK against the wire mock's Responses and
 * containers routes. A code run's files and source become assets and the model is handed their
 * uuids; code_attach stages an asset into the container; a wake SIGKILLed after the code run
 * returned is recovered without the code running again and without duplicate assets; on xAI the
 * built-in rides alone, with no bridge.
 */
import assert from "node:assert/strict";
import { containerFiles, type RecordedRequest, responsesReply } from "../support/model_mock.ts";
import { MODEL_PATH } from "../../lib/sandbox/model/routes.ts";
import { runCli } from "../support/run_cli.ts";
import {
  agentPosts,
  say,
  session,
  spawnWake,
  upload,
  waitFor,
  type World,
  world,
} from "./wake_support.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 42, 42]);
const RESPONSES = { AI_SDK_SURFACE: "responses" };

async function install(w: World, env: Record<string, string> = {}) {
  const installed = await runCli(["install", "--opt-in", "code_execution"], {
    env: { ...w.env, ...env },
  });
  assert.equal(installed.code, 0, installed.stderr);
}

async function agentAssets(w: World) {
  const all = await w.peer.client.assets.list({ timeline: w.timeline }).toArray();
  return all.filter((a) => a.user?.uuid === w.agent.uuid);
}

/** The text of every input item of a Responses request. */
function inputText(request: RecordedRequest): string {
  return JSON.stringify((request.body as { input?: unknown }).input ?? "");
}

Deno.test("a code run's file and source are posted as assets and the model receives their uuids", async () => {
  await using w = await world();
  await install(w);
  await say(w, "plot the numbers");
  w.model.reply(
    "responses",
    {
      json: responsesReply({
        code: [{ code: "import matplotlib\nplot()", container: "cntr_e2e" }],
        text: "I made the plot.",
      }),
    },
    (request) => {
      const uuid = /plot\.png \(([0-9a-f-]{36})\)/.exec(inputText(request))?.[1] ?? "missing";
      return {
        json: responsesReply({
          toolCalls: [{
            id: "call_post",
            name: "messages",
            arguments: { action: "create", body: `Your plot: asset ${uuid}` },
          }],
        }),
      };
    },
    { json: responsesReply({ text: "Posted the plot." }) },
  );
  w.model.reply("container_files", {
    json: containerFiles("cntr_e2e", [
      { id: "cfile_plot", path: "/mnt/data/plot.png", bytes: PNG.length, source: "assistant" },
    ]),
  });
  w.model.reply("container_file_content", { bytes: PNG, contentType: "image/png" });
  const result = await w.wake([], RESPONSES);
  assert.equal(result.code, 0, result.stderr);
  const mine = await agentAssets(w);
  const byName = new Map(mine.map((a) => [a.content.file?.filename, a]));
  assert.deepEqual([...byName.keys()].sort(), ["code-execution-1.py", "plot.png"]);
  const plot = byName.get("plot.png")!;
  assert.deepEqual((await w.peer.client.assets.download(plot)).bytes, PNG);
  const source = await w.peer.client.assets.download(byName.get("code-execution-1.py")!);
  assert.equal(new TextDecoder().decode(source.bytes), "import matplotlib\nplot()");
  assert.deepEqual(await agentPosts(w), [`Your plot: asset ${plot.content.uuid}`]);
  // The follow-up request names the container the run reported.
  const second = w.model.requestsTo("responses")[1].body as { tools: unknown[] };
  assert.deepEqual(second.tools[0], { type: "code_interpreter", container: "cntr_e2e" });
  assert.match(result.stderr, /INFO code_bridge stored kind=file name=plot\.png asset=/);
  assert.match(result.stderr, /INFO code_bridge stored kind=source name=code-execution-1\.py/);
  const note = (await session(w)).find((m) => m.role === "user" && m.injected === true);
  assert.match(String(note?.content), /^Your code execution produced artifacts/);
});

Deno.test("code_attach stages a timeline asset into a new container; the next request names it", async () => {
  await using w = await world();
  await install(w);
  const data = await upload(w, "numbers.csv");
  await say(w, "analyse numbers.csv");
  w.model.reply(
    "responses",
    {
      json: responsesReply({
        toolCalls: [{
          id: "call_attach",
          name: "code_attach",
          arguments: { asset_uuid: data.content.uuid },
        }],
      }),
    },
  );
  w.model.always("responses", { json: responsesReply({ text: "Staged it." }) });
  w.model.reply("containers", { json: { id: "cntr_made", object: "container", name: "n" } });
  w.model.reply("container_file_create", {
    json: {
      id: "cfile_in",
      object: "container.file",
      container_id: "cntr_made",
      created_at: 1,
      bytes: 24,
      path: "/mnt/data/numbers.csv",
      source: "user",
    },
  });
  const result = await w.wake([], RESPONSES);
  assert.equal(result.code, 0, result.stderr);
  const staged = w.model.requestsTo("container_file_create");
  assert.equal(staged.length, 1);
  assert.equal(staged[0].path, "/v1/containers/cntr_made/files");
  const file = staged[0].form?.file?.[0];
  assert.ok(file && typeof file !== "string");
  assert.equal(file.filename, "numbers.csv");
  assert.equal(new TextDecoder().decode(file.bytes), "contents of numbers.csv");
  const after = w.model.requestsTo("responses")[1].body as { tools: unknown[] };
  assert.deepEqual(after.tools[0], { type: "code_interpreter", container: "cntr_made" });
  assert.match(
    inputText(w.model.requestsTo("responses")[1]),
    /Attached asset .*\/mnt\/data\/numbers\.csv/,
  );
  assert.match(
    result.stderr,
    /INFO code_attach staged asset=\S+ name=numbers\.csv container=cntr_made/,
  );
});

Deno.test("SIGKILL after the code run returned ⇒ the recovery never runs the code again, no duplicate assets", async () => {
  await using w = await world();
  await install(w);
  await say(w, "compute it");
  // The dying wake: the code run answers at once (code only, no text); the source is stored,
  // then the container listing is held until the kill.
  w.model.reply("responses", {
    json: responsesReply({ code: [{ code: "print(6*7)", container: "cntr_k" }] }),
  });
  w.model.reply("container_files", { json: containerFiles("cntr_k", []), delayMs: 30_000 });
  const dying = spawnWake(w, [], RESPONSES);
  await waitFor(
    "the container listing to reach the mock",
    () => w.model.hits("container_files") === 1,
    20_000,
    dying.stderr,
  );
  assert.equal(w.model.hits("responses"), 1);
  await dying.kill();

  w.model.always("responses", { json: responsesReply({ text: "should not be asked" }) });
  const recovery = await w.wake([], RESPONSES);
  assert.equal(recovery.code, 0, recovery.stderr);
  assert.equal(w.model.hits("responses"), 1, "the code run was issued again");
  assert.match(recovery.stderr, /INFO recovered /);
  const sources = (await agentAssets(w)).filter((a) =>
    a.content.file?.filename === "code-execution-1.py"
  );
  assert.equal(sources.length, 1, "the source asset was duplicated");
  const idle = await w.wake([], RESPONSES);
  assert.equal(idle.code, 0, idle.stderr);
  assert.equal(w.model.hits("responses"), 1);
});

Deno.test("xai: the request carries xAI's code built-in; nothing is bridged", async () => {
  await using w = await world();
  const xai = { ...RESPONSES, AI_PROVIDER: "xai" };
  await install(w, xai);
  await say(w, "what is 2**10");
  w.model.reply(
    "responses",
    {
      json: responsesReply({
        code: [{ code: "2**10", container: "" }],
        toolCalls: [{
          id: "call_say",
          name: "messages",
          arguments: { action: "create", body: "1024" },
        }],
      }),
    },
  );
  w.model.always("responses", { json: responsesReply({ text: "Answered." }) });
  const result = await w.wake([], xai);
  assert.equal(result.code, 0, result.stderr);
  const first = w.model.requestsTo("responses")[0].body as { tools: { type: string }[] };
  assert.deepEqual(first.tools.filter((t) => t.type !== "function"), [{
    type: "code_interpreter",
  }]);
  assert.ok(!first.tools.some((t) => (t as { name?: string }).name === "code_attach"));
  assert.equal(w.model.hits("container_files"), 0);
  assert.equal((await agentAssets(w)).length, 0);
  assert.deepEqual(await agentPosts(w), ["1024"]);
  assert.ok(!(await session(w)).some((m) => m.injected === true));
});

Deno.test("offline against the sandbox's demo model: /code runs once, its output and source become assets the reply names", async () => {
  await using w = await world();
  await install(w);
  const demo = {
    ...RESPONSES,
    AI_BASE_URL: `${w.sandbox.baseUrl}${MODEL_PATH}`,
    AI_MODEL: "sandbox-demo",
  };
  await say(w, "/code print(6 * 7)");
  const result = await w.wake([], demo);
  assert.equal(result.code, 0, result.stderr);
  const mine = await agentAssets(w);
  const names = mine.map((a) => a.content.file?.filename).sort();
  assert.deepEqual(names, ["code-execution-1.py", "output.txt"]);
  const output = mine.find((a) => a.content.file?.filename === "output.txt")!;
  const text = new TextDecoder().decode((await w.peer.client.assets.download(output)).bytes);
  assert.match(text, /does not execute code[\s\S]*print\(6 \* 7\)/);
  const posts = await agentPosts(w);
  assert.equal(posts.length, 1);
  assert.ok(posts[0].includes(`output.txt (${output.content.uuid})`), posts[0]);

  const again = await w.wake([], demo); // the router wakes it for its own asset: --timeline only
  assert.equal(again.code, 0, again.stderr);
  assert.equal((await agentAssets(w)).length, 2);
  assert.equal((await agentPosts(w)).length, 1);
});

Deno.test("a build that ran code is never rebuilt when a message arrives during it", async () => {
  // Not one-on-one: no nudge on a silent build. The late arrival lands mid-turn, possibly inside
  // the start second: with the catch-up on it would be answered by this wake
  // (tests/e2e/wake_catch_up.test.ts); here the pacing rule alone.
  await using w = await world({ third: true, env: { HARNESS_CATCH_UP: "off" } });
  await install(w);
  await say(w, "compute something");
  w.model.reply(
    "responses",
    async () => {
      await say(w, "and another thing"); // lands while the code-running build is in flight
      return {
        json: responsesReply({
          code: [{ code: "print(2)", container: "cntr_r" }],
          text: "Ran it.",
        }),
      };
    },
    { json: responsesReply({ text: "Done." }) },
  );
  w.model.always("container_files", { json: containerFiles("cntr_r", []) });
  w.model.always("responses", { json: responsesReply({ text: "Later turn." }) });
  const run = await w.wake([], RESPONSES);
  assert.equal(run.code, 0, run.stderr);
  // Build 1 ran code (step 1) and reacted to the bridge's note (step 2); nothing was rebuilt.
  assert.equal(w.model.hits("responses"), 2, "the build that ran code was rebuilt");
  assert.ok(!w.model.requestsTo("responses").map(inputText).some((t) => t.includes("another")));
  const sources = (await agentAssets(w)).filter((a) =>
    a.content.file?.filename?.startsWith("code-execution-")
  );
  assert.equal(sources.length, 1);
  assert.equal(run.stderr.match(/code_bridge stored kind=source/g)?.length, 1);
});
