/** Contract: the client's lazy pagination against real pages of 50. */
import { strict as assert } from "node:assert";
import type { Message } from "../../lib/platform/mod.ts";
import { type Contract, type Peer, withContract } from "./helpers.ts";
import { asUser } from "../support/cleared.ts";

async function seeded(c: Contract, n: number): Promise<{ ada: Peer; tl: string; sent: Message[] }> {
  const ada = await c.user("ada");
  const tl = (await ada.client.timelines.create({ name: `${n} messages` })).timeline.uuid;
  const sent: Message[] = [];
  for (let i = 1; i <= n; i++) {
    sent.push(await ada.client.messages.create(tl, asUser("message", { body: `m${i}` })));
  }
  return { ada, tl, sent };
}

/** GETs of the message list served so far. */
const listCalls = (c: Contract) => c.count("GET", /^\/messages$/);

Deno.test("contract: pagination over 0 messages is one request and nothing", () =>
  withContract(async (c) => {
    const { ada, tl } = await seeded(c, 0);
    assert.deepEqual(await ada.client.messages.list({ timeline: tl }).toArray(), []);
    const page = await ada.client.messages.page({ timeline: tl });
    assert.deepEqual(page, { items: [], nextCursor: null });
    assert.equal(listCalls(c), 2);
  }));

Deno.test("contract: pagination over exactly 50 messages is one full page", () =>
  withContract(async (c) => {
    const { ada, tl, sent } = await seeded(c, 50);
    const page = await ada.client.messages.page({ timeline: tl });
    assert.equal(page.items.length, 50);
    assert.equal(page.nextCursor, null);
    const all = await ada.client.messages.list({ timeline: tl }).toArray();
    assert.deepEqual(all.map((m) => m.content.body), sent.map((m) => m.content.body).reverse());
    assert.equal(listCalls(c), 2, "one request for the page, one for the walk");
  }));

Deno.test("contract: 51 messages span two pages; the walk follows next_cursor exactly once", () =>
  withContract(async (c) => {
    const { ada, tl, sent } = await seeded(c, 51);
    const first = await ada.client.messages.page({ timeline: tl });
    assert.equal(first.items.length, 50);
    assert.equal(first.nextCursor, sent[1].content.uuid, "the oldest row on the page");
    const second = await ada.client.messages.page({ timeline: tl, before: first.nextCursor! });
    assert.deepEqual(second.items.map((m) => m.content.body), ["m1"]);
    assert.equal(second.nextCursor, null);

    const before = listCalls(c);
    const all = await ada.client.messages.list({ timeline: tl }).toArray();
    assert.equal(all.length, 51);
    assert.deepEqual(all.map((m) => m.content.body), sent.map((m) => m.content.body).reverse());
    assert.equal(new Set(all.map((m) => m.content.uuid)).size, 51, "no row repeated");
    assert.equal(listCalls(c) - before, 2);

    // A list tool's "up to 50 by reading 51" needs the second page too.
    const capped = await ada.client.messages.list({ timeline: tl, limit: 51 }).toArray();
    assert.equal(capped.length, 51);
  }));

Deno.test("contract: a walk stops at its mark without fetching further pages", () =>
  withContract(async (c) => {
    const { ada, tl, sent } = await seeded(c, 120);
    // Mark on page one: one request.
    let before = listCalls(c);
    const recent = await ada.client.messages.list({ timeline: tl, until: sent[115].content.uuid })
      .toArray();
    assert.deepEqual(recent.map((m) => m.content.body), ["m120", "m119", "m118", "m117"]);
    assert.equal(listCalls(c) - before, 1);

    // Mark on page two (rows 51..100 newest-first): two requests, never the third page.
    before = listCalls(c);
    const mark = sent[39]; // m40 is the 81st newest
    const since = await ada.client.messages.list({ timeline: tl, until: mark.content.uuid })
      .toArray();
    assert.equal(since.length, 80);
    assert.equal(since.at(-1)?.content.body, "m41");
    assert.ok(!since.some((m) => m.content.uuid === mark.content.uuid), "the mark is exclusive");
    assert.equal(listCalls(c) - before, 2);

    // A limit stops early as well.
    before = listCalls(c);
    const few = await ada.client.messages.list({ timeline: tl, limit: 3 }).toArray();
    assert.equal(few.length, 3);
    assert.equal(listCalls(c) - before, 1);

    // Breaking out of a for-await loop fetches nothing more.
    before = listCalls(c);
    for await (const m of ada.client.messages.list({ timeline: tl })) {
      if (m.content.body === "m100") break;
    }
    assert.equal(listCalls(c) - before, 1);
  }));

Deno.test("contract: a mark that is never found consumes every page", () =>
  withContract(async (c) => {
    const { ada, tl } = await seeded(c, 120);
    const other = (await ada.client.timelines.create({ name: "elsewhere" })).timeline.uuid;
    const stranger = await ada.client.messages.create(
      other,
      asUser("message", { body: "not in tl" }),
    );
    const before = listCalls(c);
    const all = await ada.client.messages.list({ timeline: tl, until: stranger.content.uuid })
      .toArray();
    assert.equal(all.length, 120);
    assert.equal(listCalls(c) - before, 3);
  }));
