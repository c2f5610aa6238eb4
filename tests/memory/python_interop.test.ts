/**
 * Live round trips with CPython's sqlite3 on the same file, in both directions. The committed
 * fixture covers "a file Python wrote" without python; these add "Python reads what we wrote"
 * and "a write from Python while our WAL file exists", and are skipped where python3 is absent.
 */
import assert from "node:assert/strict";
import { MemoryTool } from "../../lib/memory/memory_tool.ts";
import { pyRepr } from "../../lib/pycompat/repr.ts";
import { SqliteMemoryStore } from "../../lib/memory/sqlite_store.ts";
import { hasPython, runPython, tempHome } from "./helpers.ts";

const ignore = !hasPython();
const suffix = ignore ? " (skipped: python3 with sqlite3 is not available)" : "";

Deno.test({
  name: `Python's sqlite3 reads and searches a memory.db this runtime wrote${suffix}`,
  ignore,
  async fn() {
    using dir = tempHome();
    const tool = new MemoryTool({ home: dir.home });
    await tool.run({ action: "write", key: "home_city", value: "Dallas, Texas" });
    await tool.run({ action: "write", key: "home_city", value: "Austin, Texas" });
    tool.close();
    const out = runPython(
      `import sqlite3, sys, json
c = sqlite3.connect(sys.argv[1])
print(json.dumps({
  "version": c.execute("PRAGMA user_version").fetchone()[0],
  "rows": c.execute("SELECT key, value, created_at, updated_at FROM memories").fetchall(),
  "hits": c.execute("SELECT key FROM memories_fts WHERE memories_fts MATCH ?", ('"texas"',)).fetchall(),
}))`,
      dir.path,
    );
    const seen = JSON.parse(out);
    assert.equal(seen.version, 1);
    assert.equal(seen.rows.length, 1);
    const [key, value, created, updated] = seen.rows[0];
    assert.deepEqual([key, value], ["home_city", "Austin, Texas"]);
    // Python parses our timestamps with its own isoformat reader.
    runPython(
      "import sys; from datetime import datetime; [datetime.fromisoformat(a) for a in sys.argv[1:]]",
      created,
      updated,
    );
    assert.deepEqual(seen.hits, [["home_city"]]);
  },
});

Deno.test({
  name: `rows Python writes into our WAL-mode file are read and searched here${suffix}`,
  ignore,
  fn() {
    using dir = tempHome();
    const store = new SqliteMemoryStore({ home: dir.home });
    store.write("from_deno", "first");
    runPython(
      `import sqlite3, sys
from datetime import datetime, timezone
c = sqlite3.connect(sys.argv[1])
now = datetime.now(timezone.utc).isoformat()
c.execute("INSERT INTO memories (key, value, created_at, updated_at) VALUES (?, ?, ?, ?)",
          ("from_python", "written by cpython", now, now))
c.commit()`,
      dir.path,
    );
    assert.equal(store.read("from_python"), "written by cpython");
    assert.deepEqual(store.search("cpython", 5), [{
      key: "from_python",
      value: "written by cpython",
    }]);
    store.close();
  },
});

Deno.test({
  name: `pyRepr agrees with CPython's repr() on awkward strings${suffix}`,
  ignore,
  fn() {
    const samples = [
      "plain",
      "it's",
      `"q"`,
      `'both' "q"`,
      "a\\b",
      "\t\n\r\x00\x7f\x85",
      "é☕😀",
      "\u2028\u00ad\ufeff",
    ];
    const out = runPython(
      "import sys, json; print(json.dumps([repr(a) for a in json.loads(sys.argv[1])]))",
      JSON.stringify(samples),
    );
    assert.deepEqual(samples.map(pyRepr), JSON.parse(out));
  },
});
