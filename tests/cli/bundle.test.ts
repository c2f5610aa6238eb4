/**
 * The bundle the binary is compiled from (deploy/bundle.ts), built once for this file into a
 * temporary directory and run from outside the repository, the way the compiled binary runs: every
 * lazily imported module is present at its path, the directory carries its own permission set and
 * points nowhere into the source tree, and the CLI's real paths work from it — every command's
 * help, a wake that answers and an idle wake after it, an approved MCP server, the demo, and the
 * playground's embedded page.
 */
import assert from "node:assert/strict";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { LAZY_MODULES } from "../../lib/base/lazy_modules.ts";
import { chatCompletion } from "../support/model_mock.ts";
import { DENO_DIR, REPO_ROOT, runCli } from "../support/run_cli.ts";
import { writeServer } from "../mcp/support.ts";
import { startPlayground } from "../playground/support.ts";
import { agentPosts, chatMessages, say, scriptReply, world } from "../e2e/wake_support.ts";
import { attrs, otlpReceiver } from "../support/otlp_receiver.ts";
import { permissionFlags } from "../../deploy/permissions.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };
const MINI = new URL("../mcp/fixtures/mini_server.mjs", import.meta.url).pathname;

/** Runs `deploy/bundle.ts --outdir <outdir>` from the sources at `root` (default: this repo). */
async function runBundler(
  outdir: string,
  root = REPO_ROOT,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${root.replace(/\/$/, "")}/deploy/bundle.ts`, "--outdir", outdir],
    cwd: root,
    env: { DENO_DIR },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: text(output.stdout), stderr: text(output.stderr) };
}

/** One bundle per test file: building takes about two seconds. */
let built: Promise<{ dir: string; stdout: string }> | undefined;
function bundle(): Promise<{ dir: string; stdout: string }> {
  built ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "harness-bundle-" });
    const { code, stdout, stderr } = await runBundler(dir);
    assert.equal(code, 0, stdout + stderr);
    globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
    return { dir, stdout };
  })();
  return built;
}

/** A working directory outside the repository, so nothing resolves against the sources. */
async function elsewhere(): Promise<{ readonly path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix: "harness-bundle-cwd-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

async function* jsFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* jsFiles(path);
    else if (entry.name.endsWith(".js")) yield path;
  }
}

Deno.test("the bundle holds an entry per lazy module, the harness permissions and no source path", async () => {
  const { dir, stdout } = await bundle();
  assert.match(stdout, /^bundle: wrote .* \(\d+ files, [\d.]+ MB\)$/m);
  for (const module of ["main.ts", ...LAZY_MODULES]) {
    const stat = await Deno.stat(`${dir}/${module.replace(/\.ts$/, ".js")}`);
    assert.ok(stat.isFile, module);
  }
  const own = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}deno.json`));
  const carried = JSON.parse(await Deno.readTextFile(`${dir}/deno.json`));
  assert.deepEqual(carried, { permissions: { harness: own.permissions.harness } });
  let files = 0;
  for await (const file of jsFiles(dir)) {
    files++;
    const text = await Deno.readTextFile(file);
    assert.ok(!text.includes(REPO_ROOT), `${file} names the source tree`);
    // Only Deno's node: built-ins and the bundle's own chunks are imported.
    // (A quoted "import" or "from" — a journal field's value — is a string, not an import.)
    const bare = [...text.matchAll(/(?<![\w"'.])(?:from|import)\s*\(?\s*"([^"]+)"/g)]
      .map((m) => m[1])
      .filter((s) => !s.startsWith("node:") && !s.startsWith("./") && !s.startsWith("../"));
    assert.deepEqual(bare, [], `${file} imports outside the bundle`);
  }
  assert.ok(files > LAZY_MODULES.length, `only ${files} .js files`);
});

Deno.test({
  name: "every command's help and `version` run from the bundle",
  ...loose,
  async fn() {
    const { dir } = await bundle();
    await using away = await elsewhere();
    const cwd = away.path;
    for (const entry of COMMANDS) {
      const result = await runCli([entry.name, "--help"], { bundle: dir, cwd });
      assert.equal(result.code, 0, `${entry.name}: ${result.stderr}`);
      assert.match(result.stdout, new RegExp(`harness ${entry.name}\\b`), entry.name);
    }
    const version = await runCli(["version"], { bundle: dir, cwd });
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^harness \d+\.\d+\.\d+ · openai SDK \d+\.\d+\.\d+\n$/);
  },
});

Deno.test({
  name: "a wake from the bundle answers once; the next wake finds nothing and calls no model",
  ...loose,
  async fn() {
    const { dir } = await bundle();
    await using w = await world();
    await say(w, "@ada what is new?");
    scriptReply(w.model, "Nothing much, and you?");
    await using away = await elsewhere();
    const cwd = away.path;
    const wake = () =>
      runCli(["wake", "--timeline", w.timeline], {
        bundle: dir,
        cwd,
        env: w.env,
        // Reports any read of the lazy `process` and `Buffer` globals, which boot the Node layer.
        denoFlags: ["--preload", `${REPO_ROOT}tests/support/node_globals_trap.js`],
      });
    const first = await wake();
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /wake end .*outcome=ok turns=1 .*posted=1/);
    // Neither our code nor the model SDK as we load it boots the Node layer.
    assert.doesNotMatch(first.stderr, /node global touched/);
    assert.deepEqual(await agentPosts(w), ["Nothing much, and you?"]);
    const calls = w.model.requestsTo("chat").length;
    const idle = await wake();
    assert.equal(idle.code, 0, idle.stderr);
    assert.match(idle.stderr, /wake end .*outcome=ok turns=0 steps=0\/\d+ posted=0/);
    assert.doesNotMatch(idle.stderr, /node global touched/);
    assert.equal(w.model.requestsTo("chat").length, calls);
    assert.deepEqual(await agentPosts(w), ["Nothing much, and you?"]);
  },
});

Deno.test({
  name: "an MCP server approved and called from the bundle (the SDK runs bundled)",
  ...loose,
  async fn() {
    const { dir } = await bundle();
    await using w = await world();
    const configHome = `${w.home}/config`;
    await Deno.mkdir(`${configHome}/mcp`, { recursive: true });
    await writeServer(configHome, "mini", { command: "node", args: [MINI, "ok"] });
    await using away = await elsewhere();
    const cwd = away.path;
    const approve = await runCli(["mcp", "approve", "--all"], { bundle: dir, cwd, env: w.env });
    assert.equal(approve.code, 0, approve.stdout + approve.stderr);
    const resolved = await runCli(["resolved-config"], { bundle: dir, cwd, env: w.env });
    assert.equal(resolved.code, 0, resolved.stderr);
    assert.ok(JSON.parse(resolved.stdout).tools.includes("mini__boom"), resolved.stdout);

    await say(w, "@ada try the mini tool");
    w.model.reply(
      "chat",
      {
        json: chatCompletion({
          toolCalls: [{ id: "call_boom", name: "mini__boom", arguments: {} }],
        }),
      },
      {
        json: chatCompletion({
          toolCalls: [{
            id: "call_say",
            name: "messages",
            arguments: { action: "create", body: "It said ok." },
          }],
        }),
      },
      { json: chatCompletion({ content: "Done." }) },
    );
    const result = await runCli(["wake", "--timeline", w.timeline], {
      bundle: dir,
      cwd,
      env: w.env,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /MCP server 'mini' active: 1 tool\(s\) loaded/);
    const answered = chatMessages(w.model, 1).find((m) => m.tool_call_id === "call_boom");
    assert.equal(answered?.content, "ok");
    assert.deepEqual(await agentPosts(w), ["It said ok."]);
  },
});

Deno.test({
  name: "the demo runs from the bundle, its wake too",
  ...loose,
  async fn() {
    const { dir } = await bundle();
    const tmp = await Deno.makeTempDir({ prefix: "bundle-demo-" });
    try {
      const result = await runCli(["demo"], {
        bundle: dir,
        cwd: tmp,
        env: { AI_API_KEY: "", TMPDIR: tmp, HARNESS_HOME: "", BASECRADLE_TOKEN: "" },
      });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.match(result.stdout, /INFO wake end .*outcome=ok turns=1 .*posted=1/);
      assert.match(result.stdout, /\] vega: \(sandbox demo model\) @ada /);
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  },
});

Deno.test({
  name: "the playground serves its embedded page from the bundle",
  ...loose,
  async fn() {
    const { dir } = await bundle();
    await using away = await elsewhere();
    const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", TMPDIR: away.path };
    await using playground = await startPlayground([], env, { bundle: dir, cwd: away.path });
    assert.match(await (await fetch(playground.url)).text(), /<title>Harness studio<\/title>/);
    assert.match(await (await fetch(`${playground.url}js/main.js`)).text(), /new EventSource\(/);
    assert.match(await (await fetch(`${playground.url}views.css`)).text(), /\.ansi-34/);
    assert.equal(await playground.stop(), 0, playground.stderr());
  },
});

Deno.test({
  name: "a listed lazy module that does not exist fails the build, naming it; no bundle is left",
  async fn() {
    // A copy of the sources whose LAZY_MODULES names a module that does not exist.
    const copy = await Deno.makeTempDir({ prefix: "harness-bundle-src-" });
    try {
      const copied = await new Deno.Command("cp", {
        args: ["-r", "deno.json", "deno.lock", "main.ts", "lib", "defaults", "deploy", copy],
        cwd: REPO_ROOT,
      }).output();
      assert.ok(copied.success);
      const list = `${copy}/lib/base/lazy_modules.ts`;
      await Deno.writeTextFile(
        list,
        (await Deno.readTextFile(list)).replace(
          '"lib/mcp/client.ts",',
          '"lib/mcp/client.ts",\n  "lib/no_such_module.ts",',
        ),
      );
      const { code, stderr } = await runBundler(`${copy}/out`, copy);
      assert.equal(code, 1, stderr);
      assert.match(stderr, /no_such_module/);
      assert.match(
        stderr,
        /^bundle: lib\/base\/lazy_modules\.ts lists lib\/no_such_module\.ts, which does not exist; remove it from the list or restore the module\.$/m,
      );
      await assert.rejects(Deno.stat(`${copy}/out/main.js`), Deno.errors.NotFound);
    } finally {
      await Deno.remove(copy, { recursive: true });
    }
  },
});

Deno.test({
  name: "zod's English messages reach the operator from the bundle as from source",
  ...loose,
  async fn() {
    const { dir } = await bundle();
    await using w = await world();
    // A guardrails value zod itself rejects: its message is part of the operator's error line.
    await Deno.mkdir(`${w.home}/config`, { recursive: true });
    await Deno.writeTextFile(`${w.home}/config/guardrails.json`, '{"max_length": 0}');
    await using away = await elsewhere();
    const cwd = away.path;
    const fromSource = await runCli(["wake", "--timeline", w.timeline], { env: w.env });
    const fromBundle = await runCli(["wake", "--timeline", w.timeline], {
      bundle: dir,
      cwd,
      env: w.env,
    });
    assert.equal(fromBundle.code, 1, fromBundle.stderr);
    const line = (r: { stderr: string }) =>
      r.stderr.split("\n").find((l) => l.startsWith("ERROR harness wake:"));
    assert.match(line(fromSource) ?? "", /Too small: expected number to be >=1/);
    assert.equal(line(fromBundle), line(fromSource));
  },
});

Deno.test("bundle refuses to replace a directory that is not a bundle, and leaves it as it was", async () => {
  const dir = await Deno.makeTempDir({ prefix: "harness-not-a-bundle-" });
  try {
    await Deno.writeTextFile(`${dir}/notes.txt`, "keep me");
    const { code, stderr } = await runBundler(dir);
    assert.equal(code, 1, stderr);
    assert.match(
      stderr,
      /^bundle: refusing to replace .+: it is not empty and does not hold a bundle; choose a new or empty --outdir\.$/m,
    );
    assert.equal(await Deno.readTextFile(`${dir}/notes.txt`), "keep me");
    const sources = await runBundler(REPO_ROOT);
    assert.equal(sources.code, 1);
    assert.match(sources.stderr, /it holds the sources/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Runs the bundle's own `harness` launcher (through a symlink, as /usr/local/bin would hold it). */
async function viaLauncher(
  dir: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const link = `${cwd}/harness-link`;
  await Deno.symlink(`${dir}/harness`, link).catch(() => {});
  // A router runs the command through sh, with the agent's environment and nothing else.
  const output = await new Deno.Command("/bin/sh", {
    args: ["-c", `${link} "$@"`, "sh", ...args],
    cwd,
    clearEnv: true,
    env: { PATH: `${Deno.execPath().replace(/\/[^/]+$/, "")}:/usr/bin:/bin`, DENO_DIR, ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: text(output.stdout), stderr: text(output.stderr) };
}

Deno.test({
  name:
    "the bundle's launcher passes exactly deno.json's permission set as flags, and Deno says nothing",
  ...loose,
  async fn() {
    const { dir } = await bundle();
    const launcher = await Deno.readTextFile(`${dir}/harness`);
    assert.ok(((await Deno.stat(`${dir}/harness`)).mode ?? 0) & 0o100, "executable");
    assert.doesNotMatch(launcher, /-P\b|--permission-set/);
    const own = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}deno.json`));
    const flags = [...launcher.matchAll(/^\s+'?(--(?:allow|deny)-[^' ]+)'?\s*\\$/gm)].map((m) =>
      m[1]
    );
    assert.deepEqual(flags, permissionFlags(own.permissions.harness));
    await using away = await elsewhere();
    const version = await viaLauncher(dir, ["version"], {}, away.path);
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^harness \d+\.\d+\.\d+ /);
    assert.equal(version.stderr, "", "Deno printed something of its own");
    // The compatibility wrappers reach it through HARNESS_BIN, just as quietly.
    const wrapped = await new Deno.Command(`${REPO_ROOT}deploy/bin/basecradle-harness-resolve`, {
      args: ["--help"],
      env: { HARNESS_BIN: `${dir}/harness`, DENO_DIR },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(wrapped.code, 0);
    assert.equal(new TextDecoder().decode(wrapped.stderr), "");
  },
});

Deno.test({
  name:
    "a wake through the bundle's launcher writes only its journal, and exports spans with OTEL_DENO",
  ...loose,
  async fn() {
    const { dir } = await bundle();
    await using w = await world();
    await say(w, "@ada what is new?");
    scriptReply(w.model, "Nothing much.");
    const receiver = otlpReceiver();
    try {
      await using away = await elsewhere();
      const result = await viaLauncher(dir, ["wake", "--timeline", w.timeline], {
        ...w.env,
        OTEL_DENO: "true",
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      }, away.path);
      assert.equal(result.code, 0, result.stderr);
      assert.doesNotMatch(result.stderr, /experimental|Warning/i);
      // Every stderr line is a journal line, its level first; the verdicts are coloured even
      // though stderr is a pipe, as under journald (docs/journal.md#colour).
      for (const line of result.stderr.trimEnd().split("\n")) {
        assert.match(line, /^(DEBUG|INFO|WARNING|ERROR) /, line);
      }
      assert.ok(result.stderr.includes("INFO \x1b[32mwake start\x1b[0m timeline="), result.stderr);
      // The bundled OpenTelemetry API registers with Deno's exporter as the source one does.
      const names = receiver.spans.map((span) => span.name);
      for (const name of ["wake", "chat scripted", "execute_tool messages"]) {
        assert.ok(names.includes(name), `${name} not in ${names.join(", ")}`);
      }
      const wake = receiver.spans.find((span) => span.name === "wake")!;
      assert.equal(attrs(wake)["harness.timeline"], w.timeline);
    } finally {
      await receiver.close();
    }
  },
});
