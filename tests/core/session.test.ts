/**
 * `FileSessionStore` against files in the Python reference's format: byte-identical re-saves,
 * every message kind round-tripping, tolerant reads, caps on load, clear corruption errors, and
 * the atomic save keeping the old file when a write fails.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type AtomicWriteOps, denoAtomicWriteOps } from "../../lib/base/atomic_write.ts";
import { TOOL_RESULT_CAP } from "../../lib/core/transcript/caps.ts";
import { codePointLength } from "../../lib/base/code_points.ts";
import { Message } from "../../lib/core/types/message.ts";
import { FileSessionStore } from "../../lib/core/transcript/session.ts";
import { TranscriptError } from "../../lib/core/transcript/session_format.ts";

const FIXTURES = new URL("../fixtures/transcripts/", import.meta.url);
const SOURCE = "timeline:5f0c1a2e-8b7d-4e3f-9a6b-1c2d3e4f5a6b";
const FILE = "timeline%3A5f0c1a2e-8b7d-4e3f-9a6b-1c2d3e4f5a6b.json";

/** Runs `body` with a fresh store directory, removed afterwards. */
async function withDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function placeFixture(dir: string, fixture: string): Promise<string> {
  const path = join(dir, FILE);
  await Deno.copyFile(new URL(fixture, FIXTURES), path);
  return path;
}

const fixtureText = (name: string) => Deno.readTextFile(new URL(name, FIXTURES));

Deno.test("a reference transcript loads and re-saves byte-identically when nothing changed", async () => {
  await withDir(async (dir) => {
    const path = await placeFixture(dir, "clean.json");
    const store = new FileSessionStore(dir);
    const messages = await store.load(SOURCE);
    assert.equal(messages.length, 16);
    await store.save(SOURCE, messages);
    // Floats (1.0, 1e-05, 1e+16, -0.0), a 20-digit int, astral and non-ASCII escapes, a
    // replayable create over 2048 and an already-capped result all come back byte for byte.
    assert.equal(await Deno.readTextFile(path), await fixtureText("clean.json"));
  });
});

Deno.test("decoded content is the text, not its escapes", async () => {
  await withDir(async (dir) => {
    await placeFixture(dir, "clean.json");
    const messages = await new FileSessionStore(dir).load(SOURCE);
    assert.ok(messages[1].content?.includes("こんにちは！"));
    assert.ok(messages[1].content?.includes("😀"));
    assert.deepEqual(messages[1].items?.length, 2);
    assert.equal(messages[3].toolCalls?.[0].arguments.ratio, 1);
    assert.equal(messages[3].toolCalls?.[0].arguments.threshold, 0.00001);
    assert.equal(messages[6].injected, true);
    assert.equal(messages[8].content, null);
  });
});

Deno.test("every message kind round-trips; images, cache anchors and usage are never written", async () => {
  await withDir(async (dir) => {
    const store = new FileSessionStore(dir);
    const assistant = Message.assistant({
      content: "Checking.",
      toolCalls: [{ id: "c1", name: "messages", arguments: { action: "list", limit: 5 } }],
      usage: { tokensIn: 10, tokensOut: 2, cost: 0.001 },
    });
    assistant.cacheAnchor = true;
    const shown = Message.user("(Showing image: cat.png)", { injected: true });
    shown.images = [{ alt: "cat.png", mimeType: "image/png", data: "iVBORw0KGgo=" }];
    const live: Message[] = [
      Message.system("charter"),
      Message.user("[2026-08-18 12:00:00] @kenji: hi 🎉", { items: ["u1", "u2"] }),
      Message.system("Current Time: 2026-08-18 12:00:01 UTC\n\nStep 1 of 24."),
      assistant,
      Message.tool("c1", "[]"),
      shown,
      Message.assistant({ toolCalls: [{ id: "c2", name: "memory", arguments: {} }] }),
      Message.tool("c2", ""),
      Message.assistant({ content: "All done." }),
      Message.user("ok", { items: [] }),
      { role: "system", content: "[Earlier conversation compacted: …]\n\nnotes", items: ["u0"] },
    ];
    const before = structuredClone(live);
    await store.save(SOURCE, live);
    assert.deepEqual(live, before, "save never edits the live list");
    const text = await Deno.readTextFile(store.pathFor(SOURCE));
    for (const never of ["images", "iVBOR", "cache", "usage", "tokens", "mimeType"]) {
      assert.ok(!text.includes(never), never);
    }
    const loaded = await store.load(SOURCE);
    const expected = before.map((m) => {
      const { images: _i, cacheAnchor: _c, usage: _u, ...kept } = m;
      return { ...kept, content: kept.content ?? null };
    });
    assert.deepEqual(loaded, expected);
  });
});

Deno.test("missing keys are tolerated and unknown ones ignored, as the reference reads them", async () => {
  await withDir(async (dir) => {
    const path = await placeFixture(dir, "tolerant.json");
    const store = new FileSessionStore(dir);
    const messages = await store.load(SOURCE);
    assert.deepEqual(messages[1].toolCalls, [{ id: "c1", name: "memory", arguments: {} }]);
    assert.equal(messages[3].items, undefined);
    await store.save(SOURCE, messages);
    assert.equal(await Deno.readTextFile(path), await fixtureText("tolerant.saved.json"));
  });
});

Deno.test("a transcript written before the caps is capped on load, and re-saving is a fixed point", async () => {
  await withDir(async (dir) => {
    const path = await placeFixture(dir, "uncapped.json");
    const store = new FileSessionStore(dir);
    const messages = await store.load(SOURCE);
    const results = messages.filter((m) => m.role === "tool").map((m) => m.content as string);
    assert.ok(results[0].includes("elided of 9007"), "the orphan alone");
    assert.ok(results[1].includes("elided of 62000") && codePointLength(results[1]) < 4096);
    const fanOut = results.slice(2).reduce((n, r) => n + codePointLength(r), 0);
    assert.ok(fanOut <= TOOL_RESULT_CAP);
    assert.equal(results[3], "small result");

    await store.save(SOURCE, messages);
    const first = await Deno.readTextFile(path);
    await store.save(SOURCE, await store.load(SOURCE));
    assert.equal(await Deno.readTextFile(path), first);
  });
});

Deno.test("a corrupt transcript is a clear error naming the file", async () => {
  await withDir(async (dir) => {
    const store = new FileSessionStore(dir);
    const path = await placeFixture(dir, "corrupt.json");
    await assert.rejects(store.load(SOURCE), (error: Error) => {
      assert.ok(error instanceof TranscriptError);
      assert.equal(error.path, path);
      assert.match(error.message, /^corrupt transcript .*timeline%3A.*\.json: not valid JSON/);
      return true;
    });
    await Deno.copyFile(new URL("not-a-transcript.json", FIXTURES), path);
    await assert.rejects(store.load(SOURCE), (error: Error) => {
      assert.ok(error instanceof TranscriptError);
      assert.ok(error.message.includes(path));
      assert.match(error.message, /message 1 role/);
      assert.match(error.message, /message 1 content/);
      return true;
    });
    await Deno.writeFile(path, new Uint8Array([0x5b, 0xff, 0x5d]));
    await assert.rejects(store.load(SOURCE), /not valid UTF-8/);
  });
});

Deno.test("no file is an empty transcript; the directory is created on the first save", async () => {
  await withDir(async (dir) => {
    const store = new FileSessionStore(join(dir, "a", "sessions"));
    assert.deepEqual(await store.load(SOURCE), []);
    assert.deepEqual(await store.sources(), []);
    await store.save(SOURCE, [Message.user("hello")]);
    assert.equal(
      await Deno.readTextFile(join(dir, "a", "sessions", FILE)),
      '[\n  {\n    "role": "user",\n    "content": "hello"\n  }\n]',
    );
    await store.save(SOURCE, []);
    assert.equal(await Deno.readTextFile(join(dir, "a", "sessions", FILE)), "[]");
  });
});

Deno.test("files are named quote(source) and sources() unquotes them", async () => {
  await withDir(async (dir) => {
    const store = new FileSessionStore(dir);
    assert.equal(store.pathFor(SOURCE), join(dir, FILE));
    for (const source of [SOURCE, "github:pr-123", "default", "a b/c?é"]) {
      await store.save(source, [Message.user(source)]);
    }
    await Deno.writeTextFile(join(dir, `${FILE}.123-abcdef01.tmp`), "stray temp");
    await Deno.writeTextFile(join(dir, "notes.txt"), "not a transcript");
    assert.deepEqual(await store.sources(), ["a b/c?é", "default", "github:pr-123", SOURCE]);
    assert.ok(
      (await Array.fromAsync(Deno.readDir(dir))).some((e) => e.name === "a%20b%2Fc%3F%C3%A9.json"),
    );
  });
});

Deno.test("a crash mid-save leaves the previous transcript byte-identical and no temp file", async () => {
  await withDir(async (dir) => {
    const path = await placeFixture(dir, "clean.json");
    const original = await Deno.readTextFile(path);
    const failingRename: AtomicWriteOps = {
      ...denoAtomicWriteOps,
      rename: () => Promise.reject(new Error("disk went away")),
    };
    const store = new FileSessionStore(dir, { writeOps: failingRename });
    await assert.rejects(store.save(SOURCE, [Message.user("new")]), /disk went away/);
    assert.equal(await Deno.readTextFile(path), original);
    const names = (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name);
    assert.deepEqual(names, [FILE]);
  });
});

Deno.test("a capped call keeps Python's spelling of its untouched numbers (1.0 stays 1.0)", async () => {
  await withDir(async (dir) => {
    const path = join(dir, FILE);
    const body = "b".repeat(9000);
    // As the reference writes it: a create already answered, so its arguments get capped.
    const python = '[\n  {\n    "role": "assistant",\n    "tool_calls": [\n      {\n' +
      '        "id": "c",\n        "name": "messages",\n        "arguments": {\n' +
      `          "action": "create",\n          "ratio": 1.0,\n          "body": "${body}"\n` +
      '        }\n      }\n    ]\n  },\n  {\n    "role": "tool",\n    "content": "ok",\n' +
      '    "tool_call_id": "c"\n  }\n]';
    await Deno.writeTextFile(path, python);
    const store = new FileSessionStore(dir);
    await store.save(SOURCE, await store.load(SOURCE));
    const saved = await Deno.readTextFile(path);
    assert.ok(saved.includes('"ratio": 1.0,'));
    assert.ok(saved.includes("elided from 9000 chars"));
    await store.save(SOURCE, await store.load(SOURCE));
    assert.equal(await Deno.readTextFile(path), saved);
  });
});

Deno.test("a 10,000-message transcript saves as a fixed point", async () => {
  const { largeTranscript } = await import("./session_large.ts");
  await withDir(async (dir) => {
    const store = new FileSessionStore(dir);
    await store.save(SOURCE, largeTranscript(10_000));
    const first = await Deno.readTextFile(store.pathFor(SOURCE));
    const loaded = await store.load(SOURCE);
    assert.ok(loaded.length > 10_000);
    await store.save(SOURCE, loaded);
    const second = await Deno.readTextFile(store.pathFor(SOURCE));
    // The one change is the sentinel healed in for the dangling call at the end.
    assert.ok(second.startsWith(first.slice(0, -"\n]".length)));
    await store.save(SOURCE, await store.load(SOURCE));
    assert.equal(await Deno.readTextFile(store.pathFor(SOURCE)), second);
  });
});
