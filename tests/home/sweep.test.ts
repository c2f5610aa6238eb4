/**
 * The sweep (docs/operating.md#clean-up-deleted-timelines) against the real sandbox platform: a
 * deleted timeline (404) is purged, one the agent does not view (403) is kept and logged, a
 * platform fault (500) keeps it as skipped-transient, a live one is kept silently — then the
 * summary line. A credential the platform refuses (401, or a 403 about the account) stops the
 * sweep before anything is purged.
 */
import assert from "node:assert/strict";
import { sweep, SweepCredentialError } from "../../lib/home/cleanup.ts";
import { TransportError } from "../../lib/platform/errors.ts";
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
        failure: null,
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
        failure: null,
      });
      assert.deepEqual(await tree(home), kept.sort());
    })
  ));

Deno.test("a platform that cannot be reached keeps everything and says why it proved nothing", () =>
  withHome(async (home) => {
    const first = "0197a6b2-1c3d-7e4f-8a9b-0c1d2e3f4a5b";
    const second = "0197a6b2-1c3d-7e4f-8a9b-0c1d2e3f4a5c";
    const rels = [...await artifacts(home, first), ...await artifacts(home, second)];
    const journal = new MemoryJournal();
    const asked: string[] = [];
    const unreachable = {
      timelines: {
        get: (uuid: string) => {
          asked.push(uuid);
          return Promise.reject(
            new TransportError(
              "GET /timelines/{uuid} to http://x failed: the connection was refused.",
              {
                failure: "refused",
              },
            ),
          );
        },
      },
    };
    const summary = await sweep(home, unreachable, journal);
    assert.equal(summary.skippedTransient, 2);
    // The first connection failure stops the asking: the rest would fail the same way.
    assert.deepEqual(asked, [first]);
    assert.equal(
      summary.failure,
      "the platform could not be reached (GET /timelines/{uuid} to http://x failed: the " +
        "connection was refused.); 2 timeline(s) were left for the next sweep",
    );
    assert.deepEqual(await tree(home), rels.sort());
    assert.equal(
      journal.lines.at(-1),
      "INFO cleanup sweep: checked 2 timeline(s) — purged 0, " +
        "kept 0, kept-forbidden 0, skipped-transient 2",
    );
  }));

Deno.test("a platform that answers every timeline with a fault fails the sweep too; one fault does not", () =>
  withContract((c) =>
    withHome(async (home) => {
      const bot = await c.user("bot", { kind: "ai" });
      const live = (await bot.client.timelines.create({ name: "Live" })).timeline.uuid;
      const flaky = (await bot.client.timelines.create({ name: "Flaky" })).timeline.uuid;
      await artifacts(home, live);
      await artifacts(home, flaky);
      c.sandbox.addFault({ path: `^/timelines/${flaky}$`, status: 500 });
      const partly = await sweep(home, bot.client, new MemoryJournal());
      assert.equal(partly.skippedTransient, 1);
      assert.equal(partly.failure, null, "a definite answer about one timeline proves the path");
      c.sandbox.addFault({ path: `^/timelines/${live}$`, status: 500 });
      c.sandbox.addFault({ path: `^/timelines/${flaky}$`, status: 500 });
      const none = await sweep(home, bot.client, new MemoryJournal());
      assert.equal(none.skippedTransient, 2);
      assert.match(
        none.failure ?? "",
        /^the platform answered no timeline definitely \(last: GET \/timelines\/\{uuid\} failed with 500.*\); 2 timeline\(s\) were left for the next sweep$/,
      );
    })
  ));

Deno.test("a revoked token stops the sweep at its first answer: a 401 named, nothing purged", () =>
  withContract((c) =>
    withHome(async (home) => {
      const bot = await c.user("bot", { kind: "ai" });
      const uuids: string[] = [];
      for (const name of ["One", "Two", "Three"]) {
        const uuid = (await bot.client.timelines.create({ name })).timeline.uuid;
        uuids.push(uuid);
        await bot.client.timelines.delete(uuid); // each would be purged by a valid token
      }
      const rels = (await Promise.all(uuids.map((u) => artifacts(home, u)))).flat();
      await bot.client.session.signOut();
      const before = c.count("GET", /^\/timelines\/[^/]+$/);
      const journal = new MemoryJournal();
      const error = await sweep(home, bot.client, journal).then(
        () => assert.fail("a refused credential must fail the sweep"),
        (e: unknown) => e,
      );
      assert.ok(error instanceof SweepCredentialError);
      assert.equal(error.status, 401);
      assert.equal(error.code, "unauthorized");
      const first = [...uuids].sort()[0];
      assert.equal(error.timeline, first);
      assert.equal(
        error.message,
        `the platform refused the sweep's credential with HTTP 401 unauthorized when asked about ` +
          `timeline ${first}; nothing was purged. Fix: set a valid BASECRADLE_TOKEN (or ` +
          "BASECRADLE_EMAIL and BASECRADLE_PASSWORD) for this agent and run the sweep again. " +
          "(GET /timelines/{uuid} failed with 401 unauthorized: A valid bearer token is " +
          "required for this request.)",
      );
      assert.deepEqual(await tree(home), rels.sort(), "nothing purged");
      assert.deepEqual(journal.lines, [], "no per-timeline verdict, no summary");
      assert.equal(c.count("GET", /^\/timelines\/[^/]+$/) - before, 1, "stopped at the first");
    })
  ));

Deno.test("a 403 about the account (suspended) or an unexplained 403 refuses the credential too", () =>
  withContract((c) =>
    withHome(async (home) => {
      const ada = await c.user("ada");
      const gone = (await ada.client.timelines.create({ name: "Gone" })).timeline.uuid;
      await ada.client.timelines.delete(gone);
      const rels = await artifacts(home, gone);
      const suspended = await c.user("sleeper", { kind: "ai", suspended: true });
      const error = await sweep(home, suspended.client, new MemoryJournal()).catch((e) => e);
      assert.ok(error instanceof SweepCredentialError, String(error));
      assert.equal(error.status, 403);
      assert.equal(error.code, "account_suspended");
      assert.match(error.message, /HTTP 403 account_suspended when asked about timeline /);
      assert.deepEqual(await tree(home), rels.sort());

      // A 403 that names no timeline reason (a proxy's) says nothing about the timeline either.
      const bot = await c.user("bot", { kind: "ai" });
      c.sandbox.addFault({ path: `^/timelines/${gone}$`, status: 403 });
      const proxied = await sweep(home, bot.client, new MemoryJournal()).catch((e) => e);
      assert.ok(proxied instanceof SweepCredentialError, String(proxied));
      assert.equal(proxied.code, "forbidden");
      assert.deepEqual(await tree(home), rels.sort());
      // With the fault spent the same token purges it: the credential was never the problem.
      const summary = await sweep(home, bot.client, new MemoryJournal());
      assert.equal(summary.purged, 1);
    })
  ));
