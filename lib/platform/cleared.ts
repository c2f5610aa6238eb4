/**
 * The one shape agent-authored text can take on its way to a person. Every create call of this
 * client that carries words (a message body, an asset's file, filename and description, a task's
 * instructions, a webhook endpoint's description) takes a `ClearedText` of its surface and
 * nothing else, and so does the harness's own push transport for direct messages and
 * escalation notices. A `ClearedText` exists only if a non-empty list of checks judged exactly
 * these fields and every verdict passed: its constructor is private (and guarded at run time),
 * and the one way to build one, {@link ClearedText.seal}, is called only by the outbound gate
 * (`lib/gate/`), which runs the checks itself. tests/architecture/gate_only.test.ts fails on any
 * other caller, and on a create call that takes a raw string for agent text.
 *
 * The type lives here, below the gate, because the client's signatures name it; the gate owns
 * the checks and is the only module that seals one.
 */

/** Where agent text leaves the box. */
export type TextSurface =
  | "message"
  | "asset"
  | "task"
  | "webhook_endpoint"
  | "direct_message"
  | "escalation";

/** The fields each surface sends; the text ones are what the gate screens. */
export interface SurfaceFields {
  /** A timeline message: its body. */
  readonly message: { readonly body: string };
  /**
   * An uploaded file: its bytes (screened as text unless the content type says image, audio or
   * video), its filename and optional description (always screened).
   */
  readonly asset: {
    readonly file: Uint8Array;
    readonly filename: string;
    readonly contentType?: string;
    readonly description?: string;
  };
  /**
   * A scheduled task: the instructions (screened) and when it comes due. A Date is sent as UTC
   * ISO-8601; a string as is.
   */
  readonly task: { readonly instructions: string; readonly activateAt: Date | string };
  /** A webhook endpoint: its description. */
  readonly webhook_endpoint: { readonly description: string };
  /** A push to the operator the agent wrote (`send_direct_message_to_origin`). */
  readonly direct_message: { readonly body: string };
  /** The harness's escalation notice about a failed turn. */
  readonly escalation: { readonly body: string };
}

/** One check's passing verdict, as the seal needs it (the gate's `Verdict`, structurally). */
export interface SealVerdict {
  /** The check's name. */
  readonly check: string;
  /** Must be true for every verdict. */
  readonly passed: boolean;
  /** The field it judged (`body`, `description`, `file`, …). */
  readonly field?: string;
}

const SEAL: unique symbol = Symbol("ClearedText.seal");

/** Agent text of one surface whose fields passed every check of a non-empty pipeline. */
export class ClearedText<S extends TextSurface = TextSurface> {
  /** The surface it was cleared for; a create call refuses any other. */
  readonly surface: S;
  /** The fields that were judged: immutable, so what was checked is what is sent. */
  readonly fields: Readonly<SurfaceFields[S]>;
  /** The verdicts that let it through: non-empty, all passed. */
  readonly verdicts: readonly SealVerdict[];
  // An ES private field makes the class nominal: a look-alike object literal does not type-check.
  readonly #sealed = true;

  private constructor(
    seal: typeof SEAL,
    surface: S,
    fields: SurfaceFields[S],
    verdicts: readonly SealVerdict[],
  ) {
    if (seal !== SEAL) throw new TypeError("a ClearedText is only made by ClearedText.seal()");
    if (verdicts.length === 0) throw new TypeError("a ClearedText needs verdicts");
    const failed = verdicts.filter((v) => !v.passed).map((v) => v.check);
    if (failed.length > 0) {
      throw new TypeError(`a ClearedText cannot carry failing verdicts (${failed.join(", ")})`);
    }
    this.surface = surface;
    this.fields = Object.freeze({ ...fields });
    this.verdicts = Object.freeze([...verdicts]);
    Object.freeze(this);
  }

  /**
   * Seals `fields` for `surface`. Only the outbound gate calls this, after running its checks on
   * exactly these fields (an architecture test enforces it); throws on no or failing verdicts.
   */
  static seal<S extends TextSurface>(
    surface: S,
    fields: SurfaceFields[S],
    verdicts: readonly SealVerdict[],
  ): ClearedText<S> {
    return new ClearedText(SEAL, surface, fields, verdicts);
  }

  /** Whether `value` really was sealed, for `surface` (a backstop for untyped callers). */
  static is<S extends TextSurface>(value: unknown, surface: S): value is ClearedText<S> {
    return typeof value === "object" && value !== null && #sealed in value &&
      (value as ClearedText).surface === surface;
  }
}

/**
 * `value`'s fields when it is a sealed `ClearedText` of `surface`; a TypeError otherwise (a raw
 * object or a cast never reaches the wire).
 */
export function clearedFields<S extends TextSurface>(
  value: ClearedText<S>,
  surface: S,
): Readonly<SurfaceFields[S]> {
  if (!ClearedText.is(value, surface)) {
    throw new TypeError(
      `this create call takes only agent text the outbound gate cleared for '${surface}'`,
    );
  }
  return value.fields;
}
