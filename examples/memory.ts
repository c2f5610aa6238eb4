/**
 * Remember things — the memory tool, used directly.
 *
 * `MemoryTool` is a real memory system in one private SQLite file: write (an upsert), read,
 * list, delete, and keyword search over keys and values (FTS5). The file is
 * `$HARNESS_HOME/memory.db`; this example uses a fresh temporary directory when HARNESS_HOME
 * is unset.
 *
 *   deno run --allow-env --allow-read --allow-write examples/memory.ts
 */
import { MemoryTool } from "../lib/mod.ts";

const home = Deno.env.get("HARNESS_HOME") ||
  await Deno.makeTempDir({ prefix: "harness-memory-" });

const mem = new MemoryTool({ home }); // opens (and migrates) its SQLite file lazily, on first use
await mem.run({ action: "write", key: "home_city", value: "Dallas, Texas" });
console.log(await mem.run({ action: "search", query: "texas" }));
// -> Memories matching 'texas':
//    home_city: Dallas, Texas
mem.close();
