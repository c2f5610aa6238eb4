/**
 * docs/invariants.md#2-the-gate-is-the-only-way-out: no module but `lib/gate/**` creates a
 * message on the platform (`lib/platform` defines the call, `lib/sandbox` is the server). The
 * scanner is proven on known-bad and known-good snippets first, so a silent scanner cannot pass.
 */
import { strict as assert } from "node:assert";
import { fileURLToPath } from "node:url";
import { libFiles, scanLib, scanSource, type Violation } from "./gate_scan.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");

/**
 * Known exceptions, each with its reason. A finding is excused only by an exact (file, rule,
 * line text) entry, and an entry nothing matches any more fails the test, so the list can only
 * shrink.
 */
const EXCEPTIONS: ReadonlyArray<Omit<Violation, "line"> & { readonly why: string }> = [
  {
    file: "lib/providers/anthropic.ts",
    rule: "messages.create call",
    text: "reply = await client.messages.create(",
    why: "the anthropic SDK's Messages API: one model call, on the model's own client (the " +
      "providers layer cannot import the platform client); nothing reaches a timeline",
  },
];

function excused(v: Violation): boolean {
  return EXCEPTIONS.some((e) => e.file === v.file && e.rule === v.rule && e.text === v.text);
}

function report(violations: readonly Violation[]): string {
  return violations.map((v) => `${v.file}:${v.line}: ${v.rule} — ${v.text}`).join("\n");
}

Deno.test("architecture: only lib/gate creates messages on the platform", async () => {
  const files = await libFiles(ROOT);
  assert.ok(files.includes("lib/tools/messages.ts"), "the scan must cover the messages tool");
  assert.ok(files.includes("lib/gate/deliver.ts"), "the scan must see the gate");
  const all = await scanLib(ROOT);
  const offending = all.filter((v) => !excused(v));
  assert.equal(
    offending.length,
    0,
    `Only lib/gate may create messages (post through context.gate.post / Gate):\n${
      report(offending)
    }`,
  );
  const stale = EXCEPTIONS.filter((e) =>
    !all.some((v) => v.file === e.file && v.rule === e.rule && v.text === e.text)
  );
  assert.deepEqual(stale, [], "an exception nothing needs any more: remove it");
});

Deno.test("architecture: the scanner sees the gate's own create call (it is not blind)", async () => {
  const file = "lib/gate/deliver.ts";
  const found = scanSource(file, await Deno.readTextFile(`${ROOT}/${file}`));
  assert.deepEqual(found.map((v) => v.rule), ["messages.create call"]);
  assert.match(found[0].text, /client\.messages\.create\(/);
});

const BAD: Array<[string, string, string]> = [
  ["direct call", "await client.messages.create(t, { body });", "messages.create call"],
  [
    "split across lines",
    "await this.#client\n  .messages\n  .create(t, { body });",
    "messages.create call",
  ],
  ["optional chaining", "ctx.client?.messages?.create(t, b);", "messages.create call"],
  ["bracket access", 'client.messages["create"](t, b);', "messages['create'] access"],
  [
    "namespace alias",
    "const m = context.client.messages;\nawait m.create(t, b);",
    "client.messages used for more than a read",
  ],
  [
    "namespace passed along",
    "post(this.client.messages, t);",
    "client.messages used for more than a read",
  ],
  ["client bracket", 'const m = client["messages"];', "client['messages'] access"],
  [
    "destructuring",
    "const { messages: m } = context.client;",
    "messages destructured from a client",
  ],
  [
    "the API class",
    'import { MessagesApi } from "../platform/messages.ts";',
    "MessagesApi used directly",
  ],
  [
    "raw request path",
    'await fetch(`${base}/timelines/${t}/messages`, { method: "POST" });',
    "raw /messages request path",
  ],
  ["raw path string", 'const path = "/timelines/{uuid}/messages";', "raw /messages request path"],
];

for (const [label, source, rule] of BAD) {
  Deno.test(`architecture scanner: flags ${label}`, () => {
    const found = scanSource("lib/x.ts", `const a = 1;\n${source}\n`);
    const last = 1 + source.split("\n").length;
    assert.ok(
      found.some((v) => v.rule === rule && v.line >= 2 && v.line <= last),
      JSON.stringify(found),
    );
  });
}

Deno.test("architecture scanner: reads, comments, prose and the engine's own messages pass", () => {
  const source = [
    "// never call client.messages.create here; see lib/gate",
    '/* client.messages.create(x) and "/timelines/{uuid}/messages" in a block comment */',
    "const rows = await context.client.messages.list({ timeline, limit: 51 }).toArray();",
    "const one = await this.#client.messages.get(uuid);",
    "const page = await client.messages.page({ timeline });",
    "this.messages.push(Message.tool(call.id, text));",
    'const name = "messages";',
    'import { MessagesTool } from "../tools/messages.ts";',
    'const url = "https://example.com/docs"; // a URL is not a comment start',
    "const re = /[\"']\\/\\//; const after = client.messages.get(u);",
    "await context.gate.post({ timeline, body, kind: 'tool' });",
  ].join("\n");
  assert.deepEqual(scanSource("lib/x.ts", source), []);
});

Deno.test("architecture scanner: code after a URL string is still scanned", () => {
  const source = 'const u = "https://x.test/a"; await client.messages.create(t, b);';
  assert.deepEqual(scanSource("lib/x.ts", source).map((v) => v.rule), ["messages.create call"]);
});

Deno.test("architecture: a bypass planted in a lib tree is found, naming file and line", async () => {
  const root = await Deno.makeTempDir({ prefix: "gate-scan-" });
  try {
    await Deno.mkdir(`${root}/lib/wake`, { recursive: true });
    await Deno.mkdir(`${root}/lib/gate`, { recursive: true });
    const sneaky =
      "// a helper\nconst api = ctx.client.messages;\nawait api.create(t, { body });\n";
    await Deno.writeTextFile(`${root}/lib/wake/sneaky.ts`, sneaky);
    await Deno.writeTextFile(`${root}/lib/gate/deliver.ts`, "client.messages.create(t, b);\n");
    const found = await scanLib(root);
    assert.deepEqual(found.map((v) => `${v.file}:${v.line}: ${v.rule}`), [
      "lib/wake/sneaky.ts:2: client.messages used for more than a read",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
