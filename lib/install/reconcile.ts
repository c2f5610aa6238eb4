/**
 * The upgrade auto-reconcile a wake runs at start-up (docs/configuration.md#install-and-upgrade).
 * Deciding whether it is needed reads two small files; only a home that really needs it loads the
 * installer (and its filesystem and hashing imports), so the common wake — nothing upgraded — does
 * not.
 */
import { errorMessage } from "../base/error_text.ts";
import { lazyImport } from "../base/lazy_import.ts";
import type { Journal } from "../journal/journal.ts";
import { PRODUCT, VERSION } from "../base/version.ts";
import type { InstallReport } from "./install_report.ts";
import { readManifest, readVersionStamp } from "../config/bookkeeping.ts";

/**
 * On the first wake after an upgrade (docs/configuration.md#install-and-upgrade): reconcile an
 * installed home whose `.version` differs from `version`, log the summary at INFO, and never fail
 * the wake. A home that was never installed (empty manifest) is left alone. Returns the report, or
 * `null` when nothing ran.
 */
export async function autoReconcile(
  configHome: string,
  provider: string,
  journal: Journal,
  version: string = VERSION,
): Promise<InstallReport | null> {
  try {
    if (Object.keys(await readManifest(configHome)).length === 0) return null;
    if (await readVersionStamp(configHome) === version) return null;
    const { install } = await lazyImport<typeof import("./installer.ts")>(
      "lib/install/installer.ts",
    );
    const report = await install({ configHome, provider, version });
    for (const line of report.warnings) journal.text("WARNING", line);
    journal.text(
      "INFO",
      `Config home ${configHome} reconciled to ${PRODUCT} ${version} after an ` +
        `upgrade: ${report.summary().replaceAll("\n", " | ")}`,
    );
    return report;
  } catch (error) {
    const reason = errorMessage(error);
    journal.text(
      "WARNING",
      `Config-home upgrade reconcile failed; continuing with the existing overlay. ${reason}`,
    );
    return null;
  }
}
