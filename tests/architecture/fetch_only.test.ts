/**
 * Every HTTP request the harness makes of its own goes through lib/net/, the one fetch path
 * (docs/security.md#one-fetch-path): no other module of lib/ may call `fetch`, open a socket
 * (`Deno.connect`, `Deno.connectTls`, `Deno.startTls`, a WebSocket), resolve a name, import a Node
 * or npm HTTP client, or build a vendor SDK client (openai, @openrouter/sdk, @anthropic-ai/sdk, the MCP HTTP
 * transports) without handing it the path's fetch. Exempt, by name: lib/net/ (the path itself)
 * and the sandbox and playground SERVERS (lib/sandbox/, lib/playground/), which answer requests
 * and are no part of a wake. Tests are outside lib/ and not scanned. Comments and string contents
 * are blanked before the scan, and the scanner is proven on planted sources first, so a blind
 * scan cannot pass.
 */
import { strict as assert } from "node:assert";
import { fileURLToPath } from "node:url";
import { libFiles } from "./gate_scan.ts";
import { maskSource } from "./import_scan.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");

/** The folders allowed to reach the network directly, and why. */
const EXEMPT: ReadonlyArray<readonly [folder: string, why: string]> = [
  ["lib/net/", "the one fetch path"],
  ["lib/sandbox/", "the sandbox platform's server"],
  ["lib/playground/", "the playground's server, which drives its own sandbox"],
];

/** Direct network use, matched on the code with comments and string contents blanked. */
const DIRECT: ReadonlyArray<readonly [rule: string, pattern: RegExp]> = [
  // The global `fetch`, called or handed on; not a property (`x.fetch`), a key (`fetch:`), an
  // optional member (`fetch?:`) or a type (`typeof fetch`).
  ["global fetch", /(?<![\w$#])(?<!\.\s*)(?<!typeof\s+)fetch\b(?!\s*\??:)/g],
  ["global fetch", /\b(?:globalThis|self|window)\s*\.\s*fetch\b/g],
  [
    "socket",
    /\bDeno\s*\.\s*(?:connect|connectTls|startTls|createHttpClient|resolveDns)\b/g,
  ],
  ["socket", /\bnew\s+(?:WebSocket|EventSource|XMLHttpRequest)\b/g],
];

/** Packages that open connections of their own. */
const CLIENT_PACKAGES =
  /^(?:node:)?(?:http|https|http2|net|tls|dgram)$|^(?:npm:)?(?:undici|axios|node-fetch|ws|got)(?:@|\/|$)/;

/** Vendor SDKs whose clients do HTTP: constructed only with the path's fetch. */
const SDK_PACKAGES =
  /^(?:npm:)?(?:openai|@openrouter\/sdk|@anthropic-ai\/sdk|@modelcontextprotocol\/sdk)(?:@|\/|$)/;

/** SDK constructors, by the callee's last name, and the option that carries the fetch. */
const SDK_CONSTRUCTORS: Readonly<Record<string, RegExp>> = {
  default: /\bfetch\s*:/, // the openai and anthropic SDKs' default export, however it is bound
  Anthropic: /\bfetch\s*:/,
  OpenAI: /\bfetch\s*:/,
  OpenRouter: /\bhttpClient\b/,
  HTTPClient: /\bfetcher\s*:/,
  StreamableHTTPClientTransport: /\bfetch\s*:/,
  SSEClientTransport: /\bfetch\s*:/,
};

/** One finding: `file:line: rule: text`. */
type Finding = string;

function lineOf(source: string, at: number): number {
  return source.slice(0, at).split("\n").length;
}

/** The module specifiers `source` imports (static, re-export, side effect, dynamic). */
function specifiers(code: string, bare: string): { spec: string; at: number }[] {
  const out: { spec: string; at: number }[] = [];
  const forms = [
    /(?<![\w$.])(?:import|export)\b[\w$\s{},*]*?\bfrom\s*(?<q>["'])(?<spec>[^"'\n]*)\k<q>/dg,
    /(?<![\w$.])import\s*(?<q>["'])(?<spec>[^"'\n]*)\k<q>/dg,
    /(?<![\w$.])import\s*\(\s*(?<q>["'])(?<spec>[^"'\n]*)\k<q>/dg,
  ];
  for (const form of forms) {
    for (const m of bare.matchAll(form)) {
      const [from, to] = m.indices!.groups!.spec;
      out.push({ spec: code.slice(from, to), at: m.index });
    }
  }
  return out;
}

/** The text of the argument list opening at `open` (a `(`), balanced, on the masked code. */
function argumentsAt(code: string, open: number): string {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    if (code[i] === "(") depth++;
    else if (code[i] === ")" && --depth === 0) return code.slice(open, i + 1);
  }
  return code.slice(open);
}

/** Every way `source` reaches the network outside the fetch path. */
function findings(file: string, source: string): Finding[] {
  const { code, bare } = maskSource(source);
  const lines = source.split("\n");
  const found: Finding[] = [];
  const report = (at: number, rule: string) => {
    const line = lineOf(source, at);
    found.push(`${file}:${line}: ${rule}: ${lines[line - 1].trim()}`);
  };
  for (const [rule, pattern] of DIRECT) {
    for (const m of bare.matchAll(pattern)) report(m.index, rule);
  }
  const imports = specifiers(code, bare);
  for (const { spec, at } of imports) {
    if (CLIENT_PACKAGES.test(spec)) report(at, `network client package '${spec}'`);
  }
  if (imports.some(({ spec }) => SDK_PACKAGES.test(spec))) {
    for (const m of bare.matchAll(/\bnew\s+(?<callee>[\w$.]+)\s*(?<open>\()/dg)) {
      const name = m.groups!.callee.split(".").at(-1)!;
      const needs = SDK_CONSTRUCTORS[name];
      if (!needs) continue;
      const args = argumentsAt(bare, m.indices!.groups!.open[0]);
      if (!needs.test(args)) report(m.index, `SDK client '${name}' without the path's fetch`);
    }
  }
  return found;
}

function exempt(file: string): boolean {
  return EXEMPT.some(([folder]) => file.startsWith(folder));
}

Deno.test("architecture: no module of lib/ reaches the network outside lib/net/", async () => {
  const files = await libFiles(ROOT);
  assert.ok(files.includes("lib/net/outbound.ts"), "the scan must see the fetch path");
  assert.ok(files.includes("lib/platform/http.ts"), "the scan must see the platform client");
  const found: Finding[] = [];
  for (const file of files) {
    if (exempt(file)) continue;
    found.push(...findings(file, await Deno.readTextFile(`${ROOT}/${file}`)));
  }
  assert.deepEqual(
    found,
    [],
    "send requests through lib/net/outbound.ts (outboundFetch for a configured endpoint, " +
      "handedFetch for a URL a vendor or a peer handed over; docs/security.md#one-fetch-path)",
  );
  // The exempt folders are seen by the scanner (exempt, not invisible): the path dials sockets,
  // and the servers call fetch.
  for (
    const [file, rule] of [
      ["lib/net/pinned_transport.ts", "socket"],
      ["lib/net/outbound.ts", "global fetch"],
      ["lib/net/dns.ts", "socket"],
    ]
  ) {
    const own = findings(file, await Deno.readTextFile(`${ROOT}/${file}`));
    assert.ok(own.some((f) => f.includes(`: ${rule}: `)), `${file} is seen: ${rule}`);
  }
});

Deno.test("architecture: every vendor SDK client in lib/ is built with the path's fetch", async () => {
  // The SDK constructions the harness has: each must be found, and found compliant, so a
  // scanner that stopped seeing them could not pass the test above.
  const sites = [
    "lib/providers/openai.ts",
    "lib/providers/openrouter.ts",
    "lib/providers/anthropic.ts",
    "lib/providers/model_probe.ts",
    "lib/tools/media/openai_media.ts",
    "lib/tools/code/container.ts",
    "lib/memory/recall_embeddings.ts",
    "lib/mcp/client.ts",
  ];
  for (const file of sites) {
    const source = await Deno.readTextFile(`${ROOT}/${file}`);
    const { code, bare } = maskSource(source);
    assert.ok(specifiers(code, bare).some(({ spec }) => SDK_PACKAGES.test(spec)), file);
    const constructions = [...bare.matchAll(/\bnew\s+([\w$.]+)\s*\(/g)]
      .filter((m) => SDK_CONSTRUCTORS[m[1].split(".").at(-1)!] !== undefined);
    assert.ok(constructions.length > 0, `${file} builds an SDK client the scan sees`);
    assert.deepEqual(findings(file, source), [], file);
  }
});

Deno.test("fetch scanner: flags every way of reaching the network, and no comment or string", () => {
  const sdk = 'import OpenAI from "openai";\n';
  const planted: Array<[string, number]> = [
    ['const r = await fetch("https://x");', 1],
    ["const f = inner ?? fetch;", 1],
    ["await globalThis.fetch(url);", 1],
    ["self . fetch(url)", 1],
    ['await Deno.connect({ hostname: "x", port: 1 });', 1],
    ["const t = await Deno.startTls(tcp); Deno.connectTls(o);", 2],
    ["const client = Deno.createHttpClient({});", 1],
    ['await Deno.resolveDns("x", "A");', 1],
    ['const ws = new WebSocket("wss://x");', 1],
    ['import http from "node:http";', 1],
    ['import { request } from "node:https";', 1],
    ['const net = await import("node:net");', 1],
    ['import { request as r } from "npm:undici@6";', 1],
    [`${sdk}const c = new OpenAI({ apiKey: "k" });`, 1],
    [`${sdk}const c = new sdk.default({\n  apiKey: k,\n  baseURL: u,\n});`, 1],
    [`${sdk}const c = new OpenAI({ apiKey: "k", fetch: outboundFetch("model") });`, 0],
    [`${sdk}const c = new module.default({ apiKey: k, fetch: f });`, 0],
    [
      'import { OpenRouter } from "@openrouter/sdk";\nnew OpenRouter({ apiKey: k, httpClient });',
      0,
    ],
    ['import { OpenRouter } from "@openrouter/sdk";\nnew OpenRouter({ apiKey: k });', 1],
    // Not the network: properties, keys, types, comments and strings.
    ["const r = await this.#fetch(url);", 0],
    ["const r = await options.fetch(url);", 0],
    ["const o = { fetch: outboundFetch('mcp') };", 0],
    ["readonly fetch?: typeof fetch;", 0],
    ["// fetch(url) in a comment", 0],
    ["/** {@link fetch} and Deno.connect */\nexport const b = 2;", 0],
    ['const text = "call fetch(x) or Deno.connect";', 0],
    ['import { mediaType } from "./content_type.ts";', 0],
    // A constructor of no SDK, in a file without one, is nothing.
    ["const d = new Date(); const m = new Map();", 0],
  ];
  for (const [source, count] of planted) {
    assert.equal(findings("lib/x.ts", source).length, count, source);
  }
});

Deno.test("fetch scanner: the exemptions are the path and the two servers, nothing else", () => {
  assert.deepEqual(EXEMPT.map(([folder]) => folder), [
    "lib/net/",
    "lib/sandbox/",
    "lib/playground/",
  ]);
  assert.ok(exempt("lib/net/outbound.ts"));
  assert.ok(exempt("lib/sandbox/server.ts"));
  assert.ok(!exempt("lib/platform/http.ts"));
  assert.ok(!exempt("lib/networking.ts"));
});
