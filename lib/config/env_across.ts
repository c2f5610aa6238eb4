/**
 * The environment's checks across variables (docs/environment.md): the model axes, judged by the
 * providers factory's own matrix so config and build can never disagree, and the BASECRADLE_*
 * credentials, read by the platform client's own reader. They read only raw text fields, which
 * cannot themselves be refused, so they run even when a single field was, and one error lists
 * everything to fix.
 */
import { validateModelAxes } from "../providers/axes.ts";
import { optionsFromEnv } from "../platform/config.ts";

/** The raw variables the cross checks read. */
export interface RawAxesAndPlatform {
  readonly AI_PROVIDER?: string;
  readonly AI_SDK?: string;
  readonly AI_SDK_SURFACE?: string;
  readonly BASECRADLE_BASE_URL?: string;
  readonly BASECRADLE_TOKEN?: string;
  readonly BASECRADLE_EMAIL?: string;
  readonly BASECRADLE_PASSWORD?: string;
  readonly BASECRADLE_SESSION_NAME?: string;
}

/** The matrix check is the providers factory's own, so config and build can never disagree. */
function modelAxes(v: RawAxesAndPlatform) {
  return validateModelAxes({ provider: v.AI_PROVIDER, sdk: v.AI_SDK, surface: v.AI_SDK_SURFACE });
}

/** The BASECRADLE_* credentials and base URL, read by the platform client's own reader. */
function platformOptions(v: RawAxesAndPlatform) {
  return optionsFromEnv((name) => v[name as keyof RawAxesAndPlatform]);
}

/** What the cross checks found: the model axes and the platform client's options. */
export interface AcrossChecked {
  readonly axes: ReturnType<typeof modelAxes>;
  readonly platform: ReturnType<typeof platformOptions>;
}

/**
 * The results, worked out once per parse: the refinement checks them (so every problem is listed
 * at once) and the transform, which runs only when all passed, reuses them.
 */
const results = new WeakMap<object, AcrossChecked>();

/** Every cross-variable problem of `v`, one sentence each; none when both checks pass. */
export function checkAcross(v: RawAxesAndPlatform): string[] {
  const problems: string[] = [];
  let axes: AcrossChecked["axes"] | undefined;
  let platform: AcrossChecked["platform"] | undefined;
  for (const check of [() => (axes = modelAxes(v)), () => (platform = platformOptions(v))]) {
    try {
      check();
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (axes && platform) results.set(v, { axes, platform });
  return problems;
}

/** The results {@link checkAcross} found for `v` (worked out now when it was not asked). */
export function acrossChecked(v: RawAxesAndPlatform): AcrossChecked {
  return results.get(v) ?? { axes: modelAxes(v), platform: platformOptions(v) };
}
