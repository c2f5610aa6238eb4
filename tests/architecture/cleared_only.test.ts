/**
 * docs/architecture.md#the-gate-is-the-only-way-out, for every surface: only `lib/gate/` seals a
 * `ClearedText`, and every create call of the platform client that sends agent text (a message,
 * an asset, a task, a webhook endpoint) takes one and no raw string. The scanners are proven on
 * known-bad and known-good snippets first, so a silent scanner cannot pass; the compiler and the
 * run-time backstop are proven too.
 */
import { strict as assert } from "node:assert";
import { fileURLToPath } from "node:url";
import { libFiles, type Violation } from "./gate_scan.ts";
import { scanCreates, scanSeal, SEALERS, TEXT_CREATES } from "./cleared_scan.ts";
import { ClearedText, PlatformClient } from "../../lib/platform/mod.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");

/**
 * Platform files that send words no agent writes, each with its reason. A file is excused only
 * while it has findings, so the list can only shrink.
 */
const NOT_AGENT_TEXT: Readonly<Record<string, string>> = {
  "lib/platform/admin.ts": "addNote is the operator's admin API on contact messages; no tool " +
    "or wake path calls it",
  "lib/platform/webhook_events.ts": "ingest is an external sender's delivery to an endpoint " +
    "(tests and the demo's sender); the agent never sends a webhook",
};

const sealer = (file: string) => SEALERS.some((allowed) => file.startsWith(allowed));

Deno.test("architecture: nothing outside lib/gate seals agent text", async () => {
  const files = await libFiles(ROOT);
  assert.ok(files.includes("lib/tools/assets.ts"), "the scan must cover the tools");
  const found: Violation[] = [];
  for (const file of files.filter((f) => !sealer(f))) {
    found.push(...scanSeal(file, await Deno.readTextFile(`${ROOT}/${file}`)));
  }
  assert.deepEqual(
    found.map((v) => `${v.file}:${v.line}: ${v.rule} — ${v.text}`),
    [],
    "Only lib/gate may seal a ClearedText (ask the gate: context.gate.clear / Gate.clear)",
  );
});

Deno.test("architecture: the seal scanner sees the gate's own seal (it is not blind)", async () => {
  const file = "lib/gate/clear.ts";
  const found = scanSeal(file, await Deno.readTextFile(`${ROOT}/${file}`));
  assert.deepEqual(found.map((v) => v.rule), ["ClearedText.seal call"]);
});

Deno.test("architecture: every text create of the platform client takes a ClearedText", async () => {
  const platform = (await libFiles(ROOT)).filter((f) => f.startsWith("lib/platform/"));
  for (const file of Object.keys(TEXT_CREATES)) assert.ok(platform.includes(file), file);
  const found: Violation[] = [];
  for (const file of platform) {
    found.push(...scanCreates(file, await Deno.readTextFile(`${ROOT}/${file}`)));
  }
  const offending = found.filter((v) => NOT_AGENT_TEXT[v.file] === undefined);
  assert.deepEqual(offending.map((v) => `${v.file}:${v.line}: ${v.rule} — ${v.text}`), []);
  const stale = Object.keys(NOT_AGENT_TEXT).filter((file) => !found.some((v) => v.file === file));
  assert.deepEqual(stale, [], "an exception nothing needs any more: remove it");
  // Nothing but the platform client itself reaches the excused calls from lib/.
  for (const file of (await libFiles(ROOT)).filter((f) => !f.startsWith("lib/platform/"))) {
    const code = await Deno.readTextFile(`${ROOT}/${file}`);
    if (file.startsWith("lib/sandbox/") || file.startsWith("lib/cli/demo/")) continue;
    assert.doesNotMatch(code, /\.addNote\s*\(/, `${file} adds a note`);
  }
});

const SEAL_BAD: Array<[string, string]> = [
  ["a direct seal", 'ClearedText.seal("task", { instructions, activateAt }, [v]);'],
  ["optional chaining", "ClearedText?.seal(s, f, v);"],
  ["bracket access", 'ClearedText["seal"](s, f, v);'],
  ["destructuring", "const { seal } = ClearedText;"],
  ["an alias", "const C = ClearedText;\nC.seal(s, f, v);"],
  ["passed along", "mint(ClearedText, fields);"],
];

for (const [label, source] of SEAL_BAD) {
  Deno.test(`architecture seal scanner: flags ${label}`, () => {
    assert.ok(scanSeal("lib/x.ts", `const a = 1;\n${source}\n`).length > 0);
  });
}

Deno.test("architecture seal scanner: types, imports, is() and prose pass", () => {
  const source = [
    'import { ClearedText, type Message } from "../platform/mod.ts";',
    'import { type Asset, ClearedText } from "../platform/mod.ts";',
    "// ClearedText.seal is the gate's; see lib/gate/clear.ts",
    'function f(cleared: ClearedText<"task">): ClearedText<"task"> { return cleared; }',
    'if (ClearedText.is(value, "asset")) use(value);',
    'const cleared = await context.gate.clear({ surface: "task", fields });',
  ].join("\n");
  assert.deepEqual(scanSeal("lib/x.ts", source), []);
});

Deno.test("architecture create scanner: a raw-string text create is flagged", () => {
  const raw = [
    "async create(timeline: string, input: { readonly description: string }, o = {}) {",
    '  return this.#t.json({ method: "POST", json: { thing: { description: input.description } } });',
    "}",
  ].join("\n");
  assert.equal(scanCreates("lib/platform/webhook_endpoints.ts", raw).length, 1);
  // A new file that posts a description is flagged until it takes a ClearedText.
  assert.ok(scanCreates("lib/platform/notes.ts", raw).length > 0);
  const typed = [
    'async create(timeline: string, endpoint: ClearedText<"webhook_endpoint">, o = {}) {',
    '  return this.#t.json({ method: "POST", json: { w: { description: f.description } } });',
    "}",
  ].join("\n");
  assert.deepEqual(scanCreates("lib/platform/webhook_endpoints.ts", typed), []);
  // The wrong surface's text is not this create's.
  assert.equal(
    scanCreates("lib/platform/tasks.ts", typed.replace("webhook_endpoint", "asset")).length,
    1,
  );
});

Deno.test("a ClearedText is made only by its seal, and a create call refuses anything else", async () => {
  const bare = ClearedText as unknown as new (...a: unknown[]) => unknown;
  assert.throws(
    () => new bare(Symbol("forged"), "task", {}, [{ check: "x", passed: true }]),
    TypeError,
  );
  assert.throws(() => ClearedText.seal("webhook_endpoint", { description: "d" }, []), TypeError);
  assert.throws(
    () =>
      ClearedText.seal("webhook_endpoint", { description: "d" }, [{ check: "x", passed: false }]),
    TypeError,
  );
  let requests = 0;
  const client = new PlatformClient({
    baseUrl: "http://127.0.0.1:9",
    token: "t",
    fetch: () => (requests++, Promise.reject(new Error("must not be reached"))),
  });
  const tl = "0190f0a4-0000-7000-8000-000000000001";
  const forged = {
    surface: "task",
    fields: { instructions: "x", activateAt: "+1h" },
    verdicts: [],
  };
  await assert.rejects(client.tasks.create(tl, forged as never), TypeError);
  const other = ClearedText.seal("webhook_endpoint", { description: "d" }, [{
    check: "x",
    passed: true,
  }]);
  await assert.rejects(client.tasks.create(tl, other as never), /cleared for 'task'/);
  await assert.rejects(client.messages.create(tl, { body: "hi" } as never), TypeError);
  await assert.rejects(
    client.assets.create(tl, { file: new Uint8Array(), filename: "a.txt" } as never),
    TypeError,
  );
  await assert.rejects(
    client.webhookEndpoints.create(tl, { description: "d" } as never),
    TypeError,
  );
  assert.equal(requests, 0, "nothing reached the wire");
  // The compiler refuses the raw shapes too: each line fails to type-check without the cast.
  // @ts-expect-error a raw body is not a ClearedText<"message">
  const unchecked = () => client.messages.create(tl, { body: "hi" });
  // @ts-expect-error a ClearedText of another surface is not this create's
  const crossed = () => client.tasks.create(tl, other);
  assert.equal(typeof unchecked + typeof crossed, "functionfunction");
});
