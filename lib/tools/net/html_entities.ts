/**
 * HTML character references, decoded for the text `web_fetch` hands the model, by the `entities`
 * package (the decoder of the htmlparser2 family) rather than a table of our own: every name of
 * the HTML standard (`&alpha;`, `&rarr;`, `&NotEqualTilde;`), the legacy names browsers still
 * honour without a semicolon in text (`&copy 2024`, `&eacute`), and numeric references mapped as
 * browsers map them — 128–159 through windows-1252 (`&#150;` is an en dash, not a C1 control),
 * 0, surrogates and code points past U+10FFFF as U+FFFD. An unknown name stays as written.
 *
 * The package is loaded with the text layer, which web_fetch imports only when it renders a page
 * (lib/base/lazy_modules.ts), so neither an idle wake nor a turn that fetches nothing loads it.
 */
import { decodeHTML } from "entities";

/** Decodes the character references in a run of HTML text, as a browser decodes text content. */
export function decodeEntities(text: string): string {
  return text.includes("&") ? decodeHTML(text) : text;
}
