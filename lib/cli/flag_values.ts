/**
 * The flags several commands share, with the values each accepts, so the parser's specs and
 * shell completion (lib/cli/completions.ts) read the same lists the commands check against: a
 * provider, SDK or tool stem added to the build is completed the day it lands.
 */
import type { OptionSpec } from "./argv.ts";
import { SHIPPED_STEMS, shippedPluginText } from "../config/overlay.ts";
import { pluginOptsIn } from "../config/plugins.ts";
import { MEMORY_PROVIDER_WORDS } from "../memory/provider_words.ts";
import { PROVIDERS, SDK_SURFACES } from "../providers/axes.ts";

let optInStems: readonly string[] | undefined;

/**
 * The shipped stems a grant is meaningful for: those whose plugin declares `opt_in`. Each shipped
 * plugin is parsed to tell, so the list is worked out on first ask (shell completion), never when
 * a command that takes the flag merely loads.
 */
export function shippedOptInStems(): readonly string[] {
  optInStems ??= SHIPPED_STEMS.filter((stem) => pluginOptsIn(shippedPluginText(stem) ?? ""));
  return optInStems;
}

/** `--config-home DIR`: a directory. */
export const CONFIG_HOME_FLAG = {
  type: "string",
  completes: "directory",
} as const satisfies OptionSpec;

/** `--provider NAME`: one of the endpoint vendors. */
export const PROVIDER_FLAG = { type: "string", values: PROVIDERS } as const satisfies OptionSpec;

/** `--sdk NAME`: an SDK this build has an adapter for. */
export const SDK_FLAG = {
  type: "string",
  values: Object.keys(SDK_SURFACES),
} as const satisfies OptionSpec;

/** `--surface NAME`: a surface of any SDK. */
export const SURFACE_FLAG = {
  type: "string",
  values: [...new Set(Object.values(SDK_SURFACES).flat())],
} as const satisfies OptionSpec;

/** `--opt-in a,b` and its kin: a comma list of the powerful stems. */
export const OPT_IN_FLAG = {
  type: "list",
  values: shippedOptInStems,
} as const satisfies OptionSpec;

/** `--memory-provider NAME`: a provider named by word (a module path is the other form). */
export const MEMORY_PROVIDER_FLAG = {
  type: "string",
  values: MEMORY_PROVIDER_WORDS,
} as const satisfies OptionSpec;

/** `--only a,b`: a comma list of any shipped stems. */
export const STEMS_FLAG = {
  type: "list",
  values: SHIPPED_STEMS,
} as const satisfies OptionSpec;
