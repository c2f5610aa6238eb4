/**
 * examples/kit/ is a project of its own that depends on the harness the way another Deno project
 * would (docs/library.md#use-the-kit-from-another-project): its deno.json links this checkout
 * and names the kit by its package name, its code imports only through the export map, and it
 * runs one Harness turn against a wire-level model mock through the real openai SDK.
 */
import assert from "node:assert/strict";
import { chatCompletion, ModelMock } from "../support/model_mock.ts";
import { DENO_DIR } from "../support/run_cli.ts";
import { ROOT } from "./run_deno.ts";

const KIT = `${ROOT}examples/kit/`;

/** `deno <args>` inside examples/kit, the way its own developer runs it. */
async function inKit(args: string[], env: Record<string, string> = {}) {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: KIT,
    env: { NO_COLOR: "1", DENO_DIR, ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: text(output.stdout), stderr: text(output.stderr) };
}

// Once per file: the kit's lock file records the npm packages the harness loads lazily.
const installed = inKit(["install"]);

Deno.test("the kit example imports only through the export map, and every entry it uses exists", async () => {
  const source = await Deno.readTextFile(`${KIT}main.ts`);
  const specifiers = [...source.matchAll(/from "([^"]+)"/g)].map((m) => m[1]);
  assert.ok(specifiers.length >= 3);
  for (const specifier of specifiers) assert.match(specifier, /^@basecradle\/harness(\/|$)/);
  const exported = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).exports;
  for (const specifier of specifiers) {
    const entry = `.${specifier.slice("@basecradle/harness".length)}`;
    assert.ok(entry in exported, `${entry} is not in deno.json exports`);
  }
  const install = await installed;
  assert.equal(install.code, 0, install.stderr);
  // The root config excludes the kit (it is a project of its own), so its own checks run here.
  for (const args of [["check", "main.ts"], ["fmt", "--check"], ["lint"]]) {
    const result = await inKit(args);
    assert.equal(result.code, 0, `deno ${args.join(" ")}: ${result.stdout}${result.stderr}`);
  }
});

Deno.test("the kit example runs one turn: the model calls its own tool, then answers", async () => {
  assert.equal((await installed).code, 0);
  await using mock = await ModelMock.start();
  mock.always("model", { json: { id: "mock-model", context_length: 32768 } });
  mock.reply(
    "chat",
    {
      json: chatCompletion({
        toolCalls: [{ id: "call_up", name: "uppercase", arguments: { text: "hello kit" } }],
      }),
    },
    { json: chatCompletion({ content: "It says HELLO KIT." }) },
  );
  const home = await Deno.makeTempDir({ prefix: "kit-home-" });
  try {
    const run = await inKit(
      ["run", "--allow-net=127.0.0.1", "--allow-env", "--allow-read", "--allow-write", "main.ts"],
      {
        AI_API_KEY: "sk-test",
        AI_MODEL: "mock-model",
        AI_BASE_URL: mock.baseURL,
        AI_SDK_SURFACE: "chat",
        HARNESS_HOME: home,
      },
    );
    assert.equal(run.code, 0, run.stderr);
    const [answer, ...journal] = run.stdout.trimEnd().split("\n");
    assert.equal(answer, "It says HELLO KIT.");
    assert.ok(journal.some((line) => /^INFO llm provider=openai model=mock-model /.test(line)));
    assert.ok(
      journal.some((line) => /^INFO tool name=uppercase duration=\S+ outcome=ok$/.test(line)),
    );
    // The second request carried the tool's real result: the kit's own Tool ran.
    const chats = mock.requestsTo("chat");
    assert.equal(chats.length, 2);
    const messages =
      (chats[1].body as { messages: { role: string; content?: unknown }[] }).messages;
    assert.deepEqual(messages.filter((m) => m.role === "tool").map((m) => m.content), [
      "HELLO KIT",
    ]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a kit project that skipped `deno install` stops before any model call, naming the fix", async () => {
  // A fresh copy of the example: its own deno.json links this checkout, and it has no lock yet.
  const project = await Deno.makeTempDir({ prefix: "kit-uninstalled-" });
  await using mock = await ModelMock.start();
  mock.always("chat", { json: chatCompletion({ content: "It says HELLO KIT." }) });
  try {
    const config = JSON.parse(await Deno.readTextFile(`${KIT}deno.json`));
    config.links = [ROOT];
    await Deno.writeTextFile(`${project}/deno.json`, JSON.stringify(config));
    await Deno.copyFile(`${KIT}main.ts`, `${project}/main.ts`);
    const run = (args: string[], env: Record<string, string> = {}) =>
      new Deno.Command(Deno.execPath(), {
        args,
        cwd: project,
        env: { NO_COLOR: "1", DENO_DIR, ...env },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
    const turn = () =>
      run([
        "run",
        "--allow-net=127.0.0.1",
        "--allow-env",
        "--allow-read",
        "--allow-write",
        "main.ts",
      ], {
        AI_API_KEY: "sk-test",
        AI_MODEL: "mock-model",
        AI_BASE_URL: mock.baseURL,
        AI_SDK_SURFACE: "chat",
        HARNESS_HOME: project,
      });
    const skipped = await turn();
    const stderr = new TextDecoder().decode(skipped.stderr);
    assert.equal(skipped.code, 1, stderr);
    assert.match(
      stderr,
      /PackagesNotInstalledError: The harness kit's npm package\(s\) [^\n]*openai/,
    );
    assert.match(stderr, /Run `deno install` in the project's directory/);
    assert.doesNotMatch(stderr, /ERR_MODULE_NOT_FOUND/);
    assert.equal(mock.requestsTo("chat").length, 0, "it stopped before the first model call");

    const install = await run(["install"]);
    assert.equal(install.code, 0, new TextDecoder().decode(install.stderr));
    const installed = await turn();
    assert.equal(installed.code, 0, new TextDecoder().decode(installed.stderr));
    assert.match(new TextDecoder().decode(installed.stdout), /^It says HELLO KIT\.\n/);
  } finally {
    await Deno.remove(project, { recursive: true });
  }
});
