/**
 * The studio's first-use flow in a real browser, by keyboard (docs/playground.md): the real
 * `harness playground` process serves the page, headless Chromium posts from the composer, the
 * agent's real wakes (separate `harness wake` processes, here on the "real vendor" path with a
 * fake AI_API_KEY against a local OpenAI-wire server) show up; the reader opens a wake, reads the
 * request's anatomy with its cached part and the prefix diff, reads the turn record, changes one
 * charter line in a draft, replays the last turns against it and reads the diff. Every response
 * the page server sent is then searched for the key and any platform token.
 *
 * With UPDATE_SCREENSHOTS=1 each view is written to docs/images/ (./screenshots.ts).
 */
import assert from "node:assert/strict";
import { Sandbox } from "../../lib/sandbox/mod.ts";
import { waitFor } from "../support/wait_for.ts";
import { openBrowser } from "./browser.ts";
import { atWidths, focusedText } from "./screenshots.ts";
import { startPlayground } from "./support.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };

/** Not a known key shape, so only the registered literal can redact it. */
const FAKE_KEY = "fake-vendor-key-3c9d7a51e2b84f60";
/** What any platform token looks like (bc_uat_ + 32 alphanumerics). */
const TOKEN_SHAPE = /bc_[a-z]{3}_[A-Za-z0-9]{16,}/;
const WAIT = { timeout: 60_000 };

Deno.test({
  name:
    "studio: post, open the wake, read the request's anatomy and record, try a charter line, read the replay's diff",
  ...loose,
  async fn() {
    // The "vendor": a second sandbox, used only for its OpenAI-compatible model routes.
    const vendor = await Sandbox.start({ port: 0 });
    const data = await Deno.makeTempDir({ prefix: "playground-test-" });
    try {
      await using playground = await startPlayground(["--data", data], {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: Deno.env.get("HOME") ?? "/root",
        AI_API_KEY: FAKE_KEY,
        AI_MODEL: "sandbox-demo",
        AI_PROVIDER: "openai",
        AI_SDK: "openai",
        AI_SDK_SURFACE: "chat",
        AI_BASE_URL: vendor.modelUrl,
      });
      await using browser = await openBrowser();
      const page = await browser.newPage();
      const served: Promise<string>[] = [];
      const missing: string[] = [];
      page.on("response", (response) => {
        if (response.status() >= 400) missing.push(`${response.status()} ${response.url()}`);
        const type = response.headers()["content-type"] ?? "";
        if (!type.startsWith("text/event-stream") && !type.startsWith("image/")) {
          served.push(response.text().catch(() => ""));
        }
      });
      await page.goto(playground.url);
      await page.getByText("Welcome to the playground").waitFor();

      // Post from the composer by keyboard: the message box, the mention button, Post.
      const ask = async (text: string) => {
        await page.getByLabel("Message").focus();
        await page.keyboard.type(text);
        await page.keyboard.press("Tab"); // Mention @vega
        assert.equal(await focusedText(page), "Mention @vega");
        await page.keyboard.press("Enter"); // adds the mention and returns to the message
        await page.keyboard.press("Tab");
        await page.keyboard.press("Tab"); // Post message
        assert.equal(await focusedText(page), "Post message");
        await page.keyboard.press("Enter");
      };
      await ask("what can you do here?");
      const reply = page.locator(".item.from-agent").filter({ hasText: "(sandbox demo model)" });
      await reply.first().waitFor(WAIT);
      assert.match(
        await reply.first().innerText(),
        /@ada thanks for the question — I read 6 words, starting "what can you do here\? vega"/,
      );
      const answered = (n: number) =>
        page.locator(".wake").filter({ hasText: "by @ada" }).filter({ hasText: "posted=1" }).nth(
          n,
        );
      await answered(0).waitFor(WAIT);
      // The second question answers from a warm cache: the prefix the first one left.
      await page.locator(".wake").filter({ hasText: "by @vega" }).first().locator(".facts", {
        hasText: "outcome=",
      }).waitFor(WAIT);
      await ask("and what is a timeline?");
      await page.locator(".wake").filter({ hasText: "by @ada" }).filter({ hasText: "posted=1" })
        .nth(1).waitFor(WAIT);
      // Let the agent's own reply's follow-up delivery settle too (asked of the page, not time).
      await waitFor(
        "every wake to finish",
        async () => await page.locator(".wake.running").count() === 0,
        { ms: 60_000, everyMs: 100 },
      );
      await atWidths(page, "overview", () => null);

      // Open the newest answered wake's context by keyboard.
      const wake = page.locator(".wake").filter({ hasText: "by @ada" }).first();
      assert.match(await wake.locator(".facts").innerText(), /outcome=ok steps=2\/\d+ posted=1/);
      assert.match(await wake.locator(".delivery").innerText(), /^woke — attempt 1: exit 0/);
      // A vendor that reports no cost, and no prices.json: the cost is unknown, not $0.
      assert.equal(await wake.locator(".cost").innerText(), "no price");
      await wake.locator("summary", { hasText: "Context: what the model was sent" }).focus();
      await page.keyboard.press("Enter");
      const context = wake.locator(".context-section");
      await context.locator(".prefix-diff").waitFor(WAIT);
      const parts = await context.locator(".part-name").allInnerTexts();
      assert.deepEqual(parts, [
        "Tool declarations",
        "Charter",
        "Frozen transcript",
        "Brief",
        "Recalled memory",
        "Working state",
        "New turn",
      ]);
      assert.match(
        await context.locator(".request-summary").innerText(),
        /The provider served [\d,]+ tokens \(\d+\.\d%\) from its prompt cache/,
      );
      assert.match(
        (await context.locator(".stack").getAttribute("aria-label")) ?? "",
        /^Request parts in tokens: Tool declarations [\d,]+, .*; the first [\d,]+ cached$/,
      );
      assert.equal(
        await context.locator(".parts li").first().locator(".badge").innerText(),
        "cached",
      );
      const diff = context.locator(".prefix-diff");
      assert.match(await diff.locator("h5").innerText(), /record 1, wake 1\)$/i);
      assert.match(await diff.locator(".diff-verdict").innerText(), /^As designed:/);
      assert.match(await diff.innerText(), /in this request's Frozen transcript/);
      // Expand the charter by keyboard: its captured text is what the model read.
      await context.locator("summary", { hasText: "Charter" }).focus();
      await page.keyboard.press("Enter");
      assert.match(
        await context.locator("details.p-charter .part-text").innerText(),
        /^<system>\n/,
      );
      await atWidths(page, "context", () => context);

      // The turn record, rendered; the raw line behind its toggle.
      await wake.locator("summary", { hasText: "Turn record" }).focus();
      await page.keyboard.press("Enter");
      const record = wake.locator(".record");
      await record.waitFor(WAIT);
      assert.match(await wake.locator("p.good").first().innerText(), /^Chain verified: 2 records/);
      assert.match(
        await record.locator("pre").first().innerText(),
        /ada: and what is a timeline\?/,
      );
      assert.match(
        await record.locator(".posts").innerText(),
        /the agent said.*\(sandbox demo model\)/s,
      );
      assert.deepEqual(await record.locator(".verdicts td").allInnerTexts(), [
        "tool",
        "passed",
        "—",
      ]);
      assert.deepEqual(
        await record.locator(".stage-name").allInnerTexts(),
        ["engine", "brief", "model", "compact", "escalate"],
      );
      await record.locator("summary", { hasText: "Raw JSON" }).focus();
      await page.keyboard.press("Enter");
      assert.match(await record.locator(".raw pre").innerText(), /"record_hash": "[0-9a-f]{64}"/);
      await atWidths(page, "record", () => record);

      // Try a change: the tabs by arrow keys, one charter line typed, saved, replayed.
      await page.getByRole("tab", { name: "Wakes" }).focus();
      await page.keyboard.press("ArrowRight");
      assert.equal(await focusedText(page), "Try a change");
      const editor = page.getByLabel("Draft of prompts/system-prompt.md");
      await editor.waitFor(WAIT);
      await editor.focus();
      await page.keyboard.press("Control+End");
      await page.keyboard.type("\nsandbox-model: stay silent\n");
      await page.keyboard.press("Tab"); // Save draft
      assert.equal(await focusedText(page), "Save draft");
      await page.keyboard.press("Enter");
      await page.getByText("Draft of prompts/system-prompt.md saved.").waitFor();
      await page.getByLabel("Turns to replay").fill("2");
      await page.getByRole("button", { name: "Replay against the draft" }).focus();
      await page.keyboard.press("Enter");
      const turns = page.locator(".replay-turn");
      await turns.first().waitFor(WAIT);
      assert.match(
        await page.locator("#replay-status").innerText(),
        /^Replayed 2 turns \(0 skipped, 0 failed\): 2 changed turns; spoke 2 → 0/,
      );
      const first = turns.first();
      assert.match(
        await first.locator("h4").innerText(),
        /changed — spoke\/silent.*similarity 0\.00/,
      );
      assert.deepEqual(
        await first.locator(".side h5").allTextContents(),
        ["Recorded", "Replayed against the draft"],
      );
      assert.match(
        await first.locator(".side").nth(0).innerText(),
        /spoke[\s\S]*sandbox demo model/,
      );
      assert.match(await first.locator(".side").nth(1).innerText(), /silent[\s\S]*Said nothing\./);
      await atWidths(page, "change", () => page.locator("#panel-drafts"));

      // The page asked for nothing the server lacks (a favicon included).
      assert.deepEqual(missing, []);
      // Nothing served carries the key or a token: the page's responses, and each route again.
      const texts = await Promise.all(served);
      for (const path of ["", "js/main.js", "app.css", "api/state"]) {
        texts.push(await (await fetch(`${playground.url}${path}`)).text());
      }
      const events = await fetch(`${playground.url}api/events`);
      const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
      texts.push((await reader.read()).value ?? "");
      await reader.cancel();
      assert.ok(texts.some((t) => t.includes('"record_hash"')));
      for (const text of texts) {
        assert.ok(!text.includes(FAKE_KEY), "a response carries AI_API_KEY");
        assert.doesNotMatch(text, TOKEN_SHAPE, "a response carries a platform token");
      }
      assert.equal(await playground.stop(), 0, playground.stderr());
      assert.match(playground.stderr(), /playground wake exit agent=@vega .* code=0/);
    } finally {
      await vendor.close();
      await Deno.remove(data, { recursive: true });
    }
  },
});
