/**
 * What the next wake's upgrade reconcile would do to the config home, found without touching it
 * (docs/operating.md#harness-doctor): the installer runs for real on a scratch copy of the home,
 * so the preview is the reconcile itself rather than a second reading of its rules, and the home
 * is never written.
 */
import { cp } from "node:fs/promises";
import { VERSION } from "../base/version.ts";
import type { InstallAction } from "./install_report.ts";
import { install } from "./installer.ts";
import { readManifest, readVersionStamp } from "../config/bookkeeping.ts";

/** The config home's install state against this build. */
export interface ReconcilePreview {
  /** Whether `harness install` ever ran there (a non-empty manifest). */
  readonly installed: boolean;
  /** The `.version` stamp; undefined when missing. */
  readonly stamp: string | undefined;
  /** This build's version. */
  readonly version: string;
  /**
   * The files the next wake's reconcile would change, with what it would do to each; empty
   * when the home is current (or not installed: a wake never reconciles such a home).
   */
  readonly pending: readonly { readonly rel: string; readonly action: InstallAction }[];
  /** The WARNING lines that reconcile would log. */
  readonly warnings: readonly string[];
}

/** Outcomes that leave a file as it is. */
const AT_REST: ReadonlySet<InstallAction> = new Set([
  "unchanged",
  "already-current",
  "kept-deleted",
]);

/**
 * Previews the reconcile a wake of `provider` would run on `configHome` (only when the home is
 * installed and stamped with another version, as the wake decides). Reads the home; writes only
 * under a scratch directory it removes again.
 */
export async function previewReconcile(
  configHome: string,
  provider: string,
  version: string = VERSION,
): Promise<ReconcilePreview> {
  const installed = Object.keys(await readManifest(configHome)).length > 0;
  const stamp = await readVersionStamp(configHome);
  if (!installed || stamp === version) {
    return { installed, stamp, version, pending: [], warnings: [] };
  }
  const scratch = await Deno.makeTempDir({ prefix: "harness-reconcile-preview-" });
  try {
    const copy = `${scratch}/home`;
    await cp(configHome, copy, { recursive: true, verbatimSymlinks: true });
    const report = await install({ configHome: copy, provider, version });
    const pending = Object.keys(report.actions).sort()
      .filter((rel) => !AT_REST.has(report.actions[rel]))
      .map((rel) => ({ rel, action: report.actions[rel] }));
    return {
      installed,
      stamp,
      version,
      pending,
      warnings: report.warnings.map((line) => line.replaceAll(copy, configHome)),
    };
  } finally {
    await Deno.remove(scratch, { recursive: true }).catch(() => {});
  }
}
