/**
 * A headless Chromium for the playground's browser tests: Debian's, at /usr/bin/chromium (.ci/run
 * installs it), driven by playwright-core, which downloads no browser of its own.
 */
import { chromium } from "playwright-core";
import type { BrowserContext } from "playwright-core";

/** Where .ci/run installs Debian's chromium. */
export const CHROMIUM = "/usr/bin/chromium";

/** A fresh headless Chromium profile; fails loudly when Chromium is not installed. */
export async function openBrowser(): Promise<BrowserContext & AsyncDisposable> {
  try {
    await Deno.stat(CHROMIUM);
  } catch {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: the playground's browser tests need it. ` +
        "Run .ci/run (it installs Debian's chromium) or: apt-get install -y chromium",
    );
  }
  const profile = await Deno.makeTempDir({ prefix: "playground-chromium-" });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return Object.assign(context, {
    [Symbol.asyncDispose]: async () => {
      await context.close();
      await Deno.remove(profile, { recursive: true });
    },
  });
}
