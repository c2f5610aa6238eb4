/**
 * Python's `float(text)` for the breaker and billing files, which hold float reprs: what Python
 * accepts is read, anything else is "corrupt" (the caller skips it). JS `Number()` is not the
 * same reader — it takes `""`, `0x10` and `Infinity` but not `1_000` or `inf`.
 */

const DIGITS = String.raw`\d(?:_?\d)*`;
const DECIMAL = new RegExp(
  String.raw`^[+-]?(?:${DIGITS}(?:\.(?:${DIGITS})?)?|\.${DIGITS})(?:[eE][+-]?${DIGITS})?$`,
);
const SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

/** The value Python's `float(text)` gives, or undefined where Python raises ValueError. */
export function parsePythonFloat(text: string): number | undefined {
  const raw = text.trim();
  const special = SPECIAL.exec(raw);
  if (special) {
    if (special[2].toLowerCase() === "nan") return NaN;
    return special[1] === "-" ? -Infinity : Infinity;
  }
  if (!DECIMAL.test(raw)) return undefined;
  return Number(raw.replaceAll("_", ""));
}
