/** The gate's refusal: a model-readable error naming the check that failed. */
import type { Verdict } from "./verdict.ts";

/**
 * Thrown by the gate when a message fails a check; nothing was sent. The message names the
 * check and says how to fix the text, and never quotes the text (it may hold a secret).
 */
export class GateRefusal extends Error {
  /** Always "GateRefusal". */
  override name = "GateRefusal";
  /** The first check that failed. */
  readonly check: string;
  /** Every failing verdict, in pipeline order (at least one). */
  readonly failed: readonly Verdict[];

  /** `failed` must hold at least one failing verdict. */
  constructor(failed: readonly Verdict[]) {
    if (failed.length === 0) throw new TypeError("GateRefusal needs a failing verdict");
    const reasons = failed.map((v) => `${v.check} — ${v.reason ?? "failed"}`).join("; ");
    const names = failed.map((v) => v.check).join(", ");
    super(
      `the outbound gate blocked it (failed check${failed.length > 1 ? "s" : ""}: ${names}). ` +
        `${reasons}. Nothing was posted; correct the message and try again.`,
    );
    this.check = failed[0].check;
    this.failed = failed;
  }
}
