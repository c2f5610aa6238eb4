/**
 * A turn the model handed off (docs/security.md#refusal-and-truncation-are-hand-offs): it refused,
 * or the output limit cut its reply. Nothing it said is posted or rewritten; the text is logged
 * as `unspoken` so nothing is lost, the WARNING `turn handed off` line says why, and the turn
 * record's result says `refused` or `truncated`. Memory is not told: a refusal or a half reply
 * is not an exchange to remember.
 */
import type { EngineResult } from "../../core/engine.ts";
import { unspoken } from "../../journal/catalogue_engine.ts";
import { turnHandedOff } from "../../journal/catalogue_wake.ts";
import type { TurnSpec } from "../engaged_half.ts";
import type { Wake } from "../wake_state.ts";

/** Whether the engine's result is a hand-off rather than a turn the model ended itself. */
export function isHandOff(
  result: EngineResult,
): result is EngineResult & { readonly kind: "refused" | "truncated" } {
  return result.kind === "refused" || result.kind === "truncated";
}

/** Logs the hand-off: its WARNING line, then the reply's text as `unspoken`. */
export function settleHandOff(
  wake: Pick<Wake, "settings" | "journal">,
  spec: TurnSpec,
  result: EngineResult & { readonly kind: "refused" | "truncated" },
): void {
  const timeline = wake.settings.timeline;
  turnHandedOff(wake.journal, {
    timeline,
    item: spec.anchor ?? (spec.itemLabel || "-"),
    result: result.kind,
    model: wake.settings.model,
    refusal: result.kind === "refused" ? result.reply.refusal : undefined,
  });
  unspoken(wake.journal, { timeline, kind: result.kind, text: result.text });
}
