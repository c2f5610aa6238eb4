/**
 * Asset perception's branches (docs/operating.md#what-each-kind-of-item-becomes,
 * docs/models.md#add-your-own-provider, docs/journal.md#the-line-catalogue): only a definite
 * `supportsVision()` false degrades an image to text (with the WARNING `image degraded to text`);
 * unanswered or failing capability shows it; a non-viewable or over-cap file, a failed download and
 * an unbuildable provider read as the text form.
 */
import assert from "node:assert/strict";
import type { Provider } from "../../lib/core/types/provider.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import { type Asset, BlobTooLargeError, PlatformError } from "../../lib/platform/mod.ts";
import { MAX_IMAGE_BYTES } from "../../lib/tools/shared/asset_format.ts";
import { type AssetViewDeps, perceiveAsset } from "../../lib/wake/asset_view.ts";
import { renderAsset, renderAssetShown } from "../../lib/runtime/item_text.ts";
import { asset } from "./fixtures.ts";

const BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
type VisionProvider = Pick<Provider, "supportsVision" | "model">;

/** Deps over a fake blob store and an injected provider; counts downloads and vision asks. */
function deps(
  provider: VisionProvider | undefined,
  download: () => Promise<Uint8Array> = () => Promise.resolve(BYTES),
) {
  const journal = new MemoryJournal();
  const counts = { downloads: 0, providerAsks: 0 };
  const d: AssetViewDeps = {
    assets: {
      download: async () => {
        counts.downloads++;
        return { bytes: await download(), contentType: "image/png" };
      },
    },
    journal,
    timeline: "tl-1",
    model: "settings-model",
    provider: () => {
      counts.providerAsks++;
      return Promise.resolve(provider);
    },
  };
  return { d, journal, counts };
}

/** The fixture asset with another file. */
function withFile(a: Asset, file: Partial<NonNullable<Asset["content"]["file"]>>): Asset {
  return { ...a, content: { ...a.content, file: { ...a.content.file!, ...file } } };
}

Deno.test("asset view: a definite no-vision provider degrades to text and logs the WARNING", async () => {
  const { d, journal, counts } = deps({
    model: "text-only-1",
    supportsVision: () => Promise.resolve(false),
  });
  const a = asset("a1", "a cat");
  const seen = await perceiveAsset(d, a);
  assert.deepEqual(seen, { text: renderAsset(a) });
  assert.match(seen.text, /Use the assets tool to 'read' it/);
  assert.equal(counts.downloads, 0, "no pixels fetched for a model that cannot see them");
  const warnings = journal.lines.filter((l) => l.includes("image degraded to text"));
  assert.deepEqual(warnings, [
    'WARNING image degraded to text timeline=tl-1 asset=a1 filename=photo.png model=text-only-1 reason="model has no vision input"',
  ]);
});

Deno.test("asset view: a provider without a model label falls back to the settings' model", async () => {
  const { d, journal } = deps({ supportsVision: () => false });
  await perceiveAsset(d, asset("a1"));
  assert.match(journal.lines.join("\n"), /image degraded to text .* model=settings-model /);
});

Deno.test("asset view: vision true, unanswered, absent or throwing shows the image", async () => {
  const providers: VisionProvider[] = [
    { supportsVision: () => true },
    { supportsVision: () => Promise.resolve(undefined) },
    {},
    { supportsVision: () => Promise.reject(new Error("listing down")) },
  ];
  for (const provider of providers) {
    const { d, journal, counts } = deps(provider);
    const a = asset("a1");
    const seen = await perceiveAsset(d, a);
    assert.equal(seen.text, renderAssetShown(a));
    assert.match(seen.text, /Looking at it now\.$/);
    assert.deepEqual(seen.images, [
      { alt: "photo.png", mimeType: "image/png", data: BYTES.toBase64() },
    ]);
    assert.equal(counts.downloads, 1);
    assert.deepEqual(journal.lines, []);
  }
});

Deno.test("asset view: a non-viewable file is text without asking the provider or downloading", async () => {
  const files = [
    { filename: "notes.txt", content_type: "text/plain" },
    { filename: "pic.bmp", content_type: "image/bmp" },
    { byte_size: MAX_IMAGE_BYTES + 1 }, // declared over the cap
    { byte_size: 0 },
  ];
  for (const file of files) {
    const { d, counts } = deps({ supportsVision: () => true });
    const a = withFile(asset("a1"), file);
    assert.deepEqual(await perceiveAsset(d, a), { text: renderAsset(a) });
    assert.deepEqual(counts, { downloads: 0, providerAsks: 0 }, JSON.stringify(file));
  }
  const { d } = deps({ supportsVision: () => true });
  const bare: Asset = { ...asset("a2"), content: { uuid: "a2", description: null, file: null } };
  assert.deepEqual(await perceiveAsset(d, bare), { text: renderAsset(bare) });
});

Deno.test("asset view: a blob larger than the cap is text, whatever its declared size", async () => {
  const { d, counts } = deps(
    { supportsVision: () => true },
    () => Promise.resolve(new Uint8Array(MAX_IMAGE_BYTES + 1)),
  );
  const a = asset("a1");
  assert.deepEqual(await perceiveAsset(d, a), { text: renderAsset(a) });
  assert.equal(counts.downloads, 1);
});

Deno.test("asset view: a download the cap stopped is text, and nothing of it is shown", async () => {
  const { d, journal } = deps(
    { supportsVision: () => true },
    () => Promise.reject(new BlobTooLargeError(MAX_IMAGE_BYTES, "GET {file.url}")),
  );
  const a = asset("a1");
  assert.deepEqual(await perceiveAsset(d, a), { text: renderAsset(a) });
  assert.doesNotMatch(journal.lines.join("\n"), /Could not download/);
});

Deno.test("asset view: a failed download is text plus a WARNING; an unbuilt provider is text", async () => {
  const failing = deps(
    { supportsVision: () => true },
    () => Promise.reject(new PlatformError("blob gone", { status: 403 })),
  );
  const a = asset("a1");
  assert.deepEqual(await perceiveAsset(failing.d, a), { text: renderAsset(a) });
  assert.match(
    failing.journal.lines.join("\n"),
    /^WARNING Could not download asset a1 \(photo\.png\) to show it; .*blob gone/m,
  );

  const unbuilt = deps(undefined);
  assert.deepEqual(await perceiveAsset(unbuilt.d, a), { text: renderAsset(a) });
  assert.equal(unbuilt.counts.downloads, 0);
});
