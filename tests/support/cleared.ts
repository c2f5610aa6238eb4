/**
 * Text a test writes as a platform user (a person seeding a timeline, a contract test of the
 * client), sealed for the client's create calls. The agent's text never comes through here: it
 * passes the outbound gate's checks (`lib/gate/`); this seals a person's fixture text with a
 * check that passes everything, through the gate's own `clearText`.
 */
import { clearText } from "../../lib/gate/clear.ts";
import type { Check } from "../../lib/gate/verdict.ts";
import type { ClearedText, SurfaceFields, TextSurface } from "../../lib/platform/mod.ts";

const FIXTURE: Check = { name: "fixture", judge: () => ({ check: "fixture", passed: true }) };

/** `fields` as a person's text for `surface`, accepted by the client's create call. */
export function asUser<S extends TextSurface>(
  surface: S,
  fields: SurfaceFields[S],
): ClearedText<S> {
  return clearText(surface, fields, { message: [FIXTURE], text: [FIXTURE] });
}
