/**
 * The host rules as `resolved-config` reports them (`host_rules`,
 * docs/configuration.md#resolved-config): the entries, whether a wake enforces them, and the
 * outer fence, the Deno `--allow-net` list that would hold the same hosts and whether this
 * process already runs under exactly that (docs/security.md#the-outer-fence).
 */
import { allowNetList, type HostRules } from "../net/host_rules.ts";

/** The outer fence: the process's own network permission, narrowed to the rules' hosts. */
export interface OuterFenceReport {
  /** The `--allow-net` value for the rules' exact hosts; null with a regex rule or no hosts. */
  readonly allow_net: string | null;
  /**
   * Whether this process's net permission is narrowed: no blanket grant, and every listed host
   * granted. False under the production permission set's `net: allow: true`.
   */
  readonly narrowed: boolean;
}

/** The `host_rules` key. */
export interface HostRulesReport {
  /** Whether a wake checks every request of its own against the rules (a file exists). */
  readonly enforced: boolean;
  /** The rules file, or null when there is none (unrestricted). */
  readonly file: string | null;
  /** The entries as written; null without a file, `[]` denies every host. */
  readonly allow: readonly string[] | null;
  /** The outer fence; null without a file. */
  readonly outer_fence: OuterFenceReport | null;
}

/** Reports `rules` (null: no file) against the live permission state. */
export function hostRulesReport(rules: HostRules | null): HostRulesReport {
  if (rules === null) return { enforced: false, file: null, allow: null, outer_fence: null };
  const hosts = allowNetList(rules);
  const granted = (host?: string) =>
    Deno.permissions.querySync(host === undefined ? { name: "net" } : { name: "net", host })
      .state === "granted";
  const narrowed = hosts !== null && !granted() && hosts.every((host) => granted(host));
  return {
    enforced: true,
    file: rules.file,
    allow: [...rules.entries],
    // An empty `--allow-net=` would read as every host: an empty list has no flag of its own.
    outer_fence: { allow_net: hosts?.length ? hosts.join(",") : null, narrowed },
  };
}
