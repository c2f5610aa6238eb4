/**
 * The outbound gate: the only way a message reaches the platform
 * (docs/invariants.md#2-the-gate-is-the-only-way-out). Every post is screened by the deterministic
 * checks first; a refusal throws GateRefusal (the model reads it and can correct itself) and logs
 * WARNING `post blocked`, never the text. A post that goes out logs INFO `posted`.
 *
 * The gate does not log `post failed` for a platform refusal: the caller does, because the
 * line's colour depends on who was posting (docs/journal.md#the-line-catalogue), and the caller
 * decides what the failure means (a tool relays it to the model, the wake reports it).
 */
import { codePointLength } from "../base/code_points.ts";
import { posted } from "../journal/catalogue.ts";
import { type Journal, silentJournal } from "../journal/journal.ts";
import type { ClearedText, Message, PlatformClient } from "../platform/mod.ts";
import type { ClearRequest, ClearSurface, OutboundGate, PostRequest } from "./post_request.ts";
import type { PostKind } from "../journal/catalogue_wake.ts";
import { CheckedMessage } from "./checked_message.ts";
import { surfaceChecks } from "./checks.ts";
import { clearText, type SurfaceChecks } from "./clear.ts";
import { deliver } from "./deliver.ts";
import { DEFAULT_GUARDRAILS, type Guardrails } from "./guardrails.ts";
import { GateRefusal } from "./refusal.ts";
import { TONE_CHECK, type ToneCheck, toneRefusalReason, type ToneVerdict } from "./tone.ts";
import { fail } from "./verdict.ts";
import type { Check } from "./verdict.ts";

/** What a gate is built from. */
export interface GateOptions {
  /** The authenticated client the messages are posted with. */
  readonly client: PlatformClient;
  /** The operator's guardrails (default: {@link DEFAULT_GUARDRAILS}). */
  readonly guardrails?: Guardrails;
  /** Where `posted` and `post blocked` go (default: silent). */
  readonly journal?: Journal;
  /**
   * Literal secrets that must never be posted: the agent's platform token, its API keys. Pass
   * the same values the wake registers with the journal's scrubber.
   */
  readonly secrets?: Iterable<string | null | undefined>;
  /**
   * The tone check (docs/security.md#the-tone-check), when `guardrails.json` configures one: it
   * judges the agent's own messages (kind `tool`) after every rule check passed.
   */
  readonly tone?: ToneCheck;
}

/** The outbound gate. */
export class Gate implements OutboundGate {
  /** The checks every post passes, in order. */
  readonly checks: readonly Check[];
  /** The checks of every surface (a message's are {@link checks}). */
  readonly surfaces: SurfaceChecks;
  readonly #client: PlatformClient;
  readonly #journal: Journal;
  readonly #tone: ToneCheck | undefined;

  /** Builds the pipeline once; guardrails and secrets are fixed for the gate's life. */
  constructor(options: GateOptions) {
    this.#client = options.client;
    this.#journal = options.journal ?? silentJournal;
    this.#tone = options.tone;
    const surfaces = surfaceChecks(options.guardrails ?? DEFAULT_GUARDRAILS, options.secrets ?? []);
    this.surfaces = Object.freeze({
      message: Object.freeze(surfaces.message),
      text: Object.freeze(surfaces.text),
    });
    this.checks = this.surfaces.message;
  }

  /**
   * Screens an asset's, task's, webhook endpoint's or direct message's text and seals it; a
   * refusal logs `post blocked` with the surface as its kind, and is thrown.
   */
  clear<S extends ClearSurface>(request: ClearRequest<S>): Promise<ClearedText<S>> {
    try {
      return Promise.resolve(clearText(request.surface, request.fields, this.surfaces));
    } catch (error) {
      if (error instanceof GateRefusal) {
        this.#blocked(request.timeline ?? "-", request.surface, error);
      }
      return Promise.reject(error);
    }
  }

  /**
   * Screens a body without posting it, for a tool that speaks through its own transport: the
   * same checks, and the same refusal and `post blocked` line.
   */
  screen(request: Omit<PostRequest, "idempotencyKey">): CheckedMessage {
    try {
      return CheckedMessage.screen(request, this.checks);
    } catch (error) {
      if (error instanceof GateRefusal) this.#blocked(request.timeline, request.kind, error);
      throw error;
    }
  }

  /**
   * Screens, has the agent's own message judged for tone when a tone check is configured, then
   * posts; a replayed idempotency key resolves to the original message.
   */
  async post(request: PostRequest): Promise<Message> {
    const checked = this.screen(request);
    if (this.#tone !== undefined && request.kind === "tool") {
      const verdict = await this.#tone.judge(checked.body);
      request.onTone?.(verdict);
      if (!verdict.passed) {
        const refusal = toneRefusal(verdict);
        if (verdict.error !== undefined) {
          this.#journal.event("WARNING", "tone unjudged", {
            timeline: request.timeline,
            model: verdict.model,
            error: verdict.error,
            why: verdict.reason,
          }, { color: "yellow" });
        }
        this.#blocked(request.timeline, request.kind, refusal);
        throw refusal;
      }
    }
    const message = await deliver(this.#client, checked, request.idempotencyKey);
    posted(this.#journal, {
      message: message.content.uuid,
      timeline: checked.timeline,
      kind: request.kind,
      chars: codePointLength(checked.body),
    });
    return message;
  }

  #blocked(timeline: string, kind: PostKind | ClearSurface, refusal: GateRefusal): void {
    this.#journal.event("WARNING", "post blocked", {
      timeline,
      kind,
      check: [...new Set(refusal.failed.map((v) => v.check))].join(","),
    }, { color: "yellow" });
  }
}

/** The refusal a failing tone verdict gives: one `tone` verdict, the judge's reason verbatim. */
export function toneRefusal(verdict: ToneVerdict): GateRefusal {
  return new GateRefusal([fail(TONE_CHECK, toneRefusalReason(verdict))]);
}
