import assert from "node:assert/strict";
import { listFresh, type ReadAhead, takeListing, takeTasks } from "../../lib/wake/read_ahead.ts";
import type { Wake } from "../../lib/wake/wake_state.ts";

/** The few fields the read-ahead rules look at. */
function fakeWake(readAhead: ReadAhead, state = { turns: 0, posts: 0, spoken: 0 }): Wake {
  return {
    readAhead,
    listedAt: {},
    engine: { turns: state.turns },
    posts: state.posts,
    context: { spoken: state.spoken },
  } as unknown as Wake;
}

const listing = <T>(mark: string | undefined, items: T[], at = 1_000) => ({
  mark,
  at,
  items: Promise.resolve(items),
});
const tasks = (at = 1_000) => ({ at, items: Promise.resolve([]) });

Deno.test("read-ahead: taken for the mark it was read at, while the wake is quiet", () => {
  const ahead: ReadAhead = {
    activity: 0,
    messages: listing("m1", []),
    assets: listing("a1", [], 2_000),
    tasks: tasks(3_000),
  };
  const wake = fakeWake(ahead);
  assert.equal(takeListing(wake, "messages", "m1"), ahead.messages!.items);
  assert.equal(takeListing(wake, "assets", "a1"), ahead.assets!.items);
  assert.equal(takeTasks(wake), ahead.tasks!.items);
  // What the catch-up reads: when each listing taken was requested.
  assert.deepEqual(wake.listedAt, { messages: 1_000, assets: 2_000, tasks: 3_000 });
  // Another wake moved the mark meanwhile: list afresh.
  assert.equal(takeListing(wake, "assets", "a2"), undefined);
  // No read-ahead for a kind without a mark (a first wake).
  assert.equal(takeListing(wake, "webhook_events", "e1"), undefined);
  assert.ok(!("webhook_events" in wake.listedAt));
});

Deno.test("read-ahead: a fresh listing notes when it was requested, before it runs", async () => {
  const wake = fakeWake({ activity: 0 });
  const before = Date.now();
  let seen: number | undefined;
  const items = await listFresh(wake, "webhook_events", () => {
    seen = wake.listedAt.webhook_events;
    return Promise.resolve(["e1"]);
  });
  assert.deepEqual(items, ["e1"]);
  assert.ok(seen !== undefined && seen >= before && seen <= Date.now(), String(seen));
});

Deno.test("read-ahead: dropped once a turn was engaged, a post made or a reply spoken", () => {
  const ahead: ReadAhead = { activity: 0, assets: listing("a1", []), tasks: tasks() };
  for (
    const state of [
      { turns: 1, posts: 0, spoken: 0 },
      { turns: 0, posts: 1, spoken: 0 },
      { turns: 0, posts: 0, spoken: 1 },
    ]
  ) {
    const wake = fakeWake(ahead, state);
    assert.equal(takeListing(wake, "assets", "a1"), undefined, JSON.stringify(state));
    assert.equal(takeTasks(wake), undefined, JSON.stringify(state));
  }
});

Deno.test("read-ahead: a first-wake window stands in only while the kind still has no mark", () => {
  const ahead: ReadAhead = { activity: 0, assets: listing(undefined, []) };
  const wake = fakeWake(ahead);
  assert.equal(takeListing(wake, "assets", undefined), ahead.assets!.items);
  // Another wake set the mark meanwhile: this wake lists since that mark instead.
  assert.equal(takeListing(wake, "assets", "a1"), undefined);
  // And a listing since a mark never stands in for a first-wake window.
  const marked = fakeWake({ activity: 0, assets: listing("a1", []) });
  assert.equal(takeListing(marked, "assets", undefined), undefined);
});
