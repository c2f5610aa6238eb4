import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { MemoryTool } from "../../lib/memory/memory_tool.ts";
import { SqliteMemoryStore } from "../../lib/memory/sqlite_store.ts";
import { rawDb, tempHome, thrown } from "./helpers.ts";

function toolIn(home: string): MemoryTool {
  return new MemoryTool({ home });
}

Deno.test("write then read returns the raw value; the reference's reply wording", async () => {
  using dir = tempHome();
  const tool = toolIn(dir.home);
  assert.deepEqual(
    await tool.run({ action: "write", key: "home_city", value: "Dallas, Texas" }),
    "Remembered 'home_city'.",
  );
  assert.deepEqual(await tool.run({ action: "read", key: "home_city" }), "Dallas, Texas");
  tool.close();
});

Deno.test("write is an upsert that keeps created_at and refreshes updated_at", async () => {
  using dir = tempHome();
  const store = new SqliteMemoryStore({ home: dir.home });
  const tool = new MemoryTool({ store });
  await tool.run({ action: "write", key: "k", value: "first" });
  const before = store.entry("k");
  await new Promise((r) => setTimeout(r, 15));
  await tool.run({ action: "write", key: "k", value: "second" });
  const after = store.entry("k");
  assert.ok(before && after);
  assert.deepEqual(after.value, "second");
  assert.deepEqual(after.createdAt, before.createdAt);
  assert.notEqual(after.updatedAt, before.updatedAt);
  assert.match(after.updatedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/);
  assert.deepEqual(await tool.run({ action: "list" }), "k");
  store.close();
});

Deno.test("an empty value is stored (only a missing value is an error)", async () => {
  using dir = tempHome();
  const tool = toolIn(dir.home);
  assert.deepEqual(
    await tool.run({ action: "write", key: "blank", value: "" }),
    "Remembered 'blank'.",
  );
  assert.deepEqual(await tool.run({ action: "read", key: "blank" }), "");
  tool.close();
});

Deno.test("read miss lists the stored keys, sorted, or says there are none", async () => {
  using dir = tempHome();
  const tool = toolIn(dir.home);
  assert.deepEqual(
    await tool.run({ action: "read", key: "nope" }),
    "No memory stored under 'nope'. You have no memories yet.",
  );
  await tool.run({ action: "write", key: "zeta", value: "1" });
  await tool.run({ action: "write", key: "alpha", value: "2" });
  assert.deepEqual(
    await tool.run({ action: "read", key: "nope" }),
    "No memory stored under 'nope'. Stored keys: alpha, zeta.",
  );
  tool.close();
});

Deno.test("list: sorted keys joined by ', ', or the empty reply", async () => {
  using dir = tempHome();
  const tool = toolIn(dir.home);
  assert.deepEqual(await tool.run({ action: "list" }), "No memories stored yet.");
  for (const key of ["b", "a", "c"]) await tool.run({ action: "write", key, value: key });
  assert.deepEqual(await tool.run({ action: "list" }), "a, b, c");
  tool.close();
});

Deno.test("delete forgets a key, and says so when there was nothing", async () => {
  using dir = tempHome();
  const tool = toolIn(dir.home);
  await tool.run({ action: "write", key: "temp", value: "x" });
  assert.deepEqual(await tool.run({ action: "delete", key: "temp" }), "Forgot 'temp'.");
  assert.deepEqual(
    await tool.run({ action: "delete", key: "temp" }),
    "No memory stored under 'temp'; nothing to delete.",
  );
  assert.deepEqual(await tool.run({ action: "list" }), "No memories stored yet.");
  assert.deepEqual(await tool.run({ action: "search", query: "x" }), "No memories match 'x'.");
  tool.close();
});

Deno.test("search matches values and keys, with the reference's exact wording", async () => {
  using dir = tempHome();
  const tool = toolIn(dir.home);
  await tool.run({ action: "write", key: "home_city", value: "Dallas, Texas" });
  await tool.run({ action: "write", key: "pet", value: "a cat named Miso" });
  assert.deepEqual(
    await tool.run({ action: "search", query: "texas" }),
    "Memories matching 'texas':\nhome_city: Dallas, Texas",
  );
  // The key is indexed too: 'pet' appears only in the key.
  assert.deepEqual(
    await tool.run({ action: "search", query: "pet" }),
    "Memories matching 'pet':\npet: a cat named Miso",
  );
  // Terms are OR-joined: either one recalls its row.
  const both = await tool.run({ action: "search", query: "miso dallas" });
  assert.ok(
    both.includes("home_city: Dallas, Texas") && both.includes("pet: a cat named Miso"),
    both,
  );
  assert.deepEqual(
    await tool.run({ action: "search", query: "houston" }),
    "No memories match 'houston'.",
  );
  tool.close();
});

Deno.test("search follows updates and deletes (the FTS triggers keep the index in sync)", async () => {
  using dir = tempHome();
  const tool = toolIn(dir.home);
  await tool.run({ action: "write", key: "city", value: "Dallas" });
  await tool.run({ action: "write", key: "city", value: "Austin" });
  assert.deepEqual(
    await tool.run({ action: "search", query: "dallas" }),
    "No memories match 'dallas'.",
  );
  assert.deepEqual(
    await tool.run({ action: "search", query: "austin" }),
    "Memories matching 'austin':\ncity: Austin",
  );
  await tool.run({ action: "delete", key: "city" });
  assert.deepEqual(
    await tool.run({ action: "search", query: "austin" }),
    "No memories match 'austin'.",
  );
  tool.close();
});

Deno.test("search shows the first 20 and says there may be more", async () => {
  using dir = tempHome();
  const tool = toolIn(dir.home);
  for (let i = 0; i < 25; i++) {
    await tool.run({ action: "write", key: `note_${i}`, value: "common word" });
  }
  const reply = await tool.run({ action: "search", query: "common" });
  const lines = reply.split("\n");
  assert.deepEqual(lines[0], "Memories matching 'common':");
  assert.deepEqual(lines.length, 1 + 20 + 1);
  assert.deepEqual(lines.at(-1), "(showing the first 20; there may be more — refine the query)");
  tool.close();
});

Deno.test("FTS operator characters and quotes in a query are plain text, never a syntax error", async () => {
  using dir = tempHome();
  const tool = toolIn(dir.home);
  await tool.run({
    action: "write",
    key: "quote",
    value: 'she said "hello" AND left (early) at 10:30 - ok*',
  });
  const queries = [
    '"',
    '""',
    '"hello',
    "hello*",
    "*",
    "AND",
    "OR",
    "NOT",
    "NEAR(hello left)",
    "-",
    "-hello",
    "(",
    "(early",
    "early)",
    ":",
    "key:quote",
    "value:hello",
    "^hello",
    "hello AND",
    "AND OR NOT",
    "it's",
    "a\\b",
    "{key}: x",
    "+",
    "'",
    "%",
    "_",
  ];
  for (const query of queries) {
    const reply = await tool.run({ action: "search", query });
    assert.ok(
      reply.startsWith("Memories matching ") || reply.startsWith("No memories match "),
      `${query} → ${reply}`,
    );
  }
  // Operators are searched as words: 'AND' finds the row that contains the word "AND".
  assert.match(
    await tool.run({ action: "search", query: "AND" }),
    /^Memories matching 'AND':\nquote: /,
  );
  assert.match(
    await tool.run({ action: "search", query: '"hello"' }),
    /^Memories matching '"hello"':\nquote: /,
  );
  assert.deepEqual(
    await tool.run({ action: "search", query: "it's" }),
    `No memories match "it's".`,
  );
  tool.close();
});

Deno.test("a broken FTS index is reported as an error, never as no results", async () => {
  using dir = tempHome();
  const tool = toolIn(dir.home);
  await tool.run({ action: "write", key: "home_city", value: "Dallas, Texas" });
  const db = rawDb(dir.path);
  db.exec("DELETE FROM memories_fts_data"); // wipes the index's structure record
  db.close();
  const error = await thrown(() => tool.run({ action: "search", query: "texas" }));
  assert.match(error.message, /^Memory search failed: .*(corrupt|malformed)/);
  tool.close();
});

Deno.test("bad arguments throw an Error the model can read", async () => {
  using dir = tempHome();
  const tool = toolIn(dir.home);
  const cases: [unknown, string | RegExp][] = [
    [{ action: "write", key: "k" }, "'write' needs both a key and a value."],
    [{ action: "write", value: "v" }, "'write' needs both a key and a value."],
    [{ action: "write", key: "", value: "v" }, "'write' needs both a key and a value."],
    [{ action: "write", key: "k", value: null }, "'write' needs both a key and a value."],
    [{ action: "read" }, "'read' needs a key."],
    [{ action: "delete" }, "'delete' needs a key."],
    [{ action: "search" }, "'search' needs a query."],
    [{ action: "search", query: "   " }, "'search' needs a query."],
    [
      { action: "forget", key: "k" },
      "unknown action 'forget'. Use 'write', 'read', 'list', 'delete', or 'search'.",
    ],
    [{}, /'action' is required/],
    [{ action: 3 }, /'action' is required and must be a string/],
    [{ action: "write", key: 7, value: "v" }, "Invalid memory arguments: 'key' must be a string."],
    [
      { action: "write", key: "k", value: { a: 1 } },
      "Invalid memory arguments: 'value' must be a string.",
    ],
    [{ action: "search", query: ["a"] }, "Invalid memory arguments: 'query' must be a string."],
    [null, /must be a JSON object/],
    ["write", /must be a JSON object/],
    [[1], /must be a JSON object/],
  ];
  for (const [args, expected] of cases) {
    const error = await thrown(() => tool.run(args), JSON.stringify(args));
    if (typeof expected === "string") {
      assert.deepEqual(error.message, expected, JSON.stringify(args));
    } else assert.match(error.message, expected, JSON.stringify(args));
  }
  // Validation fails before the store is touched: no file yet, and nothing written.
  assert.equal(existsSync(dir.path), false);
  assert.deepEqual(await tool.run({ action: "list" }), "No memories stored yet.");
  tool.close();
});

Deno.test("names in replies are quoted exactly as Python's repr quotes them", async () => {
  using dir = tempHome();
  const tool = toolIn(dir.home);
  assert.deepEqual(
    await tool.run({ action: "write", key: "it's", value: "x" }),
    `Remembered "it's".`,
  );
  assert.deepEqual(
    await tool.run({ action: "write", key: "a\nb", value: "x" }),
    "Remembered 'a\\nb'.",
  );
  assert.deepEqual(
    await tool.run({ action: "delete", key: "café" }),
    "No memory stored under 'café'; nothing to delete.",
  );
  tool.close();
});

Deno.test("the tool declares the reference's name and argument schema", () => {
  const tool = new MemoryTool({ path: "/nonexistent/never-opened.db" });
  const spec = tool.spec();
  assert.deepEqual(spec.name, "memory");
  assert.deepEqual(spec.parameters.required as string[], ["action"]);
  const props = spec.parameters.properties as Record<string, { enum?: string[] }>;
  assert.deepEqual(Object.keys(props).sort(), ["action", "key", "query", "value"]);
  assert.deepEqual(props.action.enum, ["write", "read", "list", "delete", "search"]);
});
