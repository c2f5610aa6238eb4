/**
 * The refusal a turn's speaking tools give once the gate refused the agent's words as often as
 * `guardrails.json` allows in one turn (docs/security.md#stop-at-the-second-refusal): nothing
 * more is sent, whatever the text, and the turn escalates. A {@link GateRefusal}, so every tool
 * reports it the way it reports a refused text (outcome `blocked`, the reason for the model);
 * it is not itself counted as a refusal.
 */
import { GateRefusal } from "./refusal.ts";
import { fail } from "./verdict.ts";

/** The check name a closed turn's refusals carry (`post blocked … check=speaking_closed`). */
export const SPEAKING_CLOSED = "speaking_closed";

/** Thrown instead of screening once the turn's speaking is closed; nothing was sent. */
export class SpeakingClosed extends GateRefusal {
  /** `refusals` is how many refusals closed the turn. */
  constructor(refusals: number) {
    // Whether an operator is told depends on escalation.json: the model is never promised it.
    const reason = `the outbound gate refused this turn's text ${refusals} time(s), so this ` +
      "turn sends nothing more";
    super([fail(SPEAKING_CLOSED, reason)]);
    this.message = `${reason}. Nothing was sent; do not try again in this turn.`;
  }
}
