/**
 * The escalation sender (docs/operating.md#escalation) over a local ntfy stub: one notice per
 * item however often it is asked (a re-wake, a recovery, a second trigger), nothing sent when
 * the mark cannot be taken, and a missing token is a WARNING, never a throw.
 */
import assert from "node:assert/strict";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import { escalate, escalationNotice } from "../../lib/wake/escalation.ts";
import type { Wake } from "../../lib/wake/wake_state.ts";
import { startStub } from "../support/http_stub.ts";

const TL = "11111111-2222-4333-8444-555555555555";
const ITEM = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";
const TOKEN = "tk_unit_escalation_token";

/** The slice of a wake the sender reads. */
function wakeFor(home: string, url: string, token: string | undefined = TOKEN) {
  const journal = new MemoryJournal();
  const wake = {
    settings: { home, timeline: TL },
    env: { ntfyDmToken: token, ntfyDmUrl: url },
    journal,
    context: { self: { uuid: "u", handle: "ada" } },
  } as unknown as Wake;
  return { wake, journal };
}

Deno.test("escalate: a second call for the same item sends nothing, whatever the reason", async () => {
  await using ntfy = await startStub(() => new Response("{}"));
  const home = await Deno.makeTempDir();
  try {
    const { wake, journal } = wakeFor(home, ntfy.url);
    await escalate(wake, { reason: "billing_wall", item: ITEM });
    await escalate(wake, { reason: "billing_wall", item: ITEM });
    await escalate(wake, { reason: "gate_refused_twice", item: ITEM });
    assert.equal(ntfy.requests.length, 1);
    assert.equal(
      ntfy.requests[0].text(),
      escalationNotice(TL, { reason: "billing_wall", item: ITEM }),
    );
    assert.deepEqual(journal.lines, [
      `INFO escalation sent reason=billing_wall item=${ITEM} timeline=${TL}`,
    ]);
    // Another item is its own notice.
    await escalate(wake, { reason: "billing_wall", item: TL });
    assert.equal(ntfy.requests.length, 2);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("escalate: no mark, no notice; no token, a WARNING", async () => {
  await using ntfy = await startStub(() => new Response("{}"));
  const home = await Deno.makeTempDir();
  try {
    // A file where the marks' folder belongs: the mark cannot be taken.
    await Deno.writeTextFile(`${home}/escalations`, "x");
    const { wake, journal } = wakeFor(home, ntfy.url);
    await escalate(wake, { reason: "gate_refused_twice", item: ITEM });
    assert.equal(ntfy.requests.length, 0);
    assert.match(
      journal.lines[0],
      /^WARNING escalation failed reason=gate_refused_twice item=\S+ why="the escalation mark could not be written: /,
    );

    const bare = wakeFor(home, ntfy.url, "");
    await escalate(bare.wake, { reason: "billing_wall", item: ITEM });
    assert.equal(ntfy.requests.length, 0);
    assert.deepEqual(bare.journal.lines, [
      `WARNING escalation failed reason=billing_wall item=${ITEM} why="NTFY_DM_TOKEN is not set" timeline=${TL}`,
    ]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
