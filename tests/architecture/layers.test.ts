/**
 * The layering of lib/: each folder has one concern and a place in a bottom-to-top order, and
 * imports only point down it. {@link LAYERS} is the order and, for each folder, the exact set of
 * folders it may import from; the test scans every lib file on every run (static imports,
 * re-exports, `import type`, side-effect imports, `import("…")` in code and `typeof import("…")`
 * in types) and fails on an import the table does not allow, on an entry nothing uses any more,
 * and on any cycle between folders or between files. docs/architecture.md describes the same
 * order; each folder states its purpose in its README.md. The scanner is proven on planted
 * sources first, so a blind scan cannot pass.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { LAZY_MODULES } from "../../lib/base/lazy_modules.ts";
import {
  checkTable,
  cycles,
  describe,
  fileGraph,
  folderEdges,
  folderOf,
  type ImportEdge,
  type LayerTable,
  libFolders,
  readLib,
  scanAll,
  scanImports,
  scanLazyLoads,
  unusedEntries,
  upwardEntries,
} from "./import_scan.ts";
import { isPurposeStatement, readmeOf, readmePurpose, topDocParagraph } from "./folder_purpose.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");

/** One folder of lib/: its one-line purpose and the folders below it that it may import from. */
interface Layer {
  /** The folder, `lib/…` (`lib` itself is lib/mod.ts, the library entry). */
  readonly folder: string;
  /** What the folder is for, as its README.md states it. */
  readonly purpose: string;
  /** The lib folders this one may import from, every one earlier in {@link LAYERS}. */
  readonly may: readonly string[];
}

/**
 * The layers, bottom to top. To add a folder, give it an entry at its place in the order; to
 * let a folder import another, add the target to its `may` (only a folder earlier in the list is
 * accepted) and say why in the change. An entry nothing imports any more fails the test, so the
 * table says exactly what the code does.
 */
const LAYERS: readonly Layer[] = [
  {
    folder: "lib/base",
    purpose:
      "small building blocks (paths, hashing, zod, uuids, atomic writes, lazy loading) that import nothing else in lib/",
    may: [],
  },
  {
    folder: "lib/box",
    purpose:
      "the box the harness runs on, as the programs it starts see it: the agent's own executables on their PATH",
    may: ["lib/base"],
  },
  {
    folder: "lib/net",
    purpose:
      "the one outbound HTTP path: schemes, host rules, the address fence and its pinned transport, capped reads",
    may: ["lib/base"],
  },
  {
    folder: "lib/pycompat",
    purpose:
      "byte-compatibility with the Python harness: its JSON spelling, repr(), URL quoting and float parsing",
    may: [],
  },
  {
    folder: "lib/journal",
    purpose: "the journal: the log grammar, its line catalogue and the secret scrubber",
    may: ["lib/base"],
  },
  {
    folder: "lib/platform",
    purpose:
      "the BaseCradle REST client: typed calls, checked responses, typed errors, pagination, idempotency keys",
    may: ["lib/base", "lib/net"],
  },
  {
    folder: "lib/home/records",
    purpose:
      "turn records: the hash-chained per-turn lines under HARNESS_HOME/records and their verification",
    may: ["lib/base", "lib/pycompat", "lib/journal"],
  },
  {
    folder: "lib/home",
    purpose:
      "everything a wake keeps under HARNESS_HOME besides transcripts and memory: marks, seen-sets, claims, breaker, billing, artifacts, cleanup",
    // lib/home/records: the stranded-temp sweep names the records' head and chain files.
    may: ["lib/base", "lib/pycompat", "lib/journal", "lib/platform", "lib/home/records"],
  },
  {
    folder: "lib/core/types",
    purpose:
      "the agent's vocabulary: messages, tools, providers, faults and the pure functions over them",
    may: [],
  },
  {
    folder: "lib/core/transcript",
    purpose:
      "the transcript store: the Python-compatible session file, its persistence caps and healing",
    may: ["lib/base", "lib/pycompat", "lib/journal", "lib/core/types"],
  },
  {
    folder: "lib/core",
    purpose:
      "the agent core: the engine's tool loop, dispatch, the registry, policy, retries and the Harness facade",
    may: ["lib/base", "lib/journal", "lib/core/types", "lib/core/transcript"],
  },
  {
    folder: "lib/core/compaction",
    purpose: "the context ceiling and the compactor that summarises the older part of a transcript",
    may: [
      "lib/base",
      "lib/pycompat",
      "lib/journal",
      "lib/core/types",
      "lib/core/transcript",
      "lib/core",
    ],
  },
  {
    folder: "lib/providers",
    purpose: "the model adapters over the vendor SDKs, their fault mapping and usage accounting",
    may: [
      "lib/base",
      // lib/net: the one fetch path every outbound request takes.
      "lib/net",
      "lib/core/types",
    ],
  },
  {
    folder: "lib/memory",
    purpose:
      "memory: the provider seam, the SQLite store shared with the Python harness, and the memory tool",
    may: [
      "lib/base",
      // lib/net: the one fetch path every outbound request takes.
      "lib/net",
      "lib/pycompat",
      "lib/journal",
      "lib/core/types",
    ],
  },
  {
    folder: "lib/config",
    purpose:
      "reading and validating configuration: the environment, the config home, plugin files and the tool resolution over them",
    may: [
      "lib/base",
      // lib/net: the one fetch path every outbound request takes.
      "lib/net",
      "lib/pycompat",
      "lib/journal",
      "lib/platform",
      "lib/core/types",
      "lib/core",
      "lib/providers",
    ],
  },
  {
    folder: "lib/install",
    purpose:
      "installing and proving the config home: the installer and its upgrade reconcile, harness verify and the capability manifest",
    may: ["lib/base", "lib/pycompat", "lib/journal", "lib/config"],
  },
  {
    folder: "lib/gate",
    purpose:
      "the outbound gate, the only way a message reaches the platform, and the post-request types it owns",
    may: ["lib/base", "lib/journal", "lib/platform"],
  },
  {
    folder: "lib/tools/net",
    purpose: "web_fetch's text extraction: content types, charsets, HTML reduced to text",
    may: [],
  },
  {
    folder: "lib/tools/shared",
    purpose:
      "what the tools share: the platform context, argument parsing, list and asset formatting",
    may: [
      "lib/base",
      // lib/net: the one fetch path every outbound request takes.
      "lib/net",
      "lib/pycompat",
      "lib/journal",
      "lib/platform",
      "lib/core/types",
      "lib/gate",
      "lib/tools/net",
    ],
  },
  {
    folder: "lib/tools/shell",
    purpose: "the opt-in shell tool and its process control",
    may: ["lib/base", "lib/box", "lib/pycompat", "lib/core/types", "lib/core"],
  },
  {
    folder: "lib/tools/media",
    purpose:
      "the opt-in media tools: image generation and editing, transcription and video, over OpenAI and xAI",
    may: [
      "lib/base",
      // lib/net: the one fetch path every outbound request takes.
      "lib/net",
      "lib/pycompat",
      "lib/journal",
      "lib/platform",
      "lib/core/types",
      // lib/providers: the openai SDK is constructed with Node globals hidden, as the provider does.
      "lib/providers",
      "lib/tools/shared",
    ],
  },
  {
    folder: "lib/tools/code",
    purpose:
      "the code-execution asset bridge: the wake's code container, the hook that stores a code run's files and source as assets, and code_attach",
    may: [
      "lib/base",
      // lib/net: the one fetch path every outbound request takes, and its capped reads (a
      // container file is read under a byte cap).
      "lib/net",
      "lib/journal",
      "lib/platform",
      "lib/core/types",
      // lib/core: the bridge is an engine turn hook (its types only).
      "lib/core",
      // lib/providers: the openai SDK is constructed with Node globals hidden, as the provider does.
      "lib/providers",
      "lib/tools/shared",
      // lib/tools/media: a code run's files are uploaded the way a generated image is.
      "lib/tools/media",
    ],
  },
  {
    folder: "lib/tools",
    purpose:
      "the built-in tools the model calls: platform tools, messages, web_fetch, the system-prompt editor",
    may: [
      "lib/base",
      // lib/net: the one fetch path every outbound request takes.
      "lib/net",
      "lib/pycompat",
      "lib/journal",
      "lib/platform",
      "lib/core/types",
      "lib/gate",
      "lib/tools/net",
      "lib/tools/shared",
      "lib/tools/shell",
    ],
  },
  {
    folder: "lib/mcp/supervisor",
    purpose: "the stdio supervisor that keeps an MCP server from outliving its wake",
    may: ["lib/base", "lib/box"],
  },
  {
    folder: "lib/mcp",
    purpose: "the MCP client: server configs, pinning, connections and the proxied tools",
    may: [
      "lib/base",
      // lib/net: the one fetch path every outbound request takes.
      "lib/net",
      "lib/journal",
      "lib/core/types",
      // lib/config: max_result_chars's range sits with every other setting's range.
      "lib/config",
      "lib/tools/shared",
      "lib/mcp/supervisor",
    ],
  },
  {
    folder: "lib/runtime",
    purpose:
      "from a resolved configuration to live parts: runtime resolution, permission narrowing, the tool set, item rendering",
    may: [
      "lib/base",
      // lib/net: the one fetch path every outbound request takes.
      "lib/net",
      "lib/journal",
      "lib/platform",
      "lib/core/types",
      "lib/core",
      // lib/providers: the configured agent names the options its provider is built from (type).
      "lib/providers",
      "lib/memory",
      "lib/config",
      // lib/install: a wake runs the upgrade reconcile before it reads the config home.
      "lib/install",
      // lib/gate: the runtime resolution validates guardrails.json for the wake and resolved-config.
      "lib/gate",
      "lib/tools/shared",
      "lib/tools/shell",
      // lib/tools/media: loaded lazily, only when a media tool is resolved; the type is imported.
      "lib/tools/media",
      // lib/tools/code: loaded lazily, only when code_execution is resolved; the types are imported.
      "lib/tools/code",
      "lib/tools",
      "lib/mcp",
    ],
  },
  {
    folder: "lib/wake",
    purpose:
      "one wake, in order: configuration, breaker, perception, triage and claims, recovery, the turns, release",
    may: [
      "lib/base",
      "lib/journal",
      "lib/platform",
      "lib/home",
      "lib/core/types",
      "lib/core/transcript",
      "lib/core",
      "lib/core/compaction",
      "lib/providers",
      "lib/memory",
      "lib/config",
      "lib/gate",
      "lib/tools/shared",
      "lib/mcp",
      "lib/runtime",
    ],
  },
  {
    folder: "lib/wake/engaged",
    purpose:
      "the engaged half of a wake, loaded only when there is something to answer: the turn, the brief, the engine",
    // lib/core/transcript: the turn record measures the history in the transcript's saved form.
    may: [
      "lib/base",
      "lib/journal",
      "lib/home/records",
      "lib/home",
      "lib/core/types",
      "lib/core/transcript",
      "lib/core",
      "lib/core/compaction",
      "lib/providers",
      "lib/memory",
      "lib/mcp",
      "lib/runtime",
      "lib/wake",
    ],
  },
  {
    folder: "lib/poll",
    purpose: "poll mode: one agent watching one timeline from a long-lived process",
    may: [
      "lib/base",
      "lib/journal",
      "lib/platform",
      "lib/core/types",
      "lib/core/transcript",
      "lib/core",
      "lib/providers",
      "lib/memory",
      "lib/config",
      "lib/gate",
      "lib/tools/shared",
      "lib/tools",
      "lib/runtime",
      // lib/wake: the wake's tone judge (its type; the module is loaded lazily).
      "lib/wake",
      // lib/wake/engaged: the knowledge pack follows the charter exactly as a wake renders it.
      "lib/wake/engaged",
    ],
  },
  {
    folder: "lib/replay",
    purpose:
      "re-running recorded turns offline against a changed charter or model, with the tools answered from the record and nothing sent, and the diff of what the agent would have said",
    // lib/wake/engaged: the brief (charter and volatile half) is composed exactly as a wake does.
    // lib/core/transcript: --with-history reads the transcript as a wake loads it.
    may: [
      "lib/base",
      "lib/journal",
      "lib/platform",
      "lib/home/records",
      "lib/core/types",
      "lib/core/transcript",
      "lib/core",
      "lib/providers",
      "lib/config",
      "lib/gate",
      "lib/tools/shared",
      "lib/runtime",
      // lib/wake: the wake's tone judge (its type; the module is loaded lazily).
      "lib/wake",
      "lib/wake/engaged",
    ],
  },
  {
    folder: "lib/sandbox/shared",
    purpose:
      "the sandbox platform's state, HTTP helpers, access rules and shapes, shared by its routes and its model",
    may: ["lib/base"],
  },
  {
    folder: "lib/sandbox/routes",
    purpose: "the sandbox platform's REST routes and its /_sandbox admin surface",
    may: ["lib/base", "lib/sandbox/shared"],
  },
  {
    folder: "lib/sandbox/model",
    purpose: "the sandbox's deterministic OpenAI-compatible demo model",
    may: ["lib/base", "lib/sandbox/shared"],
  },
  {
    folder: "lib/sandbox",
    purpose:
      "the sandbox platform: a local, offline BaseCradle-compatible server with router emulation",
    // lib/journal: the router relays its wakes' output through the scrubbed process output.
    may: [
      "lib/base",
      "lib/journal",
      "lib/sandbox/shared",
      "lib/sandbox/routes",
      "lib/sandbox/model",
    ],
  },
  {
    folder: "lib/demo",
    purpose:
      "the offline demo's world and its wake's model and environment, shared by harness demo and the playground",
    may: ["lib/platform", "lib/gate", "lib/sandbox"],
  },
  {
    folder: "lib/playground/static",
    purpose: "the playground page's files (HTML, CSS, JS), embedded in the program",
    may: [],
  },
  {
    folder: "lib/playground",
    purpose:
      "the playground: the sandbox platform, router emulation running real wakes, and a local web page to watch and talk to an agent",
    // lib/demo: the playground seats the demo's world and spawns wakes the way the demo does.
    // lib/home: the studio reads the agents' notes and captured requests.
    // lib/config: the studio prices wakes from prices.json and judges a draft config home.
    // lib/core, lib/runtime, lib/wake, lib/memory: the studio runs one tool as the agent's wake
    // would build it, and searches its memory as a wake does (both loaded lazily).
    // lib/replay: the studio reads the replay report `harness replay --json` prints.
    may: [
      "lib/base",
      "lib/pycompat",
      "lib/journal",
      "lib/platform",
      "lib/home/records",
      "lib/home",
      "lib/core",
      "lib/core/transcript",
      "lib/memory",
      "lib/config",
      "lib/gate",
      "lib/runtime",
      "lib/wake",
      "lib/replay",
      "lib/sandbox",
      "lib/demo",
      "lib/playground/static",
    ],
  },
  {
    folder: "lib/cli",
    purpose:
      "the harness command line: the argument parser, the command registry and one module per subcommand",
    may: [
      "lib/base",
      // lib/net: the doctor names a check the fetch path refused as such.
      "lib/net",
      "lib/pycompat",
      "lib/journal",
      "lib/platform",
      "lib/home/records",
      "lib/home",
      "lib/providers",
      "lib/memory",
      "lib/config",
      "lib/install",
      "lib/mcp",
      "lib/runtime",
      "lib/wake",
      "lib/poll",
      "lib/replay",
      "lib/sandbox",
      "lib/demo",
      "lib/playground",
    ],
  },
  {
    folder: "lib",
    purpose: "the library entry point (lib/mod.ts)",
    may: [
      "lib/journal",
      "lib/core/types",
      "lib/core/transcript",
      "lib/core",
      "lib/providers",
      "lib/memory",
    ],
  },
];

/** {@link LAYERS} as the checker takes it. */
const TABLE: LayerTable = LAYERS.map((l) => [l.folder, l.may] as const);

/** The real lib/ tree, read once: every test below is over the same text. */
const SOURCES = await readLib(ROOT);
const EDGES = scanAll(SOURCES);

function lines(items: readonly string[]): string {
  return items.map((i) => `  ${i}`).join("\n");
}

function arrow(path: readonly string[]): string {
  return path.join(" → ");
}

Deno.test("architecture: every folder of lib/ has a layer, and every layer a folder", () => {
  const folders = libFolders([...SOURCES.keys()]);
  const named = new Set(LAYERS.map((l) => l.folder));
  const missing = folders.filter((f) => !named.has(f));
  assert.deepEqual(
    missing,
    [],
    `lib folders with no entry in LAYERS (tests/architecture/layers.test.ts); give each a place ` +
      `in the order, a purpose and the folders it may import:\n${lines(missing)}`,
  );
  const gone = LAYERS.map((l) => l.folder).filter((f) => !folders.includes(f));
  assert.deepEqual(gone, [], `LAYERS names folders lib/ no longer has:\n${lines(gone)}`);
  assert.equal(named.size, LAYERS.length, "a folder appears twice in LAYERS");
});

Deno.test("architecture: the table only points down the layer order", () => {
  const wrong = upwardEntries(TABLE);
  assert.deepEqual(wrong, [], `table entries that do not point down:\n${lines(wrong)}`);
});

Deno.test("architecture: every import in lib/ is one the table allows", () => {
  const bad = checkTable(TABLE, EDGES);
  assert.deepEqual(
    bad,
    [],
    `imports the layering does not allow (move the code, or edit LAYERS and justify it):\n${
      lines(bad)
    }`,
  );
});

Deno.test("architecture: every table entry is still used", () => {
  const unused = unusedEntries(TABLE, EDGES);
  assert.deepEqual(
    unused,
    [],
    `table entries no import uses any more; remove them from LAYERS:\n${lines(unused)}`,
  );
});

Deno.test("architecture: no cycle between folders", () => {
  const found = cycles(folderEdges(EDGES)).map(arrow);
  assert.deepEqual(found, [], `folder cycles:\n${lines(found)}`);
});

Deno.test("architecture: no cycle between files (type imports included)", () => {
  const found = cycles(fileGraph(EDGES)).map(arrow);
  assert.deepEqual(found, [], `file cycles:\n${lines(found)}`);
});

Deno.test("architecture: the real scan sees the edges it must (it is not blind)", () => {
  assert.ok(
    SOURCES.has("lib/wake/wake.ts") && SOURCES.has("lib/mod.ts"),
    "the scan must read lib/",
  );
  const has = (file: string, target: RegExp, typeOnly?: boolean) =>
    EDGES.some((e) =>
      e.file === file && target.test(e.target) &&
      (typeOnly === undefined || e.typeOnly === typeOnly)
    );
  assert.ok(
    EDGES.some((e) => folderOf(e.file) === "lib/wake" && folderOf(e.target) === "lib/home"),
    "lib/wake imports lib/home (its marks, claims and breaker)",
  );
  assert.ok(has("lib/journal/render.ts", /^lib\/base\//), "lib/journal/render.ts imports lib/base");
  // A lazy load's type argument is a type import, and an edge like any other.
  assert.ok(
    has("lib/cli/wake.ts", /^lib\/wake\/wake\.ts$/, true),
    'the scan must count `typeof import("../wake/wake.ts")` in lib/cli/wake.ts',
  );
  // The library entry re-exports the core; a scan that missed `export … from` would not see it.
  assert.ok(
    EDGES.some((e) => e.file === "lib/mod.ts" && e.kind === "export from"),
    "lib/mod.ts re-exports",
  );
  assert.ok(EDGES.length > 1000, `only ${EDGES.length} edges found in lib/`);
});

Deno.test("architecture: lazy loads name LAZY_MODULES; lib/wake reaches its engaged half by name", () => {
  const loads = [...SOURCES].flatMap(([file, source]) => scanLazyLoads(file, source));
  const engaged = loads.find((l) => l.file === "lib/wake/engaged_half.ts");
  assert.equal(engaged?.target, "lib/wake/engaged/mod.ts", "the wake loads its engaged half");
  const known = new Set<string>(LAZY_MODULES);
  const unknown = loads.filter((l) => !known.has(l.target)).map((l) =>
    `${l.file}:${l.line}: ${l.target}`
  );
  assert.deepEqual(unknown, [], `lazy loads of modules not in LAZY_MODULES:\n${lines(unknown)}`);
  // The idle half names the engaged half by the interface it owns, never by a type import
  // (the table forbids it too; this says so in the wake's own words).
  const intoEngaged = EDGES.filter((e) =>
    e.file.startsWith("lib/wake/") && !e.file.startsWith("lib/wake/engaged/") &&
    e.target.startsWith("lib/wake/engaged/")
  );
  assert.deepEqual(intoEngaged.map(describe), [], "lib/wake reaches into lib/wake/engaged");
});

Deno.test("architecture: each folder states its purpose in its README.md", async () => {
  const wrong: string[] = [];
  for (const { folder, purpose } of LAYERS) {
    const readme = readmeOf(folder);
    const expected = `\`${folder}/\`: ${purpose}.`;
    let stated: string;
    try {
      stated = readmePurpose(await Deno.readTextFile(`${ROOT}/${readme}`)) ?? "(no paragraph)";
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      stated = "(no README.md)";
    }
    if (stated !== expected && !stated.startsWith(`${expected} `)) {
      wrong.push(`${readme}: expected "${expected}"\n    found    "${stated}"`);
    }
  }
  assert.deepEqual(
    wrong,
    [],
    `folders whose README.md does not state their purpose:\n${lines(wrong)}`,
  );
});

Deno.test("architecture: a folder's purpose is stated once, never atop one of its modules", () => {
  // A module's JSDoc speaks for the module (and, on a published entry point, to library users).
  const stray = [...SOURCES].filter(([, source]) =>
    isPurposeStatement(topDocParagraph(source) ?? "")
  )
    .map(([file]) => file);
  assert.deepEqual(
    stray,
    [],
    `modules opening with a folder's purpose (move it to the README):\n${lines(stray)}`,
  );
});

/**
 * The layer list of docs/architecture.md: the numbered items of its "The layers" section, each
 * opening with the folder in backticks and a colon, an item's wrapped lines joined.
 */
function documentedLayers(markdown: string): Array<{ folder: string; text: string }> {
  const start = markdown.search(/^## The layers$/m);
  assert.ok(start >= 0, 'docs/architecture.md has no "## The layers" section');
  const rest = markdown.slice(start).split("\n").slice(1);
  const end = rest.findIndex((l) => l.startsWith("## "));
  const items: string[] = [];
  for (const line of end < 0 ? rest : rest.slice(0, end)) {
    if (/^\d+\.\s/.test(line)) items.push(line.replace(/^\d+\.\s+/, ""));
    else if (/^\s+\S/.test(line) && items.length > 0) items[items.length - 1] += ` ${line.trim()}`;
  }
  return items.map((text) => {
    const m = /^`(lib(?:\/[\w/]+?)?)\/`:\s/.exec(text);
    return { folder: m?.[1] ?? `(no folder in: ${text.slice(0, 40)})`, text };
  });
}

Deno.test("architecture: docs/architecture.md lists the layers in the table's order", async () => {
  const doc = documentedLayers(await Deno.readTextFile(`${ROOT}/docs/architecture.md`));
  assert.deepEqual(
    doc.map((d) => d.folder),
    LAYERS.map((l) => l.folder),
    'the numbered list under "## The layers" in docs/architecture.md must name every folder of ' +
      "LAYERS, in the same order",
  );
  const stale = LAYERS.filter((l, i) => !doc[i].text.startsWith(`\`${l.folder}/\`: ${l.purpose}`))
    .map((l) => l.folder);
  assert.deepEqual(stale, [], "layers whose purpose in docs/architecture.md differs from LAYERS");
});

Deno.test("architecture: every table entry is needed (dropping one fails the check)", () => {
  // The converse of "still used", on the real edges: a scan that missed a folder's imports
  // would leave an entry nothing depends on, and this would say which.
  const idle: string[] = [];
  for (const [folder, allowed] of TABLE) {
    for (const to of allowed) {
      const fewer = TABLE.map(([f, a]) =>
        [f, f === folder ? a.filter((t) => t !== to) : a] as const
      );
      const found = checkTable(fewer, EDGES);
      if (!found.some((m) => m.includes(`: ${folder} may not import ${to};`))) {
        idle.push(`${folder} → ${to}`);
      }
    }
  }
  assert.deepEqual(idle, [], `entries the real scan does not need:\n${lines(idle)}`);
});

// The checker, proven on planted sources: each must be found (or, for prose, not found).

/** The edges of planted `files` (path → source), as the real scan would collect them. */
function plant(files: Record<string, string>): ImportEdge[] {
  return scanAll(new Map(Object.entries(files)));
}

Deno.test("layer checker: an upward import is reported with file, line and what is allowed", () => {
  const edges = plant({
    "lib/journal/x.ts":
      'import { a } from "../base/a.ts";\nimport { runWake } from "../wake/wake.ts";\n',
  });
  assert.deepEqual(checkTable(TABLE, edges), [
    'lib/journal/x.ts:2: import … from "../wake/wake.ts": lib/journal may not import lib/wake; ' +
    "allowed: lib/base",
  ]);
});

Deno.test("layer checker: a folder with no entry may import nothing", () => {
  const found = checkTable(TABLE, plant({ "lib/new/x.ts": 'import "../base/a.ts";\n' }));
  assert.deepEqual(found, [
    'lib/new/x.ts:1: import "../base/a.ts": lib/new may not import lib/base; allowed: nothing',
  ]);
});

Deno.test("layer checker: a table entry nothing uses is reported", () => {
  const table: LayerTable = [["lib/base", []], ["lib/journal", ["lib/base"]]];
  assert.deepEqual(unusedEntries(table, plant({ "lib/journal/x.ts": "export const x = 1;\n" })), [
    "lib/journal → lib/base",
  ]);
  assert.deepEqual(
    unusedEntries(table, plant({ "lib/journal/x.ts": 'export * from "../base/a.ts";' })),
    [],
  );
});

Deno.test("layer checker: a table entry pointing up or sideways is reported", () => {
  const table: LayerTable = [["lib/base", ["lib/journal"]], ["lib/journal", [
    "lib/journal",
    "lib/x",
  ]]];
  assert.deepEqual(upwardEntries(table), [
    "lib/base → lib/journal: lib/journal is not below lib/base",
    "lib/journal → lib/journal: lib/journal is not below lib/journal",
    "lib/journal → lib/x: lib/x is not in the table",
  ]);
});

Deno.test("layer checker: a two-file cycle is reported, type imports included", () => {
  const edges = plant({
    "lib/core/a.ts": 'import { b } from "./b.ts";\n',
    "lib/core/b.ts": 'import type { A } from "./a.ts";\n',
    "lib/core/c.ts": 'import { a } from "./a.ts";\n',
  });
  assert.deepEqual(cycles(fileGraph(edges)), [["lib/core/a.ts", "lib/core/b.ts", "lib/core/a.ts"]]);
  assert.deepEqual(cycles(fileGraph(plant({ "lib/core/a.ts": 'import "./a.ts";' }))), [
    ["lib/core/a.ts", "lib/core/a.ts"],
  ]);
});

Deno.test("layer checker: a longer file cycle is printed as a path", () => {
  const edges = plant({
    "lib/x/a.ts": 'import "./b.ts";\n',
    "lib/x/b.ts": 'import "../y/c.ts";\n',
    "lib/y/c.ts": 'export * from "../x/a.ts";\n',
  });
  assert.deepEqual(cycles(fileGraph(edges)), [
    ["lib/x/a.ts", "lib/x/b.ts", "lib/y/c.ts", "lib/x/a.ts"],
  ]);
});

Deno.test("layer checker: a folder cycle is reported", () => {
  const edges = plant({
    "lib/x/a.ts": 'import { b } from "../y/b.ts";\n',
    "lib/y/b.ts": 'import { c } from "../x/c.ts";\n',
    "lib/x/c.ts": "export const c = 1;\n",
  });
  assert.deepEqual(cycles(fileGraph(edges)), [], "no file cycle here");
  assert.deepEqual(cycles(folderEdges(edges)), [["lib/x", "lib/y", "lib/x"]]);
});

Deno.test("import scanner: every import form is seen, multi-line lists included", () => {
  const source = [
    'import { a } from "../base/a.ts";',
    "import {",
    "  b,",
    "  type C,",
    '} from "../x/y.ts";',
    'import type { D } from "../base/d.ts";',
    'import "../base/side.ts";',
    'import * as ns from "../base/ns.ts";',
    'import def, { e } from "../base/e.ts";',
    'export { f } from "../base/f.ts";',
    'export type { G } from "../base/g.ts";',
    'export * from "../base/h.ts";',
    'export * as i from "../base/i.ts";',
    'type W = typeof import("../wake/wake.ts");',
    'type J = import("../base/j.ts").Journal;',
    'const k = await import("../base/k.ts");',
    "import{l}from'../base/l.ts';",
    'import json from "../base/m.json" with { type: "json" };',
  ].join("\n");
  const found = scanImports("lib/journal/x.ts", source).map((e) =>
    `${e.line} ${e.kind}${e.typeOnly ? " type" : ""} ${e.target}`
  );
  assert.deepEqual(found, [
    "1 import lib/base/a.ts",
    "2 import lib/x/y.ts",
    "6 import type lib/base/d.ts",
    "7 side effect lib/base/side.ts",
    "8 import lib/base/ns.ts",
    "9 import lib/base/e.ts",
    "10 export from lib/base/f.ts",
    "11 export from type lib/base/g.ts",
    "12 export from lib/base/h.ts",
    "13 export from lib/base/i.ts",
    "14 import() type lib/wake/wake.ts",
    "15 import() type lib/base/j.ts",
    "16 import() lib/base/k.ts",
    "17 import lib/base/l.ts",
    "18 import lib/base/m.json",
  ]);
});

Deno.test("import scanner: a `typeof import` type of a forbidden module is reported", () => {
  const edges = plant({
    "lib/journal/x.ts": 'export type Wake = typeof import("../wake/wake.ts");\n',
  });
  assert.deepEqual(checkTable(TABLE, edges), [
    'lib/journal/x.ts:1: typeof import(…) "../wake/wake.ts": lib/journal may not import ' +
    "lib/wake; allowed: lib/base",
  ]);
});

Deno.test("import scanner: a lazy load's type argument is an edge, its package path is not", () => {
  const source = [
    'import { lazyImport } from "../base/lazy_import.ts";',
    'const w = await lazyImport<typeof import("../wake/wake.ts")>("lib/wake/wake.ts");',
    "const e = await lazyImport<EngagedHalf>(",
    '  "lib/wake/engaged/mod.ts",',
    ");",
  ].join("\n");
  const edges = scanImports("lib/journal/x.ts", source);
  assert.deepEqual(edges.map((e) => `${e.line} ${e.target}`), [
    "1 lib/base/lazy_import.ts",
    "2 lib/wake/wake.ts",
  ]);
  assert.deepEqual(
    scanLazyLoads("lib/journal/x.ts", source).map((l) => `${l.line} ${l.target}`),
    ["2 lib/wake/wake.ts", "3 lib/wake/engaged/mod.ts"],
  );
  assert.match(checkTable(TABLE, edges)[0], /lib\/journal may not import lib\/wake/);
});

Deno.test("import scanner: imports in comments, JSDoc and strings are not imports", () => {
  const source = [
    '// import { x } from "../wake/wake.ts";',
    "/**",
    ' * @example import { y } from "../wake/wake.ts";',
    ' * const m = await import("../wake/wake.ts");',
    ' * type T = typeof import("../wake/wake.ts");',
    " */",
    '/* export * from "../wake/wake.ts"; */',
    "const s = 'import { z } from \"../wake/wake.ts\"';",
    'const t = `import("../wake/wake.ts")`;',
    'const u = "https://example.com/"; // import "../wake/wake.ts";',
    'const re = /import "..\\/wake\\/wake.ts"/;',
    "const meta = import.meta.url;",
    'x.import("../wake/wake.ts");',
    'export const from = "../wake/wake.ts";',
  ].join("\n");
  assert.deepEqual(scanImports("lib/journal/x.ts", source).map(describe), []);
});

Deno.test("import scanner: code after a URL string or a regex literal is still scanned", () => {
  const source = [
    'const u = "https://example.com//a"; const m = await import("../wake/wake.ts");',
    'const re = /["\']\\/\\//; import "../wake/post.ts";',
  ].join("\n");
  assert.deepEqual(scanImports("lib/journal/x.ts", source).map((e) => `${e.line} ${e.target}`), [
    "1 lib/wake/wake.ts",
    "2 lib/wake/post.ts",
  ]);
});

Deno.test("import scanner: packages and files outside lib/ are not edges", () => {
  const source = [
    'import { z } from "zod";',
    'import OpenAI from "openai";',
    'import { Buffer } from "node:buffer";',
    'import { x } from "npm:left-pad@1";',
    'import { y } from "jsr:@std/path";',
    'import config from "../../deno.json" with { type: "json" };',
    'const d = new URL("defaults/plugins/", import.meta.url);',
    'import { w } from "../../../outside.ts";',
  ].join("\n");
  assert.deepEqual(scanImports("lib/cli/x.ts", source).map(describe), []);
});

Deno.test("purpose reader: a README's first paragraph; a module's top JSDoc paragraph", () => {
  const readme = ["# Heading", "", "`lib/x/`: one thing, said over", "two lines.", "", "More."];
  assert.equal(readmePurpose(readme.join("\n")), "`lib/x/`: one thing, said over two lines.");
  assert.equal(readmePurpose("`lib/x/`: short.\n"), "`lib/x/`: short.");
  assert.equal(readmePurpose("# Only a heading\n\n"), undefined);
  assert.equal(readmeOf("lib/x"), "lib/x/README.md");
  assert.equal(readmeOf("lib"), "lib/README.md");
  const source = [
    "/**",
    " * `lib/x/`: one thing, said over",
    " * two lines.",
    " *",
    " * More prose.",
    " */",
    'import "./y.ts";',
  ].join("\n");
  assert.equal(topDocParagraph(source), "`lib/x/`: one thing, said over two lines.");
  assert.equal(topDocParagraph('import "./y.ts";\n/** late */\n'), undefined);
  assert.ok(isPurposeStatement(topDocParagraph(source)!));
  assert.ok(isPurposeStatement("`lib/`: the entry."));
  assert.ok(!isPurposeStatement("The outbound gate: `lib/x/` holds it."));
  assert.ok(!isPurposeStatement("`lib/x/y.ts`: a file, not a folder."));
});
