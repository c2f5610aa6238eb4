/**
 * The outbound gate: the only way a message reaches the platform. `Gate` screens every post
 * with deterministic checks (non-empty, the agent's own secrets in any spelling, credential
 * shapes, length, operator-forbidden patterns) and posts only a sealed `CheckedMessage`;
 * `loadGuardrails` reads the operator's `guardrails.json`.
 * @module
 */
export { Gate, type GateOptions } from "./gate.ts";
export { CheckedMessage, type Draft } from "./checked_message.ts";
export { clearText, fieldSubject, type SurfaceChecks } from "./clear.ts";
export type { ClearRequest, ClearSurface } from "./post_request.ts";
export { GateRefusal, redactSpans } from "./refusal.ts";
export { SPEAKING_CLOSED, SpeakingClosed } from "./closed.ts";
export type { Check, Verdict } from "./verdict.ts";
export {
  forbiddenPatterns,
  knownSecrets,
  maxLength,
  notEmpty,
  pipeline,
  secretGuard,
  surfaceChecks,
} from "./checks.ts";
export { type CredentialFinding, findCredentials, findCredentialShape } from "./secret_shapes.ts";
export {
  findOwnSecrets,
  MIN_SECRET_PART,
  type OwnSecret,
  prepareOwnSecrets,
  secretPart,
} from "./own_secrets.ts";
export { type Folded, foldSkeleton, foldVisible } from "./fold.ts";
export {
  DEFAULT_GUARDRAILS,
  DEFAULT_MAX_LENGTH,
  DEFAULT_MAX_REFUSALS_PER_TURN,
  type ForbiddenPattern,
  type Guardrails,
  GUARDRAILS_FILE,
  GuardrailsError,
  loadGuardrails,
  MAX_MAX_LENGTH,
  MAX_MAX_REFUSALS_PER_TURN,
  parseGuardrails,
} from "./guardrails.ts";
