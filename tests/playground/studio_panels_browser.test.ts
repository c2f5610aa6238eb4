/**
 * The studio's other views in a real browser, by keyboard, against the real `harness playground`
 * process and the sandbox's model: a wake's journal with its colours, its tool calls and
 * narration; the charts with coloured legends and a cost the sandbox's model states as free; an
 * uploaded image and an activated task; a second human seat posting; the agent's notes written by
 * running one tool alone, and its memory searched; the page in dark colours.
 *
 * With UPDATE_SCREENSHOTS=1 each view is written to docs/images/ (./screenshots.ts).
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { encode } from "fast-png";
import { REPO_ROOT } from "../support/run_cli.ts";
import { waitFor } from "../support/wait_for.ts";
import { openBrowser } from "./browser.ts";
import { atWidths, focusedText, UPDATE_SCREENSHOTS } from "./screenshots.ts";
import { startPlayground } from "./support.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };
const WAIT = { timeout: 60_000 };

/** A 16×16 gradient, as PNG. */
const PNG = encode({
  width: 16,
  height: 16,
  channels: 3,
  data: Uint8Array.from({ length: 16 * 16 * 3 }, (_, i) => {
    const [x, y, c] = [(i / 3 | 0) % 16, (i / 48) | 0, i % 3];
    return c === 0 ? x * 16 : c === 1 ? y * 16 : 200;
  }),
});

Deno.test({
  name: "studio: journal, charts, files and tasks, seats, one tool, notes and memory, dark colours",
  ...loose,
  async fn() {
    const data = await Deno.makeTempDir({ prefix: "studio-panels-" });
    try {
      await using playground = await startPlayground(["--data", data], {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: Deno.env.get("HOME") ?? "/root",
      });
      await using browser = await openBrowser();
      const page = await browser.newPage();
      await page.goto(playground.url);
      await page.getByText("Welcome to the playground").waitFor();
      // A skip link comes first; it lands on the wakes.
      await page.keyboard.press("Tab");
      assert.equal(await focusedText(page), "Skip to the wakes");

      await page.getByLabel("Message").fill("@vega the lighthouse keeper is Morwenna");
      await page.keyboard.press("Control+Enter");
      const panel = page.locator(".wake").filter({ hasText: "by @ada" }).first();
      await panel.locator(".facts", { hasText: "posted=1" }).waitFor(WAIT);
      assert.match(
        await panel.locator(".cost").innerText(),
        /^\$0\.000000 \(the sandbox model is free\)$/,
      );

      await panel.locator("summary", { hasText: /^Journal/ }).focus();
      await page.keyboard.press("Enter");
      const journal = panel.locator("pre.journal");
      await journal.getByText("wake end").waitFor();
      // The journal's colours arrive as classes: `wake end` blue, `outcome=ok` green.
      assert.equal(await journal.locator(".ansi-34").first().innerText(), "wake end");
      assert.ok((await journal.locator(".ansi-32").allInnerTexts()).includes("outcome=ok"));
      await panel.locator("summary", { hasText: "Tool calls (1)" }).focus();
      await page.keyboard.press("Enter");
      assert.match(
        await panel.locator(".tool-call").innerText(),
        /messages[\s\S]*"action": "create"/,
      );
      await panel.locator("summary", { hasText: "Unspoken narration" }).focus();
      await page.keyboard.press("Enter");
      assert.match(await panel.locator("blockquote").innerText(), /Answered @ada.s message/);

      // Charts: coloured legends; a cache-hit figure from the provider; no cost invented.
      const charts = page.locator("#charts");
      await charts.locator("figure").first().waitFor();
      assert.deepEqual(await charts.locator("figcaption").allInnerTexts(), [
        "Tokens per wake",
        "Cost per wake (USD)",
        "Cache hit per wake (cached ÷ in)",
        "Wake duration",
      ]);
      assert.deepEqual(
        await charts.locator("figure").first().locator(".legend li").allInnerTexts(),
        [
          "in",
          "out",
          "cached",
        ],
      );
      const swatch = charts.locator(".swatch.s-in").first();
      assert.notEqual(
        await swatch.evaluate((el) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } })
            .getComputedStyle(el).backgroundColor
        ),
        "rgba(0, 0, 0, 0)",
      );
      assert.match(
        (await charts.locator("svg").nth(2).getAttribute("aria-label")) ?? "",
        /^Cache hit per wake \(cached ÷ in\)\. cache hit: (\d+%|no data)(, (\d+%|no data))*$/,
      );
      await atWidths(page, "charts", () => charts);

      // A file and a task, from the composer's "More".
      await page.locator("#more summary").focus();
      await page.keyboard.press("Enter");
      await page.getByLabel("File", { exact: true }).setInputFiles({
        name: "gradient.png",
        mimeType: "image/png",
        buffer: Buffer.from(PNG),
      });
      await page.getByRole("button", { name: "Upload file" }).click();
      const image = page.locator(".item img[alt='gradient.png']");
      await image.waitFor();
      // Decoded from the playground's own asset route: asked of the browser (over CDP, from the test
      // side, which the page's Content-Security-Policy cannot block) until it says so.
      const decoded = () =>
        image.evaluate((i: { complete: boolean; naturalWidth: number }) =>
          i.complete ? i.naturalWidth : 0
        );
      await waitFor("the uploaded image to be decoded", async () => await decoded() === 16, {
        ms: 60_000,
        everyMs: 100,
      });
      await page.getByLabel("Instructions").fill("Say hello at noon");
      await page.getByRole("button", { name: "Schedule task" }).click();
      await page.getByRole("button", { name: "Activate now" }).click();
      await page.locator(".wake").filter({ hasText: "task.activated" }).locator(".facts", {
        hasText: "outcome=",
      }).waitFor(WAIT);

      // A second human seat, posting from the composer.
      await page.getByLabel("Handle").fill("grace");
      await page.getByLabel("Name", { exact: true }).fill("Grace Hopper");
      await page.getByRole("button", { name: "Add seat" }).click();
      await page.getByText("@grace is seated").waitFor();
      assert.equal(await page.getByLabel("Post as").inputValue(), "grace");
      await page.getByLabel("Message").fill("hello from a second seat");
      await page.getByRole("button", { name: "Post message" }).click();
      await page.locator(".item", { hasText: "hello from a second seat" }).getByText("@grace")
        .waitFor();

      // Run one tool alone: the tabs by arrow keys, a note written as the agent.
      await page.getByRole("tab", { name: "Wakes" }).focus();
      await page.keyboard.press("End");
      assert.equal(await focusedText(page), "Run a tool");
      const tool = page.getByLabel("Tool", { exact: true });
      await tool.locator("option", { hasText: "note_write" }).waitFor({ state: "attached" });
      await tool.selectOption("note_write");
      assert.match(await page.locator("#tool-about").innerText(), /note/i);
      await page.getByLabel("Arguments (JSON)").fill('{"key": "keeper", "value": "Morwenna"}');
      await page.getByRole("button", { name: "Run tool" }).focus();
      await page.keyboard.press("Enter");
      await page.getByText("note_write ran: ok.").waitFor(WAIT);
      await page.getByLabel("Arguments (JSON)").fill("{not json");
      await page.getByRole("button", { name: "Run tool" }).click();
      await page.getByText(/^The arguments are not JSON/).waitFor();
      await atWidths(page, "tools", () => page.locator("#panel-tools"));

      // Notes and memory.
      await page.getByRole("tab", { name: "Run a tool" }).focus();
      await page.keyboard.press("ArrowLeft");
      assert.equal(await focusedText(page), "Memory and notes");
      await page.locator("#notes dt").first().waitFor(WAIT);
      assert.deepEqual(await page.locator("#notes dt").allInnerTexts(), ["keeper"]);
      await page.getByLabel("Search the agent’s memory as a wake would").fill(
        "who keeps the lighthouse?",
      );
      await page.keyboard.press("Enter");
      await page.locator("#memory-results pre").waitFor(WAIT);
      assert.match(await page.locator("#memory-results pre").innerText(), /Morwenna/);
      await atWidths(page, "memory", () => page.locator("#panel-memory"));

      // Dark colours follow the system's preference.
      await page.emulateMedia({ colorScheme: "dark" });
      await page.getByRole("tab", { name: "Wakes" }).click();
      const background = await page.evaluate<string>(
        "getComputedStyle(document.documentElement).backgroundColor",
      );
      assert.equal(background, "rgb(16, 19, 26)");
      if (UPDATE_SCREENSHOTS) {
        await Deno.writeFile(
          `${REPO_ROOT}docs/images/studio-dark-desktop.png`,
          await page.screenshot(),
        );
      }
      assert.equal(await playground.stop(), 0, playground.stderr());
    } finally {
      await Deno.remove(data, { recursive: true });
    }
  },
});
