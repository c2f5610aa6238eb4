/**
 * `harness sandbox`'s router-twin flags: each switches one of the fleet router's rules off (or
 * sets the lanes and the wake-lock directory), read into the twin's {@link RouterRules}.
 */
import {
  FLEET_RATE_CAPS,
  FLEET_RULES,
  type RateCaps,
  type RouterRules,
} from "../sandbox/router_rules.ts";
import { integerFlag, nonEmptyFlag, UsageError } from "./command.ts";

/** The flags, for the command's option table. */
export const ROUTER_FLAGS = {
  "no-own-posts": { type: "boolean" },
  "no-dedup": { type: "boolean" },
  "no-retry": { type: "boolean" },
  "no-rate-caps": { type: "boolean" },
  "no-coalesce": { type: "boolean" },
  "no-wake-lock": { type: "boolean" },
  "wake-lock-dir": { type: "string", completes: "directory" },
  lanes: { type: "string" },
} as const;

/**
 * The flags' lines of the usage text, stating the defaults of `rules`: the retries and their
 * waits (each doubling the one before), the rate caps and the lanes.
 */
export function routerFlagsUsage(rules: RouterRules & { readonly rateCaps: RateCaps }): string {
  const waits = Array.from(
    { length: rules.attempts - 1 },
    (_, retry) => `${(rules.backoffMs * 2 ** retry) / 1000} s`,
  );
  const retries = waits.length === 0
    ? `${rules.attempts}`
    : `${rules.attempts}, after ${
      [waits.slice(0, -1).join(", "), waits.at(-1)].filter(Boolean).join(" and ")
    }`;
  const { agent, timeline, windowSeconds: window } = rules.rateCaps;
  return `Router twin (with --wake-command; each flag switches one fleet-router rule off):
  --no-own-posts       an agent's own messages and assets do not wake it
  --no-dedup           a delivery id that already woke the agent runs again
  --no-retry           one attempt per delivery (default: ${retries})
  --no-rate-caps       no ${agent}-per-${window}-s agent cap nor ${timeline}-per-${window}-s timeline cap
  --no-coalesce        every queued delivery runs, even one an earlier wake covered
  --no-wake-lock       ignore wake-lock files
  --wake-lock-dir DIR  where <handle>.lock files stop wakes (default: <agents root>/wake-locks)
  --lanes N            wakes running at once across agents (default ${rules.lanes})`;
}

/** The flags' lines of the usage text, with the fleet router's defaults. */
export const ROUTER_FLAGS_USAGE: string = routerFlagsUsage({
  ...FLEET_RULES,
  rateCaps: FLEET_RATE_CAPS,
});

type Values = {
  [K in keyof typeof ROUTER_FLAGS]?: (typeof ROUTER_FLAGS)[K]["type"] extends "boolean" ? boolean
    : string;
};

/**
 * The rule changes the flags ask for.
 * @throws {UsageError} for a flag without `--wake-command`, a bad lane count, or both
 * `--no-wake-lock` and `--wake-lock-dir`.
 */
export function routerRulesFromFlags(values: Values, wakeCommand: boolean): Partial<RouterRules> {
  const given = (Object.keys(ROUTER_FLAGS) as (keyof Values)[]).filter((name) =>
    values[name] !== undefined && values[name] !== false
  );
  if (!wakeCommand && given.length > 0) {
    throw new UsageError(`--${given[0]} needs --wake-command (it changes the router twin)`);
  }
  nonEmptyFlag("wake-lock-dir", values["wake-lock-dir"]);
  if (values["no-wake-lock"] && values["wake-lock-dir"] !== undefined) {
    throw new UsageError("--no-wake-lock and --wake-lock-dir contradict each other");
  }
  const rules: { -readonly [K in keyof RouterRules]?: RouterRules[K] } = {};
  if (values["no-own-posts"]) rules.actorAgnostic = false;
  if (values["no-dedup"]) rules.dedupSeconds = 0;
  if (values["no-retry"]) rules.attempts = 1;
  if (values["no-rate-caps"]) rules.rateCaps = null;
  if (values["no-coalesce"]) rules.coalesce = false;
  if (values["no-wake-lock"]) rules.wakeLockDir = null;
  if (values["wake-lock-dir"] !== undefined) rules.wakeLockDir = values["wake-lock-dir"];
  const lanes = integerFlag("lanes", values.lanes, { min: 1, max: 64 });
  if (lanes !== undefined) rules.lanes = lanes;
  return rules;
}
