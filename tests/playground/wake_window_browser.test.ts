/**
 * A long session in a real browser (Chromium), by keyboard, against the real `harness playground`
 * process on a seeded wake log: the page shows the newest wakes and a "Show older wakes" button;
 * the button loads the older ones; a `#wake/<id>` link to an older wake loads it and focuses its
 * panel, whose journal opens; and a new wake does not grow the list past what the reader asked.
 * A long conversation likewise shows its newest items and a "Show older items" button.
 */
import assert from "node:assert/strict";
import { waitFor } from "../support/wait_for.ts";
import { openBrowser } from "./browser.ts";
import { seededId, seedWakeLog } from "./long_session.ts";
import { type State, studioClient, waitFor as settle } from "./studio_support.ts";
import { startPlayground } from "./support.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };
const WAIT = { timeout: 60_000 };
const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: Deno.env.get("HOME") ?? "/" };

Deno.test({
  name: "studio: a long session shows the newest wakes, loads older ones, opens a link to one",
  ...loose,
  async fn() {
    const data = await Deno.makeTempDir({ prefix: "wake-window-browser-" });
    try {
      await seedWakeLog(data, 60);
      await using playground = await startPlayground(["--data", data], env);
      await using browser = await openBrowser();
      const page = await browser.newPage();
      await page.goto(playground.url);
      const panels = page.locator("article.wake");
      const older = page.getByRole("button", { name: /^Show \d+ older wakes?/ });
      await older.waitFor(WAIT);
      assert.equal(await panels.count(), 50);
      assert.equal(await panels.first().getAttribute("data-wake"), seededId(60));
      assert.equal(await panels.last().getAttribute("data-wake"), seededId(11));
      assert.equal(await older.innerText(), "Show 10 older wakes (10 not shown)");
      // The charts are numbered as the panels.
      assert.match(
        await page.locator("#charts svg").first().getAttribute("aria-label") ?? "",
        /^Tokens per wake\. in: 111, 112,/,
      );

      // The button, by keyboard: the older ten come in under the newest fifty.
      await older.focus();
      await page.keyboard.press("Enter");
      await page.getByText("Showing 10 older wakes more; every wake is shown.").waitFor(WAIT);
      assert.equal(await panels.count(), 60);
      assert.equal(await panels.last().getAttribute("data-wake"), seededId(1));
      assert.equal(await older.count(), 0);
      // With the button gone, focus is on the first panel it added.
      await page.locator(`article.wake[data-wake="${seededId(10)}"]:focus`).waitFor(WAIT);

      // A new wake while the reader looks at all sixty: the list stays at sixty.
      const studio = await studioClient(playground);
      await studio.ask("@vega what is a lighthouse?");
      const answered = panels.filter({ hasText: "by @ada" }).first();
      await answered.locator(".facts", { hasText: "posted=1" }).waitFor(WAIT);
      const total = async () => {
        const state = await studio.state() as unknown as { olderWakes: number; wakes: unknown[] };
        return state.olderWakes + state.wakes.length;
      };
      const after = await total();
      assert.ok(after > 60, `wakes after the question: ${after}`);
      await waitFor(
        "the list to keep sixty panels, newest first",
        async () =>
          await panels.count() === 60 &&
          await page.locator(`article.wake[data-wake="${seededId(after - 60)}"]`).count() === 0 &&
          await page.locator(`article.wake[data-wake="${seededId(after - 59)}"]`).count() === 1 &&
          await older.count() === 1,
        { ms: 60_000, everyMs: 100 },
      );
      assert.equal(
        await older.innerText(),
        `Show ${after - 60} older wake${after === 61 ? "" : "s"} (${after - 60} not shown)`,
      );

      // A link to an older wake, on a fresh page: loaded, focused, its journal opens.
      const fresh = await browser.newPage();
      await fresh.goto(`${playground.url}#wake/${seededId(3)}`);
      await fresh.locator(`article.wake[data-wake="${seededId(3)}"]:focus`).waitFor(WAIT);
      const linked = fresh.locator(`article.wake[data-wake="${seededId(3)}"]`);
      assert.equal(await linked.locator("h3").innerText(), "Wake 3 · @vega");
      await linked.locator("summary", { hasText: /^Journal/ }).focus();
      await fresh.keyboard.press("Enter");
      await linked.locator("pre.journal").getByText("wake end seeded wake 3").waitFor(WAIT);
      // A link followed within the page (the hash changes, no reload) to a wake not yet shown.
      await fresh.locator("#wakes-heading").focus();
      await fresh.goto(`${playground.url}#wake/${seededId(1)}`);
      await fresh.locator(`article.wake[data-wake="${seededId(1)}"]:focus`).waitFor(WAIT);
      // A link to a wake that does not exist says so.
      await fresh.goto(`${playground.url}#wake/no-such-wake`);
      await fresh.getByText("Could not open the linked wake: No wake no-such-wake.").waitFor(WAIT);

      // A fresh page without a link shows the newest fifty again.
      const third = await browser.newPage();
      await third.goto(playground.url);
      const thirdOlder = third.getByRole("button", { name: /^Show \d+ older wakes/ });
      await thirdOlder.waitFor(WAIT);
      assert.equal(await third.locator("article.wake").count(), 50);
      assert.match(await thirdOlder.innerText(), new RegExp(`\\(${after - 50} not shown\\)$`));
      assert.equal(await playground.stop(), 0, playground.stderr());
    } finally {
      await Deno.remove(data, { recursive: true });
    }
  },
});

Deno.test({
  name: "studio: a long conversation shows its newest items and loads older ones by keyboard",
  ...loose,
  async fn() {
    await using playground = await startPlayground([], env);
    const studio = await studioClient(playground);
    // The welcome message and 55 more (the router twin's rate caps refuse most of their wakes).
    for (let i = 1; i <= 55; i++) {
      const reply = await studio.post("api/post", { timeline: studio.timeline, body: `note ${i}` });
      assert.equal(reply.status, 201);
    }
    // The agent answers some of them: wait until every wake is done, so the timeline holds still.
    const settled = await settle(
      studio.state,
      (s) => s.wakes.length > 0 && s.wakes.every((w) => w.finishedAt !== null),
    );
    const shown = settled.timelines[0] as State["timelines"][0] & { olderItems: number };
    const hidden = shown.olderItems;
    assert.ok(hidden >= 6 && hidden <= 50, `older items: ${hidden}`);
    await using browser = await openBrowser();
    const page = await browser.newPage();
    await page.goto(playground.url);
    const items = page.locator("#items .item");
    const older = page.getByRole("button", { name: /^Show \d+ older items?/ });
    await older.waitFor(WAIT);
    assert.equal(await older.innerText(), `Show ${hidden} older items (${hidden} not shown)`);
    assert.equal(await items.count(), 50);

    await older.focus();
    await page.keyboard.press("Enter");
    await page.getByText(`Showing ${hidden} older items more.`).waitFor(WAIT);
    assert.equal(await items.count(), 50 + hidden);
    assert.match(await items.first().innerText(), /Welcome to the playground/);
    const last = await items.last().innerText();
    assert.ok(last.endsWith(shown.items.at(-1)!.body!), last);
    assert.equal(await older.count(), 0);
    assert.equal(await playground.stop(), 0, playground.stderr());
  },
});
