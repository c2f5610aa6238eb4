/**
 * Evidence release (docs/context.md#the-context-budget): after the reconciles, a compaction summary
 * keeps only the uuids whose claim is still in flight, and the transcript is saved only when that
 * changed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Message } from "../../lib/core/types/message.ts";
import { FileSessionStore } from "../../lib/core/transcript/session.ts";
import { SUMMARY_MARKER } from "../../lib/core/types/summary_marker.ts";
import { releaseSettledEvidence } from "../../lib/wake/evidence.ts";
import { ClaimStore } from "../../lib/home/claims.ts";
import { sourceOf, type Wake } from "../../lib/wake/wake_state.ts";

const TIMELINE = "01a22e99-b3bf-71c4-899b-d8002ce60d37";
const [DONE, IN_FLIGHT_ASSET, NEVER_CLAIMED, ABANDONED, IN_FLIGHT_TASK] = [
  "0190a000-0000-7000-8000-000000000001",
  "0190a000-0000-7000-8000-000000000002",
  "0190a000-0000-7000-8000-000000000003",
  "0190a000-0000-7000-8000-000000000004",
  "0190a000-0000-7000-8000-000000000005",
];

/** The fields the release reads and writes, over a real claim store and transcript store. */
function fakeWake(home: string, messages: Message[], store: FileSessionStore): Wake {
  return {
    settings: { timeline: TIMELINE },
    claims: new ClaimStore(home),
    store,
    messages,
  } as unknown as Wake;
}

/** A store that counts its saves. */
class CountingStore extends FileSessionStore {
  saves = 0;
  override async save(source: string, messages: readonly Message[]): Promise<void> {
    this.saves++;
    await super.save(source, messages);
  }
}

const summary = (items: string[]): Message => ({
  role: "system",
  content: `${SUMMARY_MARKER}: 4 messages replaced by these notes.]\n\n- notes`,
  items,
});

async function claims(home: string): Promise<void> {
  // Another wake's store, so this one's claims are not "its own".
  const other = new ClaimStore(home);
  await other.claim("messages", TIMELINE, DONE);
  await other.commit("messages", TIMELINE, DONE);
  await other.claim("assets", TIMELINE, IN_FLIGHT_ASSET);
  await other.claim("webhook_events", TIMELINE, ABANDONED);
  await other.abandon("webhook_events", TIMELINE, ABANDONED, "test");
  await other.claim("tasks", TIMELINE, IN_FLIGHT_TASK);
}

Deno.test("evidence release: a summary keeps only the uuids still in flight, and is saved", async () => {
  const home = await Deno.makeTempDir();
  try {
    await claims(home);
    const store = new CountingStore(join(home, "sessions"));
    const user: Message = { role: "user", content: "[t] bob: hi", items: [DONE, NEVER_CLAIMED] };
    const messages = [
      summary([DONE, IN_FLIGHT_ASSET, NEVER_CLAIMED, ABANDONED, IN_FLIGHT_TASK]),
      summary([DONE]),
      user,
    ];
    await releaseSettledEvidence(fakeWake(home, messages, store));
    assert.deepEqual(messages[0].items, [IN_FLIGHT_ASSET, IN_FLIGHT_TASK]);
    assert.equal(messages[1].items, undefined, "a summary left with nothing drops `items`");
    assert.deepEqual(user.items, [DONE, NEVER_CLAIMED], "a user turn's items are not evidence");
    assert.equal(store.saves, 1);
    const saved = await new FileSessionStore(join(home, "sessions")).load(sourceOf(TIMELINE));
    assert.deepEqual(saved.map((m) => m.items), [[IN_FLIGHT_ASSET, IN_FLIGHT_TASK], undefined, [
      DONE,
      NEVER_CLAIMED,
    ]]);

    // Nothing changed the second time: no save.
    await releaseSettledEvidence(fakeWake(home, messages, store));
    assert.equal(store.saves, 1);

    // Once the asset settles, only the task remains.
    await new ClaimStore(home).commit("assets", TIMELINE, IN_FLIGHT_ASSET);
    await releaseSettledEvidence(fakeWake(home, messages, store));
    assert.deepEqual(messages[0].items, [IN_FLIGHT_TASK]);
    assert.equal(store.saves, 2);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("evidence release: without a summary holding uuids it reads no claim and saves nothing", async () => {
  const home = await Deno.makeTempDir();
  try {
    let reads = 0;
    const counting = new class extends ClaimStore {
      override read(...args: Parameters<ClaimStore["read"]>) {
        reads++;
        return super.read(...args);
      }
    }(home);
    const store = new CountingStore(join(home, "sessions"));
    const messages: Message[] = [
      { role: "system", content: "You are Ada." },
      summary([]),
      { role: "user", content: "[t] bob: hi", items: [DONE] },
    ];
    await releaseSettledEvidence({ ...fakeWake(home, messages, store), claims: counting } as Wake);
    assert.equal(reads, 0);
    assert.equal(store.saves, 0);
    // The same store does read once a summary holds a uuid (the count above is live).
    messages[1].items = [DONE];
    await releaseSettledEvidence({ ...fakeWake(home, messages, store), claims: counting } as Wake);
    assert.equal(reads, 4, "a never-claimed uuid is looked up in all four kinds");
    assert.equal(messages[1].items, undefined);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
