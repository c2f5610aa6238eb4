/**
 * File names from source keys, spelled exactly as the Python reference spells them
 * (`urllib.parse.quote(x, safe='')` / `unquote`), so both runtimes find each other's files:
 * `timeline:<uuid>` is stored as `timeline%3A<uuid>.json`.
 */

/** Bytes Python's quote never escapes (RFC 3986 unreserved). */
const UNRESERVED = /^[A-Za-z0-9_.~-]$/;

const encoder = new TextEncoder();

/**
 * Python `urllib.parse.quote(text, safe='')`: UTF-8 first, then every byte outside
 * `A-Z a-z 0-9 _ . - ~` as uppercase `%XX`. (A lone surrogate, which Python refuses to encode,
 * becomes U+FFFD here.)
 */
export function quote(text: string): string {
  let out = "";
  for (const char of text) {
    if (UNRESERVED.test(char)) {
      out += char;
      continue;
    }
    for (const byte of encoder.encode(char)) {
      out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    }
  }
  return out;
}

const ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g;

/**
 * Python `urllib.parse.unquote(text)`: each run of `%XX` escapes decoded as UTF-8 (invalid bytes
 * become U+FFFD); anything else, including a malformed `%`, is kept as written.
 */
export function unquote(text: string): string {
  if (!text.includes("%")) return text;
  const decoder = new TextDecoder("utf-8", { fatal: false });
  return text.replace(ESCAPES, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
    return decoder.decode(bytes);
  });
}
