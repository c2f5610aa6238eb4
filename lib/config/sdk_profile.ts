/**
 * The INFO line for an `AI_SDK` profile of the Python harness that runs here on another adapter
 * (docs/models.md#ai_sdkxai-sdk-runs-on-the-openai-sdk), read off a parsed environment.
 */
import { profileNotice } from "../providers/axes.ts";
import type { HarnessEnv } from "./env.ts";

/** What runs for `env`'s `AI_SDK` and where, or `undefined` when it is the SDK configured. */
export function sdkProfileNotice(env: HarnessEnv): string | undefined {
  return profileNotice({
    provider: env.aiProvider,
    sdk: env.aiSdk,
    surface: env.aiSdkSurface,
    configuredSdk: env.aiSdkConfigured,
  }, env.aiBaseUrl);
}
