/**
 * Small renderers that keep tool replies in the reference's wording, which prints Python
 * values: `repr()` of a string and `True`/`False` for a flag.
 */
import { codePointLength, headCodePoints } from "../../base/code_points.ts";

/** `True` / `False`, as the reference prints a flag (`locked=False`). */
export function pyBool(value: boolean): string {
  return value ? "True" : "False";
}

/** `text` cut to `max` code points (right-trimmed, with `…`) when it is longer, as Python cuts. */
export function elide(text: string, max: number): string {
  return codePointLength(text) > max ? `${headCodePoints(text, max).trimEnd()}…` : text;
}
