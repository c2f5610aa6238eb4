/**
 * Clearing agent text for a surface: the only place a {@link ClearedText} is sealed. Each text
 * field of the surface is judged by the surface's checks (docs/security.md#what-each-surface-screens);
 * every verdict is kept, tagged with its field, and a single failure refuses the whole create
 * with a {@link GateRefusal} naming every refused field and the checks. Pure: the same fields and checks
 * always give the same verdicts, which is what lets a replay reach the same decision.
 */
import { ClearedText, type SurfaceFields, type TextSurface } from "../platform/mod.ts";
import { GateRefusal, redactSpans } from "./refusal.ts";
import type { Check, Verdict } from "./verdict.ts";

/** The checks a gate runs, by kind of surface. */
export interface SurfaceChecks {
  /** A timeline message's body: the whole pipeline (length and emptiness included). */
  readonly message: readonly Check[];
  /**
   * Every other text field (filenames, descriptions, file contents, task instructions, direct
   * messages): secrets, credential shapes and operator patterns; length is the platform's concern.
   */
  readonly text: readonly Check[];
}

/** One text field of a surface, as it is screened. */
interface Field {
  readonly name: string;
  readonly text: string;
}

/** The words a surface carries: every field a person will read. */
function textFields<S extends TextSurface>(surface: S, fields: SurfaceFields[S]): Field[] {
  switch (surface) {
    case "message":
    case "direct_message":
    case "escalation":
      return [{ name: "body", text: String((fields as { body: string }).body) }];
    case "task":
      return [{
        name: "instructions",
        text: String((fields as SurfaceFields["task"]).instructions),
      }];
    case "webhook_endpoint":
      return [{
        name: "description",
        text: String((fields as SurfaceFields["webhook_endpoint"]).description),
      }];
    case "asset": {
      const asset = fields as SurfaceFields["asset"];
      const out: Field[] = [{ name: "filename", text: String(asset.filename) }];
      if (asset.description !== undefined) {
        out.push({ name: "description", text: String(asset.description) });
      }
      const text = fileText(asset.file, asset.contentType);
      if (text !== undefined) out.push({ name: "file", text });
      return out;
    }
  }
  throw new TypeError(`no such surface: ${String(surface)}`);
}

const MEDIA = /^(?:image|audio|video)\//i;

/**
 * The file's bytes as the text a reader would see, or undefined for a picture, a sound or a
 * film, whose words are its filename and description. Decided by the bytes first: anything that
 * is valid UTF-8 is text, whatever it is called, so naming a text file `.png` does not skip the
 * screen. Bytes that are not UTF-8 are media only when the uploader declared an image, audio or
 * video type (generated and captured media do); anything else is decoded leniently and screened.
 */
function fileText(bytes: Uint8Array, contentType: string | undefined): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    if (contentType !== undefined && MEDIA.test(contentType.trim())) return undefined;
    return new TextDecoder("utf-8").decode(bytes);
  }
}

/** Immutable copies of the fields, so the bytes judged are the bytes sent. */
function frozen<S extends TextSurface>(surface: S, fields: SurfaceFields[S]): SurfaceFields[S] {
  if (surface !== "asset") return { ...fields };
  const asset = fields as SurfaceFields["asset"];
  return { ...asset, file: asset.file.slice() } as SurfaceFields[S];
}

/** What a refusal calls the field: "the asset's description", "the task's instructions". */
export function fieldSubject(surface: TextSurface, field: string): string {
  const owner: Record<TextSurface, string> = {
    message: "the message",
    asset: "the asset's",
    task: "the task's",
    webhook_endpoint: "the webhook endpoint's",
    direct_message: "the direct message",
    escalation: "the escalation notice",
  };
  if (field === "body") return owner[surface];
  if (surface === "asset" && field === "file") return "the file's content";
  return `${owner[surface]} ${field}`;
}

/**
 * What a refusal calls several refused fields, in the surface's order: "the asset's filename and
 * the file's content".
 */
function fieldsSubject(surface: TextSurface, fields: readonly string[]): string {
  const named = [...new Set(fields)].map((field) => fieldSubject(surface, field));
  return named.length === 1 ? named[0] : `${named.slice(0, -1).join(", ")} and ${named.at(-1)}`;
}

/**
 * Screens `fields` for `surface` with `checks` and seals them, or throws GateRefusal carrying
 * every failing verdict (each tagged with its field). An empty pipeline is a programming error.
 */
export function clearText<S extends TextSurface>(
  surface: S,
  fields: SurfaceFields[S],
  checks: SurfaceChecks,
): ClearedText<S> {
  const pipeline = surface === "message" ? checks.message : checks.text;
  if (pipeline.length === 0) throw new TypeError("clearing needs at least one check");
  const copy = frozen(surface, fields);
  const verdicts: (Verdict & { readonly field: string })[] = [];
  const redacted: Record<string, string> = {};
  for (const field of textFields(surface, copy)) {
    const judged = pipeline.map((check) => ({ ...check.judge(field.text), field: field.name }));
    verdicts.push(...judged);
    const failed = judged.filter((v) => !v.passed);
    if (failed.length > 0) {
      const spans = failed.flatMap((v) => v.spans ?? []);
      if (spans.length > 0) redacted[field.name] = redactSpans(field.text, spans);
    }
  }
  const failed = verdicts.filter((v) => !v.passed);
  if (failed.length > 0) {
    const subject = fieldsSubject(surface, failed.map((v) => v.field));
    throw new GateRefusal(failed, undefined, subject, redacted);
  }
  return ClearedText.seal(surface, copy, verdicts);
}
