/**
 * The playground's origins in a real browser (headless Chromium, the real `harness playground`
 * process):
 *
 * - A file someone uploads never runs in the page's origin, nor in the sandbox's: an HTML page
 *   and an SVG drawing whose script would read every wake and post as the human (loading a
 *   JavaScript file uploaded first, which the page's `script-src 'self'` would otherwise admit)
 *   are saved as downloads when opened; a file that claims to be a PNG but holds HTML shows as a
 *   (broken) image. The sandbox's own blob URL, whose origin holds the admin API, is served the
 *   same way.
 * - A page on another loopback port (another origin, the same site) cannot change anything
 *   through either port with the "simple" requests a page may send without asking: a
 *   `text/plain` form post into a hidden frame and `no-cors` fetches.
 *
 * The test waits for what the browser does (a download, a request, a response), never for time.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { BrowserContext, Page, Request as BrowserRequest } from "playwright-core";
import { openBrowser } from "./browser.ts";
import { startPlayground } from "./support.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };
const env = () => ({
  PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
  HOME: Deno.env.get("HOME") ?? "/root",
});

/** What a hostile upload's script does if it ever runs in the page's origin. */
const STEAL = `(async () => {
  const page = await (await fetch("/")).text();
  const token = (page.match(/playground-token" content="([^"]*)"/) || [])[1] || "";
  const state = await (await fetch("/api/state")).json();
  await fetch("/api/post", {
    method: "POST",
    headers: { "content-type": "application/json", "playground-token": token },
    body: JSON.stringify({ timeline: state.timelines[0].uuid, body: "stolen " + state.wakes.length }),
  });
})();`;

/** What happened when the browser was pointed at an untrusted URL. */
type Outcome = "download" | "script ran" | "rendered";

/**
 * Opens `href` in a new tab and reports the first of: a download starts, a request matching
 * `script` is sent (the file's script ran), the document finished loading. Also returns every
 * URL the tab requested (but its icon).
 */
async function open(
  context: BrowserContext,
  href: string,
  script: RegExp,
): Promise<{ outcome: Outcome; requests: string[]; page: Page; filename: string | null }> {
  const page = await context.newPage();
  const requests: string[] = [];
  page.on("request", (request) => {
    // A browser may ask any origin for its icon on its own; that is not the file's doing.
    if (!request.url().endsWith("/favicon.ico")) requests.push(request.url());
  });
  const never = new Promise<never>(() => {});
  let filename: string | null = null;
  const outcome = await Promise.race<Outcome>([
    page.waitForEvent("download", { timeout: 0 }).then((download) => {
      filename = download.suggestedFilename();
      return "download" as const;
    }, () => never),
    page.waitForRequest(script, { timeout: 0 }).then(() => "script ran" as const, () => never),
    // A download aborts the navigation; only a document that loads resolves this.
    page.goto(href).then(() => "rendered" as const, () => never),
  ]);
  return { outcome, requests, page, filename };
}

/**
 * Resolves once the tab's request to `url` is over (answered or failed), with the status the
 * browser saw, or null when it saw none.
 */
function settled(tab: Page, url: string): Promise<number | null> {
  const over = (request: BrowserRequest) => request.url() === url;
  // Generous: only a request the browser never sends runs into it, and then the test fails.
  const options = { predicate: over, timeout: 120_000 };
  const finished = tab.waitForEvent("requestfinished", options);
  const failed = tab.waitForEvent("requestfailed", options);
  // One of the two never comes; its rejection (at the timeout, or when the tab closes) is moot.
  finished.catch(() => {});
  failed.catch(() => {});
  return Promise.race([finished, failed])
    .then(async (request) => (await request.response().catch(() => null))?.status() ?? null);
}

/** Uploads one file through the page's form and returns the link the page shows for it. */
async function upload(page: Page, name: string, mimeType: string, body: string): Promise<string> {
  // The upload form sits behind the composer's "More" disclosure.
  const more = page.locator("#more");
  if (await more.getAttribute("open") === null) await more.locator("summary").click();
  await page.getByLabel("File", { exact: true }).setInputFiles({
    name,
    mimeType,
    buffer: Buffer.from(body),
  });
  await page.getByRole("button", { name: "Upload file" }).click();
  const link = page.locator(".item a", { hasText: `${name} (` });
  await link.waitFor();
  const href = await link.getAttribute("href");
  assert.ok(href, `no link for ${name}`);
  return new URL(href, page.url()).href;
}

Deno.test({
  name: "playground: an uploaded HTML or SVG file never runs in the page's or the sandbox's origin",
  ...loose,
  async fn() {
    await using playground = await startPlayground([], env());
    await using browser = await openBrowser();
    // Each upload also wakes the agent; on a loaded machine the page may take a while to update.
    browser.setDefaultTimeout(90_000);
    const page = await browser.newPage();
    await page.goto(playground.url);
    await page.getByText("Welcome to the playground").waitFor();

    const script = await upload(page, "steal.js", "text/javascript", STEAL);
    const hostile: [string, string, string][] = [
      [
        "page.html",
        "text/html",
        `<!doctype html><title>hi</title><script src="${script}"></script><script>${STEAL}</script>`,
      ],
      [
        "drawing.svg",
        "image/svg+xml",
        `<svg xmlns="http://www.w3.org/2000/svg"><script href="${script}"/><script>${STEAL}</script></svg>`,
      ],
      ["steal.js", "text/javascript", STEAL],
    ];
    const posts = /\/api\/(post|state)$/;
    for (const [name, type, body] of hostile) {
      const href = name === "steal.js" ? script : await upload(page, name, type, body);
      const opened = await open(browser, href, posts);
      assert.equal(opened.outcome, "download", `${name}: ${opened.outcome}`);
      assert.equal(opened.filename, name);
      assert.deepEqual(opened.requests, [href], `${name} made the browser request more`);
      await opened.page.close();
    }

    // Bytes that claim to be a PNG are shown as an image (a broken one), never as a page.
    const fake = await upload(
      page,
      "fake.png",
      "image/png",
      `<!doctype html><script src="${script}"></script><script>${STEAL}</script>`,
    );
    const image = await open(browser, fake, posts);
    assert.equal(image.outcome, "rendered");
    assert.equal(await image.page.evaluate("document.contentType"), "image/png");
    assert.deepEqual(image.requests, [fake]);
    await image.page.close();

    // The sandbox's blob URL: its origin holds the admin API, which a page there could drive.
    const admin = {
      "sandbox-admin-token": playground.adminToken,
      "content-type": "application/json",
    };
    const eve = await (await fetch(`${playground.baseUrl}/_sandbox/users`, {
      method: "POST",
      headers: admin,
      body: JSON.stringify({ handle: "eve", name: "Eve", kind: "human" }),
    })).json();
    const auth = { authorization: `Bearer ${eve.token}` };
    const timeline = (await (await fetch(`${playground.baseUrl}/timelines`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ timeline: { name: "Eve's" } }),
    })).json()).timeline.uuid;
    const form = new FormData();
    form.set(
      "asset[file]",
      new File(
        [
          `<!doctype html><script>fetch("/_sandbox/users", { method: "POST", headers: ` +
          `{ "content-type": "application/json" }, body: JSON.stringify({ handle: "mallory", ` +
          `name: "M", kind: "human" }) });</script>`,
        ],
        "admin.html",
        { type: "text/html" },
      ),
    );
    const asset = await (await fetch(`${playground.baseUrl}/timelines/${timeline}/assets`, {
      method: "POST",
      headers: auth,
      body: form,
    })).json();
    const blob = asset.asset.content.file.url as string;
    const opened = await open(browser, blob, /\/_sandbox\/users$/);
    assert.equal(opened.outcome, "download", `the sandbox's blob: ${opened.outcome}`);
    assert.deepEqual(opened.requests, [blob]);

    // Nothing was posted as the human, and no user was made.
    const state = await (await fetch(`${playground.url}api/state`)).json();
    const bodies: string[] = state.timelines.flatMap((t: { items: { body?: string }[] }) =>
      t.items.map((i) => i.body ?? "")
    );
    assert.ok(!bodies.some((b) => b.startsWith("stolen")), bodies.join("\n"));
    const mallory = await fetch(`${playground.baseUrl}/_sandbox/users`, {
      method: "POST",
      headers: admin,
      body: JSON.stringify({ handle: "mallory", name: "M", kind: "human" }),
    });
    assert.equal(mallory.status, 201, "mallory existed already");
    await mallory.body?.cancel();
    assert.equal(await playground.stop(), 0, playground.stderr());
  },
});

Deno.test({
  name: "playground: a page on another loopback port cannot write through either port",
  ...loose,
  async fn() {
    await using playground = await startPlayground([], env());
    const state = await (await fetch(`${playground.url}api/state`)).json();
    const timeline: string = state.timelines[0].uuid;
    const page = playground.url.replace(/\/$/, "");
    const sandbox = playground.baseUrl;
    // The attacker: another origin on the same machine (the same "site" to the browser).
    const attack = `<!doctype html><title>elsewhere</title>
<iframe name="sink"></iframe>
<form id="form" method="POST" action="${page}/api/post" enctype="text/plain" target="sink">
  <input name='{"timeline":"${timeline}","body":"csrf via form","pad":"' value='"}'>
</form>
<script>
  const simple = { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" } };
  fetch("${sandbox}/_sandbox/users", { ...simple,
    body: JSON.stringify({ handle: "mallory", name: "Mallory", kind: "human" }) });
  fetch("${page}/api/tasks", { ...simple,
    body: JSON.stringify({ timeline: "${timeline}", instructions: "csrf", minutes: 1 }) });
  document.getElementById("form").submit();
</script>`;
    const attacker = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      () => new Response(attack, { headers: { "content-type": "text/html" } }),
    );
    try {
      await using browser = await openBrowser();
      browser.setDefaultTimeout(90_000);
      const tab = await browser.newPage();
      const answers = Promise.all([
        settled(tab, `${sandbox}/_sandbox/users`),
        settled(tab, `${page}/api/tasks`),
        settled(tab, `${page}/api/post`),
      ]);
      await tab.goto(`http://127.0.0.1:${attacker.addr.port}/`);
      const [users, tasks, post] = await answers;
      assert.equal(users, 403, "the sandbox's admin API took a cross-site POST");
      // The page's answers carry Cross-Origin-Resource-Policy: same-origin, so the browser may
      // withhold them from the other origin (null); whatever it saw was a refusal.
      assert.ok(tasks === null || tasks === 403, `the page answered a cross-site task: ${tasks}`);
      assert.ok(post === null || post === 403, `the page answered a cross-site post: ${post}`);
    } finally {
      await attacker.shutdown();
    }
    // Nothing changed: no such user (it can still be made), no message, no task.
    const mallory = await fetch(`${sandbox}/_sandbox/users`, {
      method: "POST",
      headers: { "sandbox-admin-token": playground.adminToken, "content-type": "application/json" },
      body: JSON.stringify({ handle: "mallory", name: "M", kind: "human" }),
    });
    assert.equal(mallory.status, 201, "mallory existed already");
    await mallory.body?.cancel();
    const after = await (await fetch(`${playground.url}api/state`)).json();
    const items: { body?: string; task?: { instructions: string } }[] = after.timelines[0].items;
    assert.ok(!items.some((i) => i.body?.startsWith("csrf") || i.task?.instructions === "csrf"));
    assert.equal(await playground.stop(), 0, playground.stderr());
  },
});
