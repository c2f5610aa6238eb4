/**
 * The code bridge and code_attach: the real openai SDK against the wire mock's Responses and
 * containers routes, the real sandbox platform for the assets they read and create.
 */
import { strict as assert } from "node:assert";
import { Compactor } from "../../lib/core/compaction/compaction.ts";
import { ContextCeiling } from "../../lib/core/compaction/context_ceiling.ts";
import { withOverflowHeal } from "../../lib/core/compaction/heal.ts";
import { Engine } from "../../lib/core/engine.ts";
import { ProviderContextLengthError } from "../../lib/core/types/faults.ts";
import { ToolRegistry } from "../../lib/core/registry.ts";
import { Message } from "../../lib/core/types/message.ts";
import { uuid5 } from "../../lib/platform/idempotency.ts";
import { OpenAIProvider } from "../../lib/providers/openai.ts";
import { CODE_ONLY_REPLY } from "../../lib/providers/openai_responses.ts";
import {
  ARTIFACTS_LEAD,
  CELL_SEPARATOR,
  CodeAttachTool,
  codeBridgeHook,
  CodeContainer,
} from "../../lib/tools/code/mod.ts";
import { containerFiles, ModelMock, openaiError, responsesReply } from "../support/model_mock.ts";
import { conversation, SplitProvider } from "../core/compaction_fixtures.ts";
import { since, withRoom } from "./timelines_fixture.ts";
import { asUser } from "../support/cleared.ts";

const KEY = "0190f0a4-0000-7000-8000-00000000c0de";
const keyed = { idempotencyKey: (kind: string) => kind === "asset" ? KEY : undefined };
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);
const CSV = new TextEncoder().encode("x,y\n1,2\n");

function container(mock: ModelMock): CodeContainer {
  return new CodeContainer({ apiKey: "sk-code", baseURL: mock.baseURL });
}

/** An engine over the mock with the bridge hook, the way a wake builds it. */
function engine(
  mock: ModelMock,
  code: CodeContainer,
  context: Parameters<typeof codeBridgeHook>[1],
) {
  const provider = new OpenAIProvider({
    model: "gpt-test",
    apiKey: "sk-code",
    baseURL: mock.baseURL,
    builtins: ["code_execution"],
    codeContainer: () => code.container,
  });
  const registry = new ToolRegistry();
  registry.register(new CodeAttachTool(code, context));
  return new Engine(provider, registry, { hooks: [codeBridgeHook(code, context)] });
}

Deno.test("a code run's files and source become assets and the model is handed their uuids", async () => {
  await using mock = await ModelMock.start();
  mock.reply(
    "responses",
    {
      json: responsesReply({
        code: [{ code: "print(1)", container: "cntr_1" }, { code: "plot()", container: "cntr_1" }],
        text: "Here is the plot.",
        citedFiles: [{ fileId: "cfile_plot", filename: "plot.png", container: "cntr_1" }],
      }),
    },
    { json: responsesReply({ text: "Posted." }) },
  );
  mock.reply(
    "container_files",
    {
      json: containerFiles("cntr_1", [
        { id: "cfile_plot", path: "/mnt/data/plot.png", bytes: PNG.length, source: "assistant" },
        { id: "cfile_data", path: "/mnt/data/data.csv", bytes: CSV.length, source: "assistant" },
        { id: "cfile_in", path: "/mnt/data/input.txt", bytes: 3, source: "user" },
      ]),
    },
  );
  mock.reply("container_file_content", { bytes: PNG, contentType: "application/octet-stream" });
  mock.always("container_file_content", (req) => ({
    text: req.path.includes("cfile_data") ? new TextDecoder().decode(CSV) : "",
    contentType: "text/csv",
  }));
  await withRoom(async ({ c, context, journal, agent }) => {
    const code = container(mock);
    const mark = c.sandbox.requests.length;
    const messages = [Message.user("plot it")];
    const result = await engine(mock, code, context).run(messages);
    assert.equal(result.text, "Posted.");
    assert.equal(result.steps, 2, "the turn was extended by one step");
    // The first request rode with auto; the second names the container the run reported.
    const bodies = mock.requestsTo("responses").map((r) => r.body as Record<string, unknown>);
    assert.deepEqual((bodies[0].tools as unknown[])[0], {
      type: "code_interpreter",
      container: { type: "auto" },
    });
    assert.deepEqual((bodies[1].tools as unknown[])[0], {
      type: "code_interpreter",
      container: "cntr_1",
    });
    const note = messages.find((m) => m.role === "user" && m.injected);
    assert.ok(note?.content?.startsWith(ARTIFACTS_LEAD), note?.content ?? "no note");
    const uuids = [...(note?.content ?? "").matchAll(/\(([0-9a-f-]{36})\)/g)].map((m) => m[1]);
    assert.equal(uuids.length, 3, note?.content ?? "");
    const assets = await Promise.all(uuids.map((u) => agent.client.assets.get(u)));
    const names = assets.map((a) => a.content.file?.filename);
    assert.deepEqual(names, ["code-execution-1.py", "plot.png", "data.csv"]);
    const source = await agent.client.assets.download(assets[0]);
    assert.equal(new TextDecoder().decode(source.bytes), `print(1)${CELL_SEPARATOR}plot()`);
    assert.deepEqual((await agent.client.assets.download(assets[1])).bytes, PNG);
    assert.equal(assets[1].content.file?.content_type, "image/png");
    assert.deepEqual((await agent.client.assets.download(assets[2])).bytes, CSV);
    // The uploads are keyed creates, each named within the turn.
    const keys = since(c, mark).filter((r) => r.method === "POST").map((r) => r.idempotencyKey);
    assert.equal(new Set(keys).size, 3);
    assert.ok(keys.includes(await uuid5(KEY, "code-file:cntr_1/cfile_plot")));
    assert.equal(journal.lines.filter((l) => l.includes("code_bridge stored")).length, 3);
    assert.match(
      journal.lines.find((l) => l.includes("name=plot.png")) ?? "",
      new RegExp(
        `code_bridge stored kind=file name=plot\\.png asset=${uuids[1]} bytes=${PNG.length}`,
      ),
    );
  }, keyed);
});

Deno.test("the same source and files are not stored twice in a wake", async () => {
  await using mock = await ModelMock.start();
  const run = { code: [{ code: "print(1)", container: "cntr_1" }], text: "Done." };
  mock.reply("responses", { json: responsesReply(run) }, { json: responsesReply({ text: "ok" }) });
  mock.reply("responses", { json: responsesReply(run) });
  mock.always("container_files", {
    json: containerFiles("cntr_1", [
      { id: "cfile_a", path: "/mnt/data/a.txt", bytes: 2, source: "assistant" },
    ]),
  });
  mock.always("container_file_content", { text: "hi", contentType: "text/plain" });
  await withRoom(async ({ context, journal }) => {
    const code = container(mock);
    const e = engine(mock, code, context);
    await e.run([Message.user("one")]);
    const again = await e.run([Message.user("two")]);
    assert.equal(again.steps, 1, "nothing new was stored, so the turn was not extended");
    assert.equal(journal.lines.filter((l) => l.includes("code_bridge stored")).length, 2);
    assert.equal(mock.hits("container_file_content"), 1);
  }, keyed);
});

Deno.test("a context overflow after a code run is not retried: the paid run is never made again", async () => {
  await using mock = await ModelMock.start();
  mock.reply(
    "responses",
    { json: responsesReply({ code: [{ code: "print(1)", container: "cntr_1" }], text: "Ran." }) },
    {
      status: 400,
      json: openaiError("This model's maximum context length is 8000 tokens", {
        code: "context_length_exceeded",
      }),
    },
  );
  // Whatever comes after would be the retry: the code run again.
  mock.always("responses", {
    json: responsesReply({ code: [{ code: "print(1)", container: "cntr_1" }], text: "Again." }),
  });
  mock.always("container_files", { json: containerFiles("cntr_1", []) });
  await withRoom(async ({ context, journal }) => {
    const code = container(mock);
    // A transcript long enough for the emergency compaction to cut, then the turn.
    const messages = conversation(10);
    const turn = Message.user("[t11] ann: run it");
    messages.push(turn);
    const summarizer = new SplitProvider([], ["NOTES"]);
    const budget = new ContextCeiling(summarizer, { override: 8000, maxSteps: 1, journal });
    const compactor = new Compactor(summarizer, budget, { journal });
    const e = engine(mock, code, context);
    await assert.rejects(
      withOverflowHeal(() => e.run(messages), { compactor, messages, turn, journal }),
      ProviderContextLengthError,
    );
    // The run's artifact note was the evidence: the model was asked twice, never a third time.
    assert.equal(mock.hits("responses"), 2);
    const note = messages.find((m) => m.role === "user" && m.injected);
    assert.ok(note?.content?.startsWith(ARTIFACTS_LEAD), note?.content ?? "no note");
    assert.ok(messages.some((m) => m.codeRun), "the run stays on record");
    assert.match(
      journal.lines.find((l) => l.includes("had already run")) ?? journal.lines.join("\n"),
      /^WARNING Context overflow after 1 tool call\(s\) had already run: the turn is NOT retried/,
    );
    assert.equal(journal.lines.filter((l) => l.includes("code_bridge stored")).length, 1);
  }, keyed);
});

Deno.test("a reply that only ran code is recorded with text, so a recovery never re-drives it", async () => {
  await using mock = await ModelMock.start();
  mock.reply("responses", { json: responsesReply({ code: [{ code: "1+1", container: "c" }] }) });
  const p = new OpenAIProvider({ model: "m", apiKey: "k", baseURL: mock.baseURL });
  const reply = await p.chat([Message.user("x")]);
  assert.equal(reply.content, CODE_ONLY_REPLY);
  assert.deepEqual(reply.codeRun, { container: "c", cells: ["1+1"], cited: [] });
});

Deno.test("listing fails ⇒ the cited files are bridged, a WARNING, no crash", async () => {
  await using mock = await ModelMock.start();
  mock.reply(
    "responses",
    {
      json: responsesReply({
        code: [{ code: "", container: "cntr_1" }],
        text: "See chart.",
        citedFiles: [{ fileId: "cfile_c", filename: "chart.png", container: "cntr_1" }],
      }),
    },
    { json: responsesReply({ text: "ok" }) },
  );
  mock.reply("container_files", { status: 500, json: openaiError("listing broke") });
  mock.reply("container_file_content", { bytes: PNG, contentType: "image/png" });
  await withRoom(async ({ context, journal }) => {
    const messages = [Message.user("chart")];
    await engine(mock, container(mock), context).run(messages);
    assert.ok(journal.lines.some((l) => /WARNING.*code_bridge failed stage=list/.test(l)));
    const note = messages.find((m) => m.injected)?.content ?? "";
    assert.match(note, /chart\.png \([0-9a-f-]{36}\)/);
  });
});

Deno.test("download fails or the upload is refused ⇒ a note to the model and a WARNING each", async () => {
  await using mock = await ModelMock.start();
  mock.reply(
    "responses",
    { json: responsesReply({ code: [{ code: "go()", container: "cntr_1" }], text: "Made two." }) },
    { json: responsesReply({ text: "ok" }) },
  );
  mock.reply("container_files", {
    json: containerFiles("cntr_1", [
      { id: "cfile_bad", path: "/mnt/data/bad.bin", bytes: 4, source: "assistant" },
      { id: "cfile_ok", path: "/mnt/data/ok.txt", bytes: 2, source: "assistant" },
    ]),
  });
  mock.always(
    "container_file_content",
    (req) =>
      req.path.includes("cfile_bad")
        ? { status: 404, json: openaiError("No such file") }
        : { text: "ok", contentType: "text/plain" },
  );
  await withRoom(async ({ c, context, journal, timeline }) => {
    // Every asset upload on the room is refused: the source and ok.txt.
    c.sandbox.addFault({
      path: `^/timelines/${timeline}/assets$`,
      method: "POST",
      status: 422,
      count: 5,
    });
    const messages = [Message.user("make")];
    const result = await engine(mock, container(mock), context).run(messages);
    assert.equal(result.text, "ok");
    const note = messages.find((m) => m.injected)?.content ?? "";
    assert.match(note, /bad\.bin could not be downloaded from the code sandbox: .*No such file/);
    assert.match(note, /ok\.txt could not be stored as an asset/);
    assert.match(note, /code-execution-1\.py could not be stored as an asset/);
    assert.ok(journal.lines.some((l) => /code_bridge failed stage=download name=bad\.bin/.test(l)));
    assert.ok(journal.lines.some((l) => /code_bridge failed stage=upload name=ok\.txt/.test(l)));
    assert.ok(!journal.lines.some((l) => l.includes("code_bridge stored")));
  });
});

Deno.test("code_attach: creates a container when the wake has none and uploads the asset's bytes", async () => {
  await using mock = await ModelMock.start();
  mock.reply("containers", { json: { id: "cntr_new", object: "container", name: "x" } });
  mock.reply("container_file_create", {
    json: {
      id: "cfile_up",
      object: "container.file",
      container_id: "cntr_new",
      created_at: 1,
      bytes: CSV.length,
      path: "/mnt/data/table.csv",
      source: "user",
    },
  });
  await withRoom(async ({ context, journal, agent, timeline }) => {
    const { asset } = await agent.client.assets.create(
      timeline,
      asUser("asset", {
        file: CSV,
        filename: "table.csv",
        contentType: "text/csv",
      }),
    ).then((a) => ({ asset: a }));
    const code = container(mock);
    const tool = new CodeAttachTool(code, context);
    const out = await tool.run({ asset_uuid: asset.content.uuid }, { callId: "c1" });
    assert.match(String(out), /^Attached asset .* as \/mnt\/data\/table\.csv \(8 bytes\)/);
    assert.equal(code.container, "cntr_new", "the next request names the new container");
    assert.equal((mock.lastBody("containers") as { name?: string }).name, "basecradle-harness");
    const upload = mock.requestsTo("container_file_create")[0];
    assert.equal(upload.path, "/v1/containers/cntr_new/files");
    const file = upload.form?.file?.[0];
    assert.ok(file && typeof file !== "string");
    assert.equal(file.filename, "table.csv");
    assert.deepEqual(file.bytes, CSV);
    assert.ok(
      journal.lines.some((l) => l.includes("code_attach staged") && l.includes("cntr_new")),
    );
  });
});

Deno.test("code_attach: unknown asset, no file, no code execution — readable errors", async () => {
  await using mock = await ModelMock.start();
  await withRoom(async ({ context }) => {
    const tool = new CodeAttachTool(container(mock), context);
    const unknown = await tool.run({ asset_uuid: "0190f0a4-0000-7000-8000-000000000000" });
    assert.match(String(unknown), /^Error: no asset .* is visible to you/);
    const off = new CodeAttachTool(undefined, context);
    assert.match(String(await off.run({ asset_uuid: "x" })), /code execution is not active/);
    assert.match(String(await tool.run({})), /asset_uuid/);
    assert.equal(mock.hits(), 0, "nothing reached the vendor");
  });
});

Deno.test("xai: the request carries xAI's code_interpreter (no container), searches stay search_parameters", async () => {
  await using mock = await ModelMock.start();
  mock.reply("responses", {
    json: responsesReply({ code: [{ code: "2**10", container: "" }], text: "1024" }),
  });
  const p = new OpenAIProvider({
    model: "grok-test",
    apiKey: "xai-k",
    baseURL: mock.baseURL,
    providerLabel: "xai",
    builtins: ["code_execution", "web_search"],
    codeContainer: () => "cntr_never",
  });
  assert.deepEqual(p.builtins, ["code_execution", "web_search"]);
  const reply = await p.chat([Message.user("2^10?")]);
  assert.equal(reply.content, "1024");
  const body = mock.lastBody("responses");
  assert.deepEqual(body.tools, [{ type: "code_interpreter" }]);
  assert.deepEqual(body.search_parameters, {
    mode: "on",
    sources: [{ type: "web" }],
    return_citations: true,
  });
  assert.equal(mock.hits("container_files"), 0, "no bridge on xAI");
  const chat = new OpenAIProvider({
    model: "grok-test",
    apiKey: "xai-k",
    baseURL: mock.baseURL,
    providerLabel: "xai",
    surface: "chat",
    builtins: ["code_execution"],
  });
  assert.deepEqual(chat.builtins, [], "xAI's chat surface has no code tool");
});

Deno.test("a listed file over the size limit is not downloaded; the model is told", async () => {
  await using mock = await ModelMock.start();
  mock.reply(
    "responses",
    { json: responsesReply({ code: [{ code: "big()", container: "cntr_1" }], text: "Big." }) },
    { json: responsesReply({ text: "ok" }) },
  );
  mock.reply("container_files", {
    json: containerFiles("cntr_1", [
      { id: "cfile_big", path: "/mnt/data/big.bin", bytes: 65 * 1024 * 1024, source: "assistant" },
    ]),
  });
  await withRoom(async ({ context }) => {
    const messages = [Message.user("big")];
    await engine(mock, container(mock), context).run(messages);
    assert.match(
      messages.find((m) => m.injected)?.content ?? "",
      /big\.bin was not stored: .*limit/,
    );
    assert.equal(mock.hits("container_file_content"), 0);
  });
});

Deno.test("code_attach: an expired container is replaced once and the file lands in the new one", async () => {
  await using mock = await ModelMock.start();
  mock.reply(
    "container_file_create",
    { status: 404, json: openaiError("Container not found") },
    {
      json: {
        id: "cfile_2",
        object: "container.file",
        container_id: "cntr_fresh",
        created_at: 1,
        bytes: 3,
        path: "/mnt/data/a.txt",
        source: "user",
      },
    },
  );
  mock.reply("containers", { json: { id: "cntr_fresh", object: "container", name: "x" } });
  await withRoom(async ({ context, agent, timeline }) => {
    const asset = await agent.client.assets.create(
      timeline,
      asUser("asset", {
        file: new TextEncoder().encode("abc"),
        filename: "a.txt",
        contentType: "text/plain",
      }),
    );
    const code = container(mock);
    code.adopt("cntr_old");
    const out = await new CodeAttachTool(code, context).run({ asset_uuid: asset.content.uuid });
    assert.match(String(out), /^Attached asset .* as \/mnt\/data\/a\.txt/);
    assert.deepEqual(
      mock.requestsTo("container_file_create").map((r) => r.path),
      ["/v1/containers/cntr_old/files", "/v1/containers/cntr_fresh/files"],
    );
    assert.equal(code.container, "cntr_fresh");
  });
});

const MIB = 1024 * 1024;

/** A `total`-byte body made a MiB at a time as the reader asks; `pulled()` is what it made. */
function lazyBody(total: number) {
  let made = 0;
  const stream = new ReadableStream<Uint8Array<ArrayBuffer>>({
    pull(controller) {
      if (made >= total) return controller.close();
      const n = Math.min(MIB, total - made);
      made += n;
      controller.enqueue(new Uint8Array(n).fill(0x41));
    },
  });
  return { stream, pulled: () => made };
}

Deno.test("a file larger than its listing says is cut off at the cap, never read whole", async () => {
  await using mock = await ModelMock.start();
  mock.reply(
    "responses",
    { json: responsesReply({ code: [{ code: "lie()", container: "cntr_1" }], text: "Done." }) },
    { json: responsesReply({ text: "ok" }) },
  );
  // The listing says 1 KB; the body is 100 MB.
  mock.reply("container_files", {
    json: containerFiles("cntr_1", [
      { id: "cfile_lie", path: "/mnt/data/lie.bin", bytes: 1024, source: "assistant" },
    ]),
  });
  const body = lazyBody(100 * 1000 * 1000);
  mock.reply("container_file_content", { stream: body.stream, contentType: "text/plain" });
  await withRoom(async ({ context, journal }) => {
    const messages = [Message.user("lie")];
    const code = container(mock);
    await engine(mock, code, context).run(messages);
    assert.match(
      messages.find((m) => m.injected)?.content ?? "",
      /lie\.bin was not stored: it is over the 67108864-byte limit; the download was stopped there\./,
    );
    // The read stopped at the cap: what the server made is the cap and what sat in buffers.
    assert.ok(body.pulled() < 100 * 1000 * 1000, `read ${body.pulled()} bytes`);
    assert.ok(body.pulled() <= 64 * MIB + 16 * MIB, `read ${body.pulled()} bytes`);
    assert.ok(code.bridgedFiles.has("cfile_lie"), "not fetched again by a later harvest");
    assert.ok(
      journal.lines.some((l) => l.includes("code_bridge failed") && l.includes("lie.bin")),
      journal.lines.join("\n"),
    );
  });
});

Deno.test("a file whose stated length is over the cap is refused before a byte is read", async () => {
  await using mock = await ModelMock.start();
  mock.reply(
    "responses",
    { json: responsesReply({ code: [{ code: "big()", container: "cntr_1" }], text: "Done." }) },
    { json: responsesReply({ text: "ok" }) },
  );
  mock.reply("container_files", {
    json: containerFiles("cntr_1", [
      { id: "cfile_big", path: "/mnt/data/big.bin", bytes: 10, source: "assistant" },
    ]),
  });
  mock.reply("container_file_content", { bytes: new Uint8Array(64 * MIB + 1) });
  await withRoom(async ({ context }) => {
    const messages = [Message.user("big")];
    await engine(mock, container(mock), context).run(messages);
    assert.match(
      messages.find((m) => m.injected)?.content ?? "",
      /big\.bin was not stored: it states 67108865 bytes, over the 67108864-byte limit; it was not read\./,
    );
  });
});
