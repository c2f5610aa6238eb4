/**
 * The knowledge pack (docs/context.md#the-knowledge-pack), read from a real folder: what is
 * rendered and in which order, what is normalised so the bytes stay stable, what is ignored, and
 * every refusal — each naming the file, the cap and the fix, never a silent cut.
 */
import assert from "node:assert/strict";
import { ConfigError } from "../../lib/config/errors.ts";
import {
  EMPTY_KNOWLEDGE_SHA256,
  KNOWLEDGE_FILE_CAP,
  KNOWLEDGE_INTRO,
  KNOWLEDGE_TOTAL_CAP,
  loadKnowledgePack,
} from "../../lib/config/knowledge.ts";
import { sha256Hex } from "../../lib/base/sha256.ts";

/** A config home with `files` in `knowledge/` (strings as UTF-8, arrays as raw bytes). */
async function homeWith(files: Record<string, string | Uint8Array>): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "knowledge-" });
  await Deno.mkdir(`${home}/knowledge`);
  for (const [name, body] of Object.entries(files)) {
    const path = `${home}/knowledge/${name}`;
    if (typeof body === "string") await Deno.writeTextFile(path, body);
    else await Deno.writeFile(path, body);
  }
  return home;
}

async function refusal(home: string): Promise<ConfigError> {
  const error = await loadKnowledgePack(home).then(() => undefined, (e) => e);
  assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${error}`);
  return error;
}

Deno.test("knowledge: no folder and an empty folder are the empty pack, with the sha256 of no bytes", async () => {
  const bare = await Deno.makeTempDir();
  const empty = await homeWith({});
  const blank = await homeWith({ "blank.md": " \n\r\n<!-- only a note -->\n" });
  for (const home of [bare, empty, blank]) {
    const pack = await loadKnowledgePack(home);
    assert.equal(pack.text, "");
    assert.deepEqual(pack.files, []);
    assert.equal(pack.sha256, EMPTY_KNOWLEDGE_SHA256);
  }
  assert.equal(EMPTY_KNOWLEDGE_SHA256, sha256Hex(new Uint8Array()));
});

Deno.test("knowledge: files render in byte order of their names, each under its header, hashed as rendered", async () => {
  // UTF-16 order would put the emoji (a surrogate pair, 0xD83D…) before the fullwidth A
  // (0xFF21); UTF-8 byte order puts EF BC A1 before F0 9F 98 80. Upper case sorts before lower.
  const home = await homeWith({
    "b.md": "B facts",
    "😀.md": "emoji facts",
    "Ａ.md": "fullwidth facts",
    "a.md": "a facts",
    "C.md": "C facts",
  });
  const pack = await loadKnowledgePack(home);
  assert.deepEqual(pack.files.map((f) => f.name), ["C.md", "a.md", "b.md", "Ａ.md", "😀.md"]);
  assert.equal(
    pack.text,
    [
      KNOWLEDGE_INTRO,
      "=== knowledge/C.md ===\nC facts",
      "=== knowledge/a.md ===\na facts",
      "=== knowledge/b.md ===\nB facts",
      "=== knowledge/Ａ.md ===\nfullwidth facts",
      "=== knowledge/😀.md ===\nemoji facts",
    ].join("\n\n"),
  );
  assert.equal(pack.sha256, sha256Hex(new TextEncoder().encode(pack.text)));
  assert.deepEqual(pack.files.map((f) => f.bytes), [7, 7, 7, 15, 11]);
});

Deno.test("knowledge: CRLF, a lone CR, a byte-order mark, notes and end blank lines never change the bytes", async () => {
  const lf = await loadKnowledgePack(
    await homeWith({ "x.md": "line one\nline two\n  indented\n" }),
  );
  const variants = [
    "\r\nline one\r\nline two\r\n  indented\r\n\r\n",
    "line one\rline two\r  indented\r",
    "\uFEFFline one\nline two\n  indented",
    "\n\nline one\n<!-- operator note -->line two\n  indented\n\n\n",
  ];
  for (const body of variants) {
    const pack = await loadKnowledgePack(await homeWith({ "x.md": body }));
    assert.equal(pack.text, lf.text, JSON.stringify(body));
    assert.equal(pack.sha256, lf.sha256);
  }
  // Indentation and inner blank lines are content: they are kept.
  assert.ok(lf.text.endsWith("line one\nline two\n  indented"));
});

Deno.test("knowledge: hidden files, other extensions and folders are not part of the pack", async () => {
  const home = await homeWith({
    "kept.md": "kept",
    ".#kept.md": "an editor lock",
    ".hidden.md": "hidden",
    "notes.txt": "not markdown",
    "kept.md.swp": "swap",
  });
  await Deno.mkdir(`${home}/knowledge/folder.md`);
  await Deno.writeTextFile(`${home}/knowledge/folder.md/inner.md`, "inner");
  const pack = await loadKnowledgePack(home);
  assert.deepEqual(pack.files.map((f) => f.name), ["kept.md"]);
  assert.ok(!pack.text.includes("inner") && !pack.text.includes("lock"));
});

Deno.test("knowledge: a file over its cap refuses, naming the file, the cap and the fix; at the cap it loads whole", async () => {
  const atCap = "x".repeat(KNOWLEDGE_FILE_CAP);
  const pack = await loadKnowledgePack(await homeWith({ "full.md": atCap }));
  assert.ok(pack.text.endsWith(atCap), "a file at the cap is rendered whole");
  const home = await homeWith({ "ok.md": "fine", "big.md": `${atCap}y` });
  const error = await refusal(home);
  const path = `${home}/knowledge/big.md`;
  assert.equal(error.variable, path);
  assert.equal(
    error.message,
    `Knowledge file ${path} is 32,769 bytes, over the 32,768-byte cap for one knowledge file; ` +
      "split it into smaller files or shorten it (a knowledge file is never cut).",
  );
});

Deno.test("knowledge: a pack over the total cap refuses as a whole, naming the folder and the fix", async () => {
  const files: Record<string, string> = {};
  const per = KNOWLEDGE_FILE_CAP;
  for (let i = 0; i <= KNOWLEDGE_TOTAL_CAP / per; i++) files[`part-${i}.md`] = "k".repeat(per);
  const home = await homeWith(files);
  const error = await refusal(home);
  assert.equal(error.variable, `${home}/knowledge`);
  assert.match(error.message, /holds 163,840 bytes in 5 \.md file\(s\), over the 131,072-byte cap/);
  assert.match(error.message, /move what the agent does not need on every turn out of knowledge\//);
  // One file fewer fits exactly.
  await Deno.remove(`${home}/knowledge/part-4.md`);
  assert.equal((await loadKnowledgePack(home)).files.length, 4);
});

Deno.test("knowledge: a file that is not UTF-8 refuses, and every bad file is named in one sentence", async () => {
  const home = await homeWith({
    "latin1.md": new Uint8Array([0x63, 0x61, 0x66, 0xe9]), // "café" in Latin-1
    "big.md": "z".repeat(KNOWLEDGE_FILE_CAP + 1),
    "good.md": "good",
  });
  const error = await refusal(home);
  assert.deepEqual(error.issues.map((i) => i.variable), [
    `${home}/knowledge/big.md`,
    `${home}/knowledge/latin1.md`,
  ]);
  assert.match(error.message, /latin1\.md is not valid UTF-8; save it as UTF-8 or remove it\./);
});

Deno.test("knowledge: an unreadable file or a knowledge path that is not a folder refuses, naming it", async () => {
  const home = await homeWith({});
  await Deno.symlink(`${home}/nowhere.md`, `${home}/knowledge/dangling.md`);
  const error = await refusal(home);
  assert.equal(error.variable, `${home}/knowledge/dangling.md`);
  assert.match(
    error.message,
    /could not be read: .*Fix its permissions \(or the link it follows\)/,
  );
  const file = await Deno.makeTempDir();
  await Deno.writeTextFile(`${file}/knowledge`, "not a folder");
  const notDir = await refusal(file);
  assert.equal(notDir.variable, `${file}/knowledge`);
  assert.match(notDir.message, /Make it a readable folder of \.md files, or remove it/);
});
