/**
 * A second process for the concurrency test: `deno run -A writer_child.ts <db> <prefix> <n>`
 * writes n keys (each then overwritten once) through its own SqliteMemoryStore, as an
 * overlapping wake would.
 */
import { SqliteMemoryStore } from "../../lib/memory/sqlite_store.ts";

const [path, prefix, count] = Deno.args;
const store = new SqliteMemoryStore({ path });
for (let i = 0; i < Number(count); i++) {
  store.write(`${prefix}_${i}`, `${prefix} first value ${i}`);
  store.write(`${prefix}_${i}`, `${prefix} value ${i} shared`);
  store.write("last_writer", `${prefix} ${i}`);
}
store.close();
console.log("done");
