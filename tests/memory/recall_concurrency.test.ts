/** Two wakes observing into one fresh recall.db at the same time lose nothing and agree. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { RecallMemoryProvider } from "../../lib/memory/recall_provider.ts";
import { rawDb, tempHome } from "./helpers.ts";

const CHILD = new URL("./recall_writer_child.ts", import.meta.url).pathname;
const PER_PROCESS = 120;

function writer(home: string, prefix: string): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CHILD, home, prefix, String(PER_PROCESS)],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

Deno.test("recall: two processes observing into one fresh recall.db at once lose nothing", async () => {
  using dir = tempHome();
  // Both start before the file exists, so they also race to create and migrate it.
  const outputs = await Promise.all([writer(dir.home, "alpha"), writer(dir.home, "beta")].map(
    (child) => child.output(),
  ));
  for (const output of outputs) assert.ok(output.success, new TextDecoder().decode(output.stderr));
  const db = rawDb(join(dir.home, "recall.db"));
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  assert.equal(count("SELECT count(*) AS n FROM recall_exchanges"), 2 * PER_PROCESS);
  assert.equal(count("SELECT count(*) AS n FROM recall_chunks"), 2 * PER_PROCESS);
  // One agent, two timelines: the names were interned once each despite the race.
  assert.equal(count("SELECT count(*) AS n FROM recall_names"), 3);
  db.exec("INSERT INTO recall_fts (recall_fts) VALUES ('integrity-check')");
  db.close();
  const provider = new RecallMemoryProvider({ home: dir.home });
  for (const [prefix, i] of [["alpha", 7], ["beta", 119]] as const) {
    const hits = provider.recall.search(null, `${prefix}${i}value`, 5);
    assert.equal(hits.length, 1, `${prefix} ${i}`);
    assert.ok(hits[0].text.includes(`noted ${prefix} ${i}`));
  }
  provider.close();
});
