/**
 * The tone check in replay (docs/records.md#replaying-the-tone-check): deterministic by default.
 * A post whose exact body was judged by the recorded turn, against the same instruction and by
 * the same model, gets the recorded verdict back without a model call; any other post (a new
 * wording, a changed instruction or judge model), or every post under `--rejudge-tone`, is
 * judged live by the replay's config home's judge.
 */
import { sha256HexAsync } from "../base/sha256.ts";
import type { TurnRecord } from "../home/records/schema.ts";
import type { ToneSettings } from "../gate/guardrails.ts";
import type { ToneCheck, ToneVerdict } from "../gate/tone.ts";

/** A tone verdict in replay, and whether it came from the record. */
export interface ReplayToneVerdict extends ToneVerdict {
  /** True when the record's verdict was reused; false when the judge was asked. */
  readonly reused: boolean;
}

/** What the replay's tone check is built from. */
export interface ReplayToneOptions {
  /** The replay config home's tone settings. */
  readonly settings: ToneSettings;
  /** The live judge (the config home's, over the replay's model connection). */
  readonly live: ToneCheck;
  /** The model the live judge asks. */
  readonly model: string;
  /** `--rejudge-tone`: never reuse a recorded verdict. */
  readonly rejudge: boolean;
}

/** The tone check of one replay configuration; {@link forRecord} binds it to a turn. */
export class ReplayTone {
  readonly #options: ReplayToneOptions;

  constructor(options: ReplayToneOptions) {
    this.#options = options;
  }

  /** The check for one recorded turn: its recorded verdicts first, unless re-judging. */
  forRecord(record: TurnRecord): { judge(body: string): Promise<ReplayToneVerdict> } {
    const recorded = this.#options.rejudge
      ? []
      : (record.gate_verdicts ?? []).flatMap((v) => v.tone === undefined ? [] : [v.tone]);
    const { live, model, settings } = this.#options;
    return {
      async judge(body) {
        if (recorded.length > 0) {
          const bodySha256 = await sha256HexAsync(body);
          const instructionSha256 = await sha256HexAsync(settings.instruction);
          const same = recorded.find((tone) =>
            tone.body_sha256 === bodySha256 && tone.instruction_sha256 === instructionSha256 &&
            tone.model === model && tone.error === undefined
          );
          if (same !== undefined) {
            return {
              passed: same.passed,
              reason: same.reason,
              model: same.model,
              bodySha256,
              instructionSha256,
              reused: true,
            };
          }
        }
        return { ...await live.judge(body), reused: false };
      },
    };
  }
}
