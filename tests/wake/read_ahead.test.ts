import assert from "node:assert/strict";
import { type ReadAhead, takeListing, takeTasks } from "../../lib/wake/read_ahead.ts";
import type { Wake } from "../../lib/wake/wake_state.ts";

/** The few fields the read-ahead rules look at. */
function fakeWake(readAhead: ReadAhead, state = { turns: 0, posts: 0, spoken: 0 }): Wake {
  return {
    readAhead,
    engine: { turns: state.turns },
    posts: state.posts,
    context: { spoken: state.spoken },
  } as unknown as Wake;
}

const listing = <T>(mark: string | undefined, items: T[]) => ({
  mark,
  items: Promise.resolve(items),
});

Deno.test("read-ahead: taken for the mark it was read at, while the wake is quiet", () => {
  const ahead: ReadAhead = {
    activity: 0,
    messages: listing("m1", []),
    assets: listing("a1", []),
    tasks: Promise.resolve([]),
  };
  const wake = fakeWake(ahead);
  assert.equal(takeListing(wake, "messages", "m1"), ahead.messages!.items);
  assert.equal(takeListing(wake, "assets", "a1"), ahead.assets!.items);
  assert.equal(takeTasks(wake), ahead.tasks);
  // Another wake moved the mark meanwhile: list afresh.
  assert.equal(takeListing(wake, "assets", "a2"), undefined);
  // No read-ahead for a kind without a mark (a first wake).
  assert.equal(takeListing(wake, "webhook_events", "e1"), undefined);
});

Deno.test("read-ahead: dropped once a turn was engaged, a post made or a reply spoken", () => {
  const ahead: ReadAhead = { activity: 0, assets: listing("a1", []), tasks: Promise.resolve([]) };
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
