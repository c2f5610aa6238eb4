import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadMemoryProvider, MemoryProviderError } from "../../lib/memory/loader.ts";
import { memoryTools, recallMemory } from "../../lib/memory/hooks.ts";
import { SqliteMemoryProvider } from "../../lib/memory/provider.ts";
import { MEMORY_PROVIDER_WORDS } from "../../lib/memory/provider_words.ts";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { completionEntries } from "../../lib/cli/completions.ts";
import { recordingJournal, rejected, tempHome } from "./helpers.ts";

const FIXTURES = new URL("../fixtures/memory/providers/", import.meta.url);
const CUSTOM = new URL("custom_provider.ts", FIXTURES).pathname;

Deno.test("unset, empty, 'sqlite' and 'SQLite ' bind the default provider under the home", async () => {
  using dir = tempHome();
  for (const spec of [undefined, "", "  ", "sqlite", " SQLite "]) {
    const bound = await loadMemoryProvider(spec, { home: dir.home });
    assert.equal(bound.name, "sqlite", String(spec));
    assert.ok(bound.provider instanceof SqliteMemoryProvider);
    assert.equal(bound.provider.store.path, join(dir.home, "memory.db"));
    assert.deepEqual(memoryTools(bound.provider).map((tool) => tool.name), ["memory"]);
  }
  // Binding is side-effect free: nothing is opened until a tool runs.
  assert.equal(existsSync(join(dir.home, "memory.db")), false);
});

Deno.test("the default provider's tool and store share one file; its hooks are absent", async () => {
  using dir = tempHome();
  const { provider } = await loadMemoryProvider("sqlite", { home: dir.home });
  const [tool] = memoryTools(provider);
  await tool.run({ action: "write", key: "k", value: "v" });
  assert.equal(provider.store?.read("k"), "v");
  assert.equal(provider.observe, undefined);
  assert.equal(await recallMemory(provider, { agent: "a" }), null);
  await provider.close?.();
});

Deno.test("a module path binds its default export, constructed with the home and journal", async () => {
  using dir = tempHome();
  const journal = recordingJournal();
  const bound = await loadMemoryProvider(CUSTOM, { home: dir.home, journal });
  assert.equal(bound.name, `module:${CUSTOM}`);
  const provider = bound.provider as unknown as { context_: { home: string; journal: unknown } };
  assert.equal(provider.context_.home, dir.home);
  assert.equal(provider.context_.journal, journal);
});

Deno.test("relative paths, file: URLs and #Export pick the module and the export", async () => {
  const relative = "./tests/fixtures/memory/providers/custom_provider.ts#RecallingMemory";
  const cwd = new URL("../../", import.meta.url).pathname;
  const a = await loadMemoryProvider(relative, { cwd });
  assert.equal(a.name, `module:${relative}`);
  await a.provider.observe?.({
    user: "where do I live?",
    assistant: "Dallas",
    scope: { agent: "u1" },
  });
  assert.equal(
    await recallMemory(a.provider, { agent: "u1" }),
    "Relevant memories for u1:\n- where do I live? → Dallas",
  );

  const url = `${new URL("custom_provider.ts", FIXTURES).href}#readyMade`;
  const b = await loadMemoryProvider(url);
  assert.equal(b.name, `module:${url}`);
  assert.equal(await recallMemory(b.provider, { agent: "u1" }), "ready-made recall");
});

Deno.test("mempalace binds the built-in automatic provider (the Python palace is not opened)", async () => {
  for (const spec of ["mempalace", "MemPalace"]) {
    const bound = await loadMemoryProvider(spec);
    assert.equal(bound.name, "mempalace");
    assert.equal(bound.backend, "recall");
    assert.deepEqual(bound.provider.tools?.().map((tool) => tool.name), ["memory_search"]);
  }
});

Deno.test("the words the command line offers for --memory-provider are the words that bind", async () => {
  using dir = tempHome();
  const resolve = (await completionEntries(COMMANDS)).find((entry) => entry.name === "resolve");
  const flag = resolve?.flags.find((f) => f.name === "memory-provider");
  assert.deepEqual(flag?.values, [...MEMORY_PROVIDER_WORDS]);
  for (const word of MEMORY_PROVIDER_WORDS) {
    const bound = await loadMemoryProvider(word, { home: dir.home });
    assert.equal(bound.name, word);
    await bound.provider.close?.();
  }
  // A value that is none of them is refused naming every word.
  const error = await rejected(loadMemoryProvider("redis"), "redis");
  const listed = MEMORY_PROVIDER_WORDS.map((word) => `'${word}'`).join(", ");
  assert.ok(error.message.includes(`neither ${listed} nor a module path`), error.message);
});

Deno.test("bad specs fail at bind time with the reason", async () => {
  const cases: [string, RegExp][] = [
    [
      "redis",
      /'redis' is neither 'sqlite', 'recall', 'mempalace' nor a module path\. Use 'sqlite'/,
    ],
    ["my_pkg.memory:MyMemory", /looks like a Python import path/],
    ["./does/not/exist.ts", /could not import file:\/\/.*exist\.ts: .*running from source/],
    [
      `${new URL("broken_module.ts", FIXTURES).pathname}`,
      /could not import .*module initialisation failed/,
    ],
    [`${CUSTOM}#Missing`, /has no export 'Missing' \(exports: .*RecallingMemory.*\)/],
    [
      `${CUSTOM}#notAProvider`,
      /not a class or an object implementing MemoryProvider \(got number\)/,
    ],
    [`${CUSTOM}#badShape`, /'observe' must be a method, got string/],
    [`${CUSTOM}#Exploding`, /constructing the provider failed: no backend configured/],
  ];
  for (const [spec, pattern] of cases) {
    const error = await rejected(loadMemoryProvider(spec), spec);
    assert.ok(error instanceof MemoryProviderError, spec);
    assert.match(error.message, pattern, spec);
  }
});
