/**
 * `lib/gate/`: the outbound gate, the only way a message reaches the platform, and the post-request
 * types it owns.
 *
 * The outbound gate: the only way a message reaches the platform. `Gate` screens every post
 * with deterministic checks (non-empty, the agent's own secrets, credential shapes, length,
 * operator-forbidden patterns) and posts only a sealed `CheckedMessage`; `loadGuardrails` reads
 * the operator's `guardrails.json`.
 * @module
 */
export { Gate, type GateOptions } from "./gate.ts";
export { CheckedMessage, type Draft } from "./checked_message.ts";
export { GateRefusal } from "./refusal.ts";
export type { Check, Verdict } from "./verdict.ts";
export {
  forbiddenPatterns,
  knownSecrets,
  maxLength,
  notEmpty,
  pipeline,
  secretGuard,
} from "./checks.ts";
export { findCredentialShape } from "./secret_shapes.ts";
export {
  DEFAULT_GUARDRAILS,
  DEFAULT_MAX_LENGTH,
  type ForbiddenPattern,
  type Guardrails,
  GUARDRAILS_FILE,
  GuardrailsError,
  loadGuardrails,
  MAX_MAX_LENGTH,
  parseGuardrails,
} from "./guardrails.ts";
