/**
 * Asset perception (docs/operating.md#what-each-kind-of-item-becomes): a peer's viewable image is shown to a vision-capable model
 * on the very turn that announces it — `… Looking at it now.` with the pixels attached — instead
 * of asking the model to go and `view` it. Everything else reads as the text form: a file that is
 * not a viewable image (or is over the view cap), a download that fails (one the fetch path
 * refused says so: its URL will be refused again), and a model that definitely has no image
 * input (which also logs the WARNING `image degraded to text`). Only a
 * definite `false` from `supportsVision()` degrades; an unanswered capability shows the image.
 *
 * The pixels ride the in-memory user turn only: the transcript never stores them, and the caller
 * evicts them when the turn ends.
 */
import { errorMessage } from "../base/error_text.ts";
import type { ImageContent } from "../core/types/message.ts";
import type { Provider } from "../core/types/provider.ts";
import { imageDegraded } from "../journal/catalogue_engine.ts";
import type { Journal } from "../journal/journal.ts";
import { type Asset, type AssetsApi, RefusedUrlError } from "../platform/mod.ts";
import { viewRefusal } from "../tools/shared/asset_format.ts";
import { downloadImage } from "../tools/shared/asset_image.ts";
import { renderAsset, renderAssetShown } from "../runtime/item_text.ts";

/** What the model should see for one engaged asset: the turn's text, plus any pixels. */
export interface AssetPerception {
  readonly text: string;
  readonly images?: ImageContent[];
}

/** What perceiving an asset needs from the wake. */
export interface AssetViewDeps {
  /** Where the blob is downloaded from (the signed URL, no bearer token). */
  readonly assets: Pick<AssetsApi, "download">;
  readonly journal: Journal;
  /** The timeline, for the degrade WARNING. */
  readonly timeline: string;
  /** The model's label when the provider does not name one. */
  readonly model?: string;
  /** The wake's model provider, or undefined when it cannot be built (⇒ the text form). */
  provider(): Promise<Pick<Provider, "supportsVision" | "model"> | undefined>;
}

/** The engaged turn for `asset`: the shown form with its image, or the text form. */
export async function perceiveAsset(deps: AssetViewDeps, asset: Asset): Promise<AssetPerception> {
  const textForm: AssetPerception = { text: renderAsset(asset) };
  const file = asset.content.file;
  if (!file || viewRefusal(file) !== undefined) return textForm;
  const provider = await deps.provider();
  if (!provider) return textForm;
  if (await visionOf(provider) === false) {
    imageDegraded(deps.journal, {
      timeline: deps.timeline,
      asset: asset.content.uuid,
      filename: file.filename,
      model: provider.model ?? deps.model ?? "unknown",
    });
    return textForm;
  }
  let image: ImageContent | string;
  try {
    image = await downloadImage(deps.assets, asset);
  } catch (error) {
    deps.journal.text(
      "WARNING",
      `Could not download asset ${asset.content.uuid} (${file.filename}) to show it; it is ` +
        `rendered as text instead: ${errorMessage(error)}`,
    );
    // A refused URL will be refused again: the model is told so, rather than sent to 'view' it.
    if (error instanceof RefusedUrlError) {
      return { text: `${textForm.text} (Its file could not be read: ${error.detail})` };
    }
    return textForm;
  }
  if (typeof image === "string") return textForm;
  return { text: renderAssetShown(asset), images: [image] };
}

/** The provider's answer on image input; a capability that throws is unanswered (fail open). */
async function visionOf(
  provider: Pick<Provider, "supportsVision">,
): Promise<boolean | undefined> {
  try {
    return await provider.supportsVision?.();
  } catch {
    return undefined;
  }
}
