/**
 * What one reconcile of the config home did (docs/configuration.md#install-and-upgrade): per-file
 * actions, the `.new` files written, restored and grandfathered grants, the Python-era files met,
 * and the WARNING lines for stderr. `summary()` is what `harness install` prints for a person.
 */

/**
 * A per-file outcome of the reconcile
 * (docs/configuration.md#what-the-reconcile-does-to-each-shipped-default), plus the two Python-era
 * migration outcomes.
 */
export type InstallAction =
  | "installed"
  | "refreshed"
  | "kept-edited"
  | "kept-deleted"
  | "already-current"
  | "unchanged"
  | "pruned"
  | "restored"
  | "revoked"
  /** A pristine Python-era `tools/<stem>.py` replaced by this runtime's `tools/<stem>.json`. */
  | "migrated"
  /** An edited Python-era `tools/<stem>.py` kept beside the new `tools/<stem>.json`. */
  | "kept-legacy";

/** The result of {@link install}. */
export class InstallReport {
  /** Outcome by config-home-relative path. */
  readonly actions: Record<string, InstallAction> = {};
  /** Rels whose new default was written beside them as `<rel>.new`, in reconcile order. */
  readonly newFiles: string[] = [];
  /** Granted opt-in rels carried forward without being named this run. */
  readonly grandfathered: string[] = [];
  /** Operator-added Python plugin files this runtime cannot run (never touched). */
  readonly pythonPlugins: string[] = [];
  /** WARNING lines, for stderr (or the journal on an auto-reconcile). */
  readonly warnings: string[] = [];

  /** A report for `configHome`. */
  constructor(readonly configHome: string) {}

  /** The rels whose outcome was `action`, sorted. */
  of(action: InstallAction): string[] {
    return Object.keys(this.actions).filter((rel) => this.actions[rel] === action).sort();
  }

  /** The human summary: home, tally, then one line per thing an operator must know. */
  summary(): string {
    const counts = new Map<string, number>();
    for (const action of Object.values(this.actions)) {
      counts.set(action, (counts.get(action) ?? 0) + 1);
    }
    const tally = [...counts].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
      .map(([action, n]) => `${action}: ${n}`).join(", ");
    const lines = [`Config home: ${this.configHome}`, tally || "no defaults"];
    for (const rel of this.newFiles) {
      lines.push(`  kept your edited ${rel} — new default written to ${rel}.new`);
    }
    const restored = this.of("restored");
    if (restored.length) {
      lines.push(
        `  RESTORED granted opt-in tool(s) that had gone missing: ${restored.join(", ")}. ` +
          "Something removed them since the last reconcile — use --revoke-opt-in if the removal " +
          "was intended.",
      );
    }
    if (this.grandfathered.length) {
      lines.push(
        `  kept (granted on this config home, carried forward): ${
          this.grandfathered.join(", ")
        }. These powerful tools are off by default for new agents; retire one with ` +
          "--revoke-opt-in <stem> (deleting the file does not drop the grant).",
      );
    }
    const migrated = this.of("migrated");
    if (migrated.length) {
      lines.push(
        `  migrated unedited Python-era plugin file(s) to this runtime's .json form: ${
          migrated.join(", ")
        }.`,
      );
    }
    for (const rel of this.of("kept-legacy")) {
      const json = rel.replace(/\.py$/, ".json");
      lines.push(
        `  kept your edited Python-era ${rel} — this runtime cannot run Python; ${json} now ` +
          "provides the stem: port your edits into it, then delete the .py",
      );
    }
    if (this.pythonPlugins.length) {
      lines.push(
        `  not loaded (Python plugins this runtime cannot run): ${
          this.pythonPlugins.join(", ")
        }. Port each to an MCP server (mcp/*.json).`,
      );
    }
    return lines.join("\n");
  }
}
