/**
 * `harness playground` in a real browser: the real CLI process serves the page, headless Chromium
 * posts through the composer, and the agent's real wake (a separate `harness wake` process, here
 * on the "real vendor" path with a fake AI_API_KEY against a local OpenAI-wire server) shows up
 * in the timeline and in its wake panel with the journal, tokens and a verified turn record.
 * Every response the page server sent is then searched for the key and any platform token.
 *
 * With UPDATE_SCREENSHOTS=1 the screenshot replaces docs/images/playground.png.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { encode } from "fast-png";
import { Sandbox } from "../../lib/sandbox/mod.ts";
import { REPO_ROOT } from "../support/run_cli.ts";
import { openBrowser } from "./browser.ts";
import { startPlayground } from "./support.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };

/** Not a known key shape, so only the registered literal can redact it. */
const FAKE_KEY = "fake-vendor-key-3c9d7a51e2b84f60";
/** What any platform token looks like (bc_uat_ + 32 alphanumerics). */
const TOKEN_SHAPE = /bc_[a-z]{3}_[A-Za-z0-9]{16,}/;

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
  name: "playground: a message posted in the browser wakes the agent; its panel shows the wake",
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
      page.on("response", (response) => {
        const type = response.headers()["content-type"] ?? "";
        if (!type.startsWith("text/event-stream") && !type.startsWith("image/")) {
          served.push(response.text().catch(() => ""));
        }
      });
      await page.goto(playground.url);
      await page.getByText("Welcome to the playground").waitFor();

      // Post through the composer, by keyboard from the mention button to the Post button.
      await page.getByRole("button", { name: "Mention @vega" }).click();
      await page.getByLabel("Message").pressSequentially("what can you do here?");
      await page.keyboard.press("Tab"); // the mention button
      await page.keyboard.press("Tab"); // Post message
      assert.equal(await page.locator(":focus").innerText(), "Post message");
      await page.keyboard.press("Enter");

      const reply = page.locator(".item.from-agent").filter({ hasText: "(sandbox demo model)" });
      await reply.waitFor({ timeout: 30_000 });
      assert.match(
        await reply.innerText(),
        /@ada thanks for the question — I read 6 words, starting "vega what can you do here\?"/,
      );

      // The question's wake (the agent's own reply is delivered back to it too, as the router does).
      const panel = page.locator(".wake").filter({ hasText: "message.created" })
        .filter({ hasText: "by @ada" }).first();
      await panel.locator(".facts", { hasText: "posted=1" }).waitFor({ timeout: 30_000 });
      assert.match(await panel.locator(".facts").innerText(), /outcome=ok steps=2\/\d+ posted=1/);
      const tokens = await panel.locator(".tokens").innerText();
      const [, tokensIn, tokensOut] = tokens.match(/in (\d+) · out (\d+)/) ?? [];
      assert.ok(Number(tokensIn) > 0 && Number(tokensOut) > 0, tokens);
      assert.match(tokens, /2 model calls/);

      await panel.getByText(/^Journal \(\d+ lines\)$/).click();
      const journal = panel.locator("pre.journal");
      await journal.getByText("wake end").waitFor();
      // The journal's colours arrive as classes: `wake end` blue, `outcome=ok` green.
      assert.equal(await journal.locator(".ansi-34").first().innerText(), "wake end");
      assert.ok((await journal.locator(".ansi-32").allInnerTexts()).includes("outcome=ok"));
      assert.match(await journal.innerText(), /INFO llm provider=openai .*tokens_in=\d+/);

      await panel.getByText("Tool calls (1)").click();
      assert.match(
        await panel.locator(".tool-call").innerText(),
        /messages[\s\S]*"action": "create"/,
      );
      await panel.getByText("Unspoken narration").click();
      assert.match(await panel.locator("blockquote").innerText(), /Answered @ada.s question/);

      await panel.getByText("Turn record").click();
      await panel.getByText(/^Chain verified: 1 record,/).waitFor();
      assert.match(await panel.locator("details[open] pre").last().innerText(), /"record_hash"/);

      // A file: its asset shows as an image, served by the playground itself.
      await page.getByLabel("File").setInputFiles({
        name: "gradient.png",
        mimeType: "image/png",
        buffer: Buffer.from(PNG),
      });
      await page.getByRole("button", { name: "Upload file" }).click();
      const image = page.locator(".item img[alt='gradient.png']");
      await image.waitFor();
      // The page's own code runs in the browser, so it is written as an expression string.
      await page.waitForFunction(
        `(() => { const i = document.querySelector(".item img[alt='gradient.png']"); ` +
          "return i !== null && i.complete && i.naturalWidth === 16; })()",
      );

      // A task, scheduled and activated from the page, wakes the agent with task.activated.
      await page.getByLabel("Instructions").fill("Say hello at noon");
      await page.getByRole("button", { name: "Schedule task" }).click();
      await page.getByRole("button", { name: "Activate now" }).click();
      await page.locator(".wake").filter({ hasText: "task.activated" }).locator(".facts", {
        hasText: "outcome=",
      }).waitFor({ timeout: 30_000 });

      // 200% zoom: a 640-pixel-wide window is what a 1280 one shows at 200%; nothing scrolls sideways.
      await page.setViewportSize({ width: 640, height: 900 });
      const overflow = await page.evaluate<number>(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth",
      );
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at 200%`);
      await page.setViewportSize({ width: 1280, height: 900 });

      const shot = await page.screenshot({ fullPage: true });
      assert.deepEqual([...shot.subarray(1, 4)], [0x50, 0x4e, 0x47]); // "PNG"
      if (Deno.env.get("UPDATE_SCREENSHOTS") === "1") {
        await Deno.writeFile(`${REPO_ROOT}docs/images/playground.png`, shot);
      }

      // Nothing served carries the key or a token: the page's responses, and each route again.
      const texts = await Promise.all(served);
      for (const path of ["", "app.js", "app.css", "api/state"]) {
        texts.push(await (await fetch(`${playground.url}${path}`)).text());
      }
      const events = await fetch(`${playground.url}api/events`);
      const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
      texts.push((await reader.read()).value ?? "");
      await reader.cancel();
      assert.ok(texts.some((t) => t.includes("Chain verified") || t.includes('"record_hash"')));
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
