/**
 * The sweep (docs/operating.md#clean-up-deleted-timelines) against the real sandbox platform: a
 * deleted timeline (404) is purged, one the agent does not view (403) is kept and logged, a
 * platform fault (500) keeps it as skipped-transient, a live one is kept silently — then the
 * summary line.
 */
import assert from "node:assert/strict";
import { sweep } from "../../lib/home/cleanup.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import { withContract } from "../contract/helpers.ts";
import { put, tree, withHome } from "./helpers.ts";

/** A timeline's transcript, mark and claim, as a wake leaves them. */
async function artifacts(home: string, uuid: string): Promise<string[]> {
  const rels = [
    `sessions/timeline%3A${uuid}.json`,
    `marks/${uuid}.txt`,
    `claims/messages/${uuid}/item.claim`,
  ];
  for (const rel of rels) await put(home, rel, "x");
  return rels;
}

Deno.test("sweep against the sandbox: 404 purged, 403 kept, 500 skipped, 200 kept", () =>
  withContract((c) =>
    withHome(async (home) => {
      const ada = await c.user("ada");
      const bot = await c.user("bot", { kind: "ai" });
      const live = (await bot.client.timelines.create({ name: "Live" })).timeline.uuid;
      const doomed = (await bot.client.timelines.create({ name: "Doomed" })).timeline.uuid;
      await bot.client.timelines.delete(doomed);
      // A timeline the agent was a participant of, and then was removed from.
      const foreign = (await ada.client.timelines.create({ name: "Was yours" })).timeline.uuid;
      await c.mutual(ada, bot);
      await ada.client.timelines.addParticipant(foreign, bot.uuid);
      await bot.client.timelines.get(foreign);
      await ada.client.timelines.removeParticipant(foreign, bot.uuid);
      const flaky = (await bot.client.timelines.create({ name: "Flaky" })).timeline.uuid;
      c.sandbox.addFault({ path: `^/timelines/${flaky}$`, status: 500 });

      const kept = [
        ...await artifacts(home, live),
        ...await artifacts(home, foreign),
        ...await artifacts(home, flaky),
        "memory.db",
        "memory.db-wal",
      ];
      await put(home, "memory.db", "sqlite");
      await put(home, "memory.db-wal", "wal");
      await artifacts(home, doomed);

      const journal = new MemoryJournal();
      const summary = await sweep(home, bot.client, journal);
      assert.deepEqual(summary, {
        checked: 4,
        purged: 1,
        kept: 1,
        keptForbidden: 1,
        skippedTransient: 1,
      });

      const lineFor: Record<string, string | undefined> = {
        [doomed]: `INFO cleanup: purged artifacts for deleted timeline ${doomed}`,
        [foreign]: `INFO cleanup: kept timeline ${foreign} (403 — exists, agent not a viewer)`,
        [flaky]: `WARNING cleanup: skipped timeline ${flaky} this run (transient error)`,
        [live]: undefined,
      };
      const expected = [doomed, foreign, flaky, live].sort().map((u) => lineFor[u])
        .filter((line): line is string => line !== undefined);
      expected.push(
        "INFO cleanup sweep: checked 4 timeline(s) — purged 1, kept 1, kept-forbidden 1, " +
          "skipped-transient 1",
      );
      assert.deepEqual(journal.lines, expected);
      assert.deepEqual(await tree(home), kept.sort());
      assert.equal(
        c.count("GET", /^\/timelines\/[^/]+$/),
        5,
        "exactly one timelines.get per timeline (plus the setup's own)",
      );

      // Idempotent: the next run purges nothing more and the fault has cleared.
      const again = new MemoryJournal();
      const second = await sweep(home, bot.client, again);
      assert.deepEqual(second, {
        checked: 3,
        purged: 0,
        kept: 2,
        keptForbidden: 1,
        skippedTransient: 0,
      });
      assert.deepEqual(await tree(home), kept.sort());
    })
  ));

Deno.test("a platform that cannot be reached keeps everything (never purge on doubt)", () =>
  withHome(async (home) => {
    const rels = await artifacts(home, "0197a6b2-1c3d-7e4f-8a9b-0c1d2e3f4a5b");
    const journal = new MemoryJournal();
    const unreachable = {
      timelines: { get: () => Promise.reject(new TypeError("connection refused")) },
    };
    const summary = await sweep(home, unreachable, journal);
    assert.equal(summary.skippedTransient, 1);
    assert.deepEqual(await tree(home), rels.sort());
    assert.equal(
      journal.lines.at(-1),
      "INFO cleanup sweep: checked 1 timeline(s) — purged 0, " +
        "kept 0, kept-forbidden 0, skipped-transient 1",
    );
  }));
