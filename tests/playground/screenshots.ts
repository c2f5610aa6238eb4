/**
 * The studio's views at a desktop and a narrow width, for the browser tests: at each width the
 * page must not scroll sideways (checked on every run), and with UPDATE_SCREENSHOTS=1 the view is
 * written to docs/images/studio-<view>-<width>.png, embedded in docs/playground.md.
 */
import assert from "node:assert/strict";
import { decode, encode } from "fast-png";
import type { Locator, Page } from "playwright-core";
import { REPO_ROOT } from "../support/run_cli.ts";

/** Whether this run refreshes the screenshots in docs/images/. */
export const UPDATE_SCREENSHOTS = Deno.env.get("UPDATE_SCREENSHOTS") === "1";

/** The tallest a kept screenshot is, in pixels: the rest of a long view is cut, to keep PNGs small. */
const MAX_HEIGHT = 960;

/** The widths every view is checked (and photographed) at. */
export const WIDTHS = {
  desktop: { width: 1280, height: 800 },
  narrow: { width: 420, height: 860 },
} as const;

/**
 * Checks `view` at both widths and, when updating, photographs `target()` (the viewport when it
 * gives null). Leaves the page at the desktop width.
 */
export async function atWidths(
  page: Page,
  view: string,
  target: () => Locator | null,
): Promise<void> {
  for (const [label, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    const overflow = await page.evaluate<number>(
      "document.documentElement.scrollWidth - document.documentElement.clientWidth",
    );
    assert.ok(overflow <= 0, `${view} at ${label} width scrolls sideways by ${overflow}px`);
    if (!UPDATE_SCREENSHOTS) continue;
    const element = target();
    if (element) await element.scrollIntoViewIfNeeded();
    const png = element ? await element.screenshot() : await page.screenshot();
    await Deno.writeFile(`${REPO_ROOT}docs/images/studio-${view}-${label}.png`, topOf(png));
  }
  await page.setViewportSize(WIDTHS.desktop);
}

/** The text of the element that has keyboard focus. */
export async function focusedText(page: Page): Promise<string> {
  return (await page.locator(":focus").innerText()).trim();
}

/** The top {@link MAX_HEIGHT} rows of a PNG (the whole PNG when it is no taller). */
function topOf(png: Uint8Array): Uint8Array {
  const image = decode(png);
  if (image.height <= MAX_HEIGHT) return png;
  const row = image.width * image.channels;
  return encode({
    width: image.width,
    height: MAX_HEIGHT,
    channels: image.channels,
    depth: image.depth,
    data: image.data.slice(0, row * MAX_HEIGHT),
  });
}
