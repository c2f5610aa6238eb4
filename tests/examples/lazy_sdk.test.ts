/**
 * Importing `lib/mod.ts` loads no model or MCP SDK: each adapter imports its SDK on its first
 * call. Checked two ways: the module graph reaches the SDKs only through dynamic imports, and
 * a real process that imports the library, constructs an adapter and runs an EchoProvider turn
 * (with read permission only) evaluates no SDK module — while the same process that makes one
 * adapter call does, so the observation is not vacuous.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { chatCompletion, ModelMock } from "../support/model_mock.ts";
import { ROOT, runDeno } from "./run_deno.ts";

const PROBE = fileURLToPath(new URL("./lazy_sdk_probe.ts", import.meta.url));

/** The SDK packages the library may only load lazily, by npm name. */
const SDKS = ["openai", "@openrouter/sdk", "@modelcontextprotocol/sdk"];

/**
 * The npm packages whose files the runtime resolved or loaded, read from Deno's debug log
 * (`…/deno/npm/<registry>/<name>/<version>/…` paths).
 */
function loadedPackages(debugLog: string): Set<string> {
  const names = new Set<string>();
  for (
    const match of debugLog.matchAll(/\/npm\/[^/\s]+\/((?:@[^/\s]+\/)?[^/\s@]+)\/\d[^/\s]*\//g)
  ) {
    names.add(match[1]);
  }
  return names;
}

Deno.test("lib/mod.ts reaches the SDKs only through dynamic imports", async () => {
  const run = await runDeno(["info", "--json", `${ROOT}lib/mod.ts`]);
  assert.equal(run.code, 0, run.stderr);
  const graph = JSON.parse(run.stdout) as {
    roots: string[];
    modules: {
      specifier: string;
      dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
    }[];
  };
  const modules = new Map(graph.modules.map((m) => [m.specifier, m]));
  const staticExternal = new Set<string>();
  const dynamicExternal = new Set<string>();
  const seen = new Set<string>();
  const pending = [...graph.roots];
  while (pending.length) {
    const specifier = pending.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dependency of modules.get(specifier)?.dependencies ?? []) {
      const target = dependency.code?.specifier;
      if (!target) continue; // a type-only import: erased at run time
      if (target.startsWith("file:")) {
        if (!dependency.isDynamic) pending.push(target);
      } else {
        (dependency.isDynamic ? dynamicExternal : staticExternal).add(target);
      }
    }
  }
  const sdkOf = (specifier: string) =>
    SDKS.find((name) => specifier.replace(/^npm:\/?/, "").startsWith(`${name}@`));
  assert.deepEqual([...staticExternal].filter(sdkOf), []);
  // The adapters' lazy imports are in the graph, just not on the static path.
  assert.ok([...dynamicExternal].some((s) => sdkOf(s) === "openai"), [...dynamicExternal].join());
  assert.ok(
    [...dynamicExternal].some((s) => sdkOf(s) === "@openrouter/sdk"),
    [...dynamicExternal].join(),
  );
});

Deno.test("a process that imports the library and runs an echo turn loads no SDK", async () => {
  const run = await runDeno(["run", "--log-level=debug", "--allow-read", PROBE]);

  assert.equal(run.code, 0, run.stderr.slice(-2000));
  assert.equal(run.stdout, "You said: Hello!\n");
  const loaded = loadedPackages(run.stderr);
  // Not even zod loads on this path: the library defers it to first use. That the log does
  // reveal npm loads is shown by the next test, where the first adapter call loads openai.
  assert.deepEqual([...loaded], []);
});

Deno.test("the first adapter call is what loads the openai SDK", async () => {
  await using mock = await ModelMock.start();
  mock.reply("chat", { json: chatCompletion({ content: "pong" }) });

  const run = await runDeno([
    "run",
    "--log-level=debug",
    "--allow-read",
    "--allow-net=127.0.0.1",
    "--allow-env",
    PROBE,
    mock.baseURL,
  ]);

  assert.equal(run.code, 0, run.stderr.slice(-2000));
  assert.equal(run.stdout, "You said: Hello!\npong\n");
  assert.ok(loadedPackages(run.stderr).has("openai"));
  assert.equal(mock.hits("chat"), 1);
});
