/**
 * Text measured the way the reference measures it: in Unicode code points of the decoded string.
 * JS `string.length` counts UTF-16 units, so an emoji would count twice and a cap would bite
 * harder on some scripts than on others; every length the caps compare goes through here.
 */

/** Any UTF-16 surrogate; text without one has exactly `length` code points. */
const SURROGATE = /[\uD800-\uDFFF]/;

function isHigh(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLow(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** Width in UTF-16 units of the code point starting at `index` (a lone surrogate is one). */
function widthAt(text: string, index: number): number {
  return isHigh(text.charCodeAt(index)) && index + 1 < text.length &&
      isLow(text.charCodeAt(index + 1))
    ? 2
    : 1;
}

/** Code points in `text`; a lone surrogate counts as one, as it does in Python. */
export function codePointLength(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let count = 0;
  for (let i = 0; i < text.length; i += widthAt(text, i)) count++;
  return count;
}

/** The first `count` code points of `text` (Python `text[:count]`, for `count >= 0`). */
export function headCodePoints(text: string, count: number): string {
  if (count <= 0) return "";
  if (!SURROGATE.test(text)) return text.slice(0, count);
  let index = 0;
  for (let taken = 0; taken < count && index < text.length; taken++) index += widthAt(text, index);
  return text.slice(0, index);
}

/** The last `count` code points of `text` (Python `text[-count:]`, for `count > 0`). */
export function tailCodePoints(text: string, count: number): string {
  if (count <= 0) return "";
  if (!SURROGATE.test(text)) return count >= text.length ? text : text.slice(text.length - count);
  let index = text.length;
  for (let taken = 0; taken < count && index > 0; taken++) {
    // Step back over a whole pair when the unit before `index` closes one.
    index -= index >= 2 && isLow(text.charCodeAt(index - 1)) && isHigh(text.charCodeAt(index - 2))
      ? 2
      : 1;
  }
  return text.slice(index);
}
