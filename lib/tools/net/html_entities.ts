/**
 * HTML character references, decoded for the text `web_fetch` hands the model. Numeric
 * references are complete; named ones cover Latin-1 and the punctuation prose actually uses,
 * which keeps the table small (the full HTML list has over 2,000 names). An unknown name is
 * left as written, so nothing is silently lost.
 */

// Code points 160–255 in order: the Latin-1 names every older page uses.
const LATIN1 = (
  "nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg " +
  "plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest " +
  "Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute " +
  "Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc " +
  "Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute " +
  "ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide " +
  "oslash ugrave uacute ucirc uuml yacute thorn yuml"
).split(" ");

const NAMED: ReadonlyMap<string, string> = new Map<string, string>([
  ...LATIN1.map((name, i): [string, string] => [name, String.fromCharCode(160 + i)]),
  ["amp", "&"],
  ["lt", "<"],
  ["gt", ">"],
  ["quot", '"'],
  ["apos", "'"],
  ["ensp", "\u2002"],
  ["emsp", "\u2003"],
  ["thinsp", "\u2009"],
  ["zwnj", "\u200c"],
  ["zwj", "\u200d"],
  ["lrm", "\u200e"],
  ["rlm", "\u200f"],
  ["ndash", "\u2013"],
  ["mdash", "\u2014"],
  ["lsquo", "\u2018"],
  ["rsquo", "\u2019"],
  ["sbquo", "\u201a"],
  ["ldquo", "\u201c"],
  ["rdquo", "\u201d"],
  ["bdquo", "\u201e"],
  ["dagger", "\u2020"],
  ["Dagger", "\u2021"],
  ["bull", "\u2022"],
  ["hellip", "\u2026"],
  ["permil", "\u2030"],
  ["prime", "\u2032"],
  ["Prime", "\u2033"],
  ["lsaquo", "\u2039"],
  ["rsaquo", "\u203a"],
  ["euro", "\u20ac"],
  ["trade", "\u2122"],
  ["larr", "\u2190"],
  ["uarr", "\u2191"],
  ["rarr", "\u2192"],
  ["darr", "\u2193"],
  ["harr", "\u2194"],
  ["minus", "\u2212"],
  ["infin", "\u221e"],
  ["asymp", "\u2248"],
  ["ne", "\u2260"],
  ["le", "\u2264"],
  ["ge", "\u2265"],
  ["check", "\u2713"],
]);

// The few names browsers still honour without the semicolon, in text that people write.
const LEGACY = new Set(["amp", "lt", "gt", "quot", "nbsp", "copy", "reg"]);

/** Decodes character references (`&amp;`, `&#8212;`, `&#x2014;`) in a run of text. */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(
    /&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,7})|([A-Za-z][A-Za-z0-9]{1,31}));?/g,
    (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
      if (dec !== undefined || hex !== undefined) {
        const code = dec !== undefined ? parseInt(dec, 10) : parseInt(hex as string, 16);
        const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
        return valid ? String.fromCodePoint(code) : "\ufffd";
      }
      const value = NAMED.get(name as string);
      if (value === undefined) return whole;
      return whole.endsWith(";") || LEGACY.has(name as string) ? value : whole;
    },
  );
}
