/**
 * The wake's tone judge (docs/security.md#the-tone-check): the gate's {@link ToneJudge} over the
 * configured provider. Loaded only when `guardrails.json` configures `tone`, and only when the
 * gate is first used, so a wake without a tone check never reads this module or its SDK.
 */
import type { ToneSettings } from "../gate/guardrails.ts";
import { ToneJudge } from "../gate/tone.ts";
import type { BuildProviderOptions } from "../providers/factory.ts";
import { judgeCall } from "../providers/judge_call.ts";

/** A tone judge asking `settings.model` (else `provider.model`) through `provider`'s SDK. */
export function wakeToneJudge(settings: ToneSettings, provider: BuildProviderOptions): ToneJudge {
  return new ToneJudge({ settings, defaultModel: provider.model, ask: judgeCall(provider) });
}
