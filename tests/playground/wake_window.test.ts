/**
 * A long session stays small on the wire: the state and each event stream's first event carry
 * the newest wakes only, with the count of the older ones, and `GET /api/wakes?before=N&limit=K`
 * pages the older ones (a wrong query answers 400 naming the parameter); a wake's summary is
 * found by id; a timeline's items are bounded the same way (`GET /api/items`). The slicing rules
 * alone, then the real CLI process on a seeded wake log.
 */
import assert from "node:assert/strict";
import {
  MAX_WAKE_PAGE,
  newestWakes,
  olderQuery,
  WAKE_WINDOW,
  wakesBefore,
} from "../../lib/playground/wake_window.ts";
import { ITEM_WINDOW } from "../../lib/playground/views.ts";
import { WELCOME } from "../../lib/playground/world.ts";
import { seededId, seedWakeLog } from "./long_session.ts";
import { pageToken, startPlayground } from "./support.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };
const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: Deno.env.get("HOME") ?? "/" };
const numbers = (count: number) => Array.from({ length: count }, (_, i) => i + 1);

Deno.test("wake window: the newest wakes and the count of older ones", () => {
  assert.deepEqual(newestWakes(numbers(3), 5), { wakes: [1, 2, 3], older: 0 });
  assert.deepEqual(newestWakes(numbers(7), 5), { wakes: [3, 4, 5, 6, 7], older: 2 });
  assert.deepEqual(newestWakes([], 5), { wakes: [], older: 0 });
  assert.equal(newestWakes(numbers(400)).wakes.length, WAKE_WINDOW);
});

Deno.test("wake window: a page of the wakes numbered below `before`", () => {
  assert.deepEqual(wakesBefore(numbers(10), 8, 3), { wakes: [5, 6, 7], older: 4 });
  assert.deepEqual(wakesBefore(numbers(10), 3, 5), { wakes: [1, 2], older: 0 });
  assert.deepEqual(wakesBefore(numbers(10), 1, 5), { wakes: [], older: 0 });
  assert.deepEqual(wakesBefore(numbers(10), 11, 2), { wakes: [9, 10], older: 8 });
});

Deno.test("wake window: the query's before and limit, or one line on what is wrong", () => {
  const q = (query: string, total = 100) => olderQuery(new URLSearchParams(query), total);
  assert.deepEqual(q("before=51"), { before: 51, limit: WAKE_WINDOW });
  assert.deepEqual(q(`before=101&limit=${MAX_WAKE_PAGE}`), { before: 101, limit: MAX_WAKE_PAGE });
  for (
    const bad of ["", "before=", "before=0", "before=102", "before=-3", "before=2.5", "before=x"]
  ) {
    const answer = q(bad);
    assert.ok("problem" in answer, bad);
    assert.match(answer.problem, /^before must be a wake number from 1 to 101/);
  }
  for (const bad of ["limit=0", `limit=${MAX_WAKE_PAGE + 1}`, "limit=1e3", "limit="]) {
    const answer = q(`before=10&${bad}`);
    assert.ok("problem" in answer, bad);
    assert.match(answer.problem, /^limit must be a whole number from 1 to 200/);
  }
});

Deno.test({
  name: "playground: the state carries the newest wakes; older ones come a page at a time",
  ...loose,
  async fn() {
    const data = await Deno.makeTempDir({ prefix: "wake-window-" });
    try {
      await seedWakeLog(data, 120);
      await using playground = await startPlayground(["--data", data], env);
      const get = async (path: string) => {
        const reply = await fetch(`${playground.url}${path}`);
        return { status: reply.status, body: await reply.json() };
      };
      const ns = (wakes: { n: number }[]) => wakes.map((w) => w.n);

      const state = (await get("api/state")).body;
      assert.equal(state.wakeWindow, WAKE_WINDOW);
      assert.equal(state.olderWakes, 120 - WAKE_WINDOW);
      assert.deepEqual(ns(state.wakes), numbers(120).slice(-WAKE_WINDOW));
      assert.equal(state.wakes.at(-1).id, seededId(120));

      // The event stream opens with the same bounded snapshot.
      const stream = await fetch(`${playground.url}api/events`);
      const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
      let first = "";
      while (!first.includes("\n\n")) first += (await reader.read()).value ?? "";
      await reader.cancel();
      const opened = JSON.parse(first.match(/^data: (.*)$/m)![1]);
      assert.match(first, /^event: state\n/);
      assert.equal(opened.olderWakes, 70);
      assert.deepEqual(ns(opened.wakes), ns(state.wakes));

      const page = await get("api/wakes?before=71");
      assert.equal(page.status, 200);
      assert.deepEqual(ns(page.body.wakes), numbers(70).slice(-WAKE_WINDOW));
      assert.equal(page.body.older, 20);
      assert.equal(page.body.wakes[0].id, seededId(21));
      const rest = await get("api/wakes?before=21&limit=200");
      assert.deepEqual(ns(rest.body.wakes), numbers(20));
      assert.equal(rest.body.older, 0);
      assert.deepEqual((await get("api/wakes?before=1")).body, { wakes: [], older: 0 });

      const one = await get(`api/wakes/${seededId(5)}/summary`);
      assert.equal(one.status, 200);
      assert.equal(one.body.n, 5);
      assert.equal(one.body.tokensIn, 105);
      assert.equal((await get(`api/wakes/${seededId(5)}`)).body.journal.length, 1);
      const unknown = await get("api/wakes/no-such-wake/summary");
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error, "No wake no-such-wake.");

      for (
        const [query, error] of [
          ["", "before must be a wake number from 1 to 121 (the oldest wake shown): got null."],
          [
            "?before=0",
            'before must be a wake number from 1 to 121 (the oldest wake shown): got "0".',
          ],
          [
            "?before=500",
            'before must be a wake number from 1 to 121 (the oldest wake shown): got "500".',
          ],
          [
            "?before=ten",
            'before must be a wake number from 1 to 121 (the oldest wake shown): got "ten".',
          ],
          ["?before=50&limit=0", 'limit must be a whole number from 1 to 200: got "0".'],
          ["?before=50&limit=9999", 'limit must be a whole number from 1 to 200: got "9999".'],
        ]
      ) {
        const bad = await get(`api/wakes${query}`);
        assert.equal(bad.status, 400, query);
        assert.deepEqual(bad.body, { error }, query);
      }
      assert.equal(await playground.stop(), 0, playground.stderr());
    } finally {
      await Deno.remove(data, { recursive: true });
    }
  },
});

Deno.test({
  name: "playground: the state carries each timeline's newest items; older ones come on demand",
  ...loose,
  async fn() {
    await using playground = await startPlayground([], env);
    const url = playground.url;
    const headers = {
      "content-type": "application/json",
      "playground-token": await pageToken(url),
    };
    const state = async () => await (await fetch(`${url}api/state`)).json();
    const timeline = (await state()).timelines[0].uuid;
    // The welcome message and 55 more: the router twin's rate caps refuse most of their wakes.
    for (let i = 1; i <= 55; i++) {
      const reply = await fetch(`${url}api/post`, {
        method: "POST",
        headers,
        body: JSON.stringify({ timeline, body: `note ${i}` }),
      });
      assert.equal(reply.status, 201);
      await reply.body?.cancel();
    }
    const shown = (await state()).timelines[0];
    assert.equal(shown.items.length, ITEM_WINDOW);
    assert.equal(shown.olderItems, 6);
    assert.equal(shown.items.at(-1).body, "note 55");
    assert.equal(shown.items[0].body, "note 6");

    const get = async (query: string) => {
      const reply = await fetch(`${url}api/items?timeline=${timeline}&${query}`);
      return { status: reply.status, body: await reply.json() };
    };
    const older = await get(`before=${shown.items[0].uuid}&limit=200`);
    assert.equal(older.status, 200);
    assert.deepEqual(
      older.body.items.map((i: { body: string }) => i.body),
      [
        WELCOME,
        "note 1",
        "note 2",
        "note 3",
        "note 4",
        "note 5",
      ],
    );
    assert.equal(older.body.older, 0);
    const two = await get(`before=${shown.items[0].uuid}&limit=2`);
    assert.deepEqual(two.body.items.map((i: { body: string }) => i.body), ["note 4", "note 5"]);
    assert.equal(two.body.older, 4);

    for (
      const [query, status, error] of [
        ["before=nope", 400, "before must be the uuid of an item shown."],
        [
          `before=${shown.items[0].uuid}&limit=0`,
          400,
          'limit must be a whole number from 1 to 200: got "0".',
        ],
        [
          `before=${shown.items[0].uuid}&limit=x`,
          400,
          'limit must be a whole number from 1 to 200: got "x".',
        ],
        [`before=${timeline}`, 404, `No item ${timeline} on that timeline.`],
      ] as const
    ) {
      const bad = await get(query);
      assert.equal(bad.status, status, query);
      assert.deepEqual(bad.body, { error }, query);
    }
    const notUuid = await fetch(`${url}api/items?timeline=demo&before=${shown.items[0].uuid}`);
    assert.equal(notUuid.status, 400);
    assert.deepEqual(await notUuid.json(), { error: "timeline must be a timeline's uuid." });
    assert.equal(await playground.stop(), 0, playground.stderr());
  },
});
