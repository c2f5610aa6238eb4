/**
 * IP address literals, parsed into bytes and printed canonically. web_fetch's SSRF fence
 * compares bytes and the host rules compare canonical text, never the spelling given, because
 * the same address has many spellings (`127.1`, `0x7f000001`, `2130706433`, `::ffff:7f00:1`)
 * and a string check is exactly what an attacker walks around.
 */

/** A parsed address: its family, its bytes (4 or 16) and its canonical text. */
export interface IpAddress {
  /** 4 or 6. */
  readonly family: 4 | 6;
  /** The address in network order: 4 bytes for IPv4, 16 for IPv6. */
  readonly bytes: Uint8Array;
  /** Dotted quad for IPv4, RFC 5952 form (no brackets) for IPv6. */
  readonly text: string;
}

/** Builds an {@link IpAddress} from 4 or 16 bytes. */
export function ipFromBytes(bytes: Uint8Array): IpAddress {
  if (bytes.length === 4) return { family: 4, bytes, text: formatIPv4(bytes) };
  if (bytes.length === 16) return { family: 6, bytes, text: formatIPv6(bytes) };
  throw new RangeError(`an IP address has 4 or 16 bytes, not ${bytes.length}`);
}

/**
 * Parses an IPv4 literal in every spelling the WHATWG URL host parser accepts: 1–4 parts,
 * each decimal, octal (leading `0`) or hex (`0x`), the last part filling the remaining bytes,
 * and one trailing dot. Returns null for anything else.
 */
export function parseIPv4(text: string): Uint8Array | null {
  let parts = text.split(".");
  if (parts.length > 1 && parts[parts.length - 1] === "") parts = parts.slice(0, -1);
  if (parts.length < 1 || parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    const value = parseIPv4Part(part);
    if (value === null) return null;
    numbers.push(value);
  }
  const last = numbers.pop() as number;
  if (numbers.some((n) => n > 255)) return null;
  if (last >= 256 ** (4 - numbers.length)) return null;
  const out = new Uint8Array(4);
  numbers.forEach((n, i) => (out[i] = n));
  let rest = last;
  for (let i = 3; i >= numbers.length; i--) {
    out[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  return out;
}

function parseIPv4Part(part: string): number | null {
  let digits = part;
  let radix = 10;
  if (/^0x/i.test(digits)) {
    digits = digits.slice(2);
    radix = 16;
    if (digits === "") return 0; // WHATWG reads a bare "0x" as zero
  } else if (digits.length > 1 && digits.startsWith("0")) {
    digits = digits.slice(1);
    radix = 8;
  }
  const pattern = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!pattern.test(digits)) return null;
  const value = parseInt(digits, radix);
  // Beyond 2^32 no spelling is valid; refusing early also keeps the arithmetic exact.
  return Number.isSafeInteger(value) && value <= 0xffffffff ? value : null;
}

/** The result of parsing an IPv6 literal: the bytes and any zone id (`%eth0`). */
export interface ParsedIPv6 {
  /** The 16 address bytes. */
  readonly bytes: Uint8Array;
  /** The zone id after `%`, or null; a scoped address is never public. */
  readonly zone: string | null;
}

/**
 * Parses an IPv6 literal, with or without brackets, with `::` compression, an embedded
 * dotted IPv4 tail and an optional zone id (`%eth0` or URL-encoded `%25eth0`). Returns null
 * for anything else.
 */
export function parseIPv6(input: string): ParsedIPv6 | null {
  let text = input;
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  let zone: string | null = null;
  const percent = text.indexOf("%");
  if (percent >= 0) {
    zone = text.slice(percent + 1).replace(/^25/, "");
    text = text.slice(0, percent);
    if (zone === "") return null;
  }
  if (!text.includes(":")) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const compressed = halves.length === 2;
  // Only the very last group of the whole address may be a dotted IPv4 tail.
  const head = parseWords(halves[0], !compressed);
  const tail = compressed ? parseWords(halves[1], true) : [];
  if (head === null || tail === null) return null;
  const count = head.length + tail.length;
  if (compressed ? count > 7 : count !== 8) return null;
  const full = [...head, ...new Array<number>(8 - count).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  full.forEach((word, i) => {
    bytes[i * 2] = word >> 8;
    bytes[i * 2 + 1] = word & 0xff;
  });
  return { bytes, zone };
}

/** 16-bit words of one side of `::`; null when a group is malformed. */
function parseWords(side: string, v4TailAllowed: boolean): number[] | null {
  if (side === "") return [];
  const groups = side.split(":");
  const words: number[] = [];
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i];
    if (v4TailAllowed && i === groups.length - 1 && group.includes(".")) {
      // An IPv4 tail must be a strict dotted quad, not the lenient URL spellings.
      if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(group)) return null;
      const v4 = group.split(".").map(Number);
      if (v4.some((n) => n > 255)) return null;
      words.push(v4[0] * 256 + v4[1], v4[2] * 256 + v4[3]);
      continue;
    }
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    words.push(parseInt(group, 16));
  }
  return words;
}

/** Dotted-quad text of 4 bytes. */
export function formatIPv4(bytes: Uint8Array): string {
  return Array.from(bytes.subarray(0, 4)).join(".");
}

/** RFC 5952 text of 16 bytes: lowercase, no leading zeros, the longest zero run as `::`. */
export function formatIPv6(bytes: Uint8Array): string {
  const words: number[] = [];
  for (let i = 0; i < 16; i += 2) words.push(bytes[i] * 256 + bytes[i + 1]);
  let bestStart = -1;
  let bestLength = 1; // a single zero word is never compressed
  for (let i = 0; i < 8;) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = words.map((w) => w.toString(16));
  if (bestStart < 0) return hex.join(":");
  const left = hex.slice(0, bestStart).join(":");
  const right = hex.slice(bestStart + bestLength).join(":");
  return `${left}::${right}`;
}

/**
 * Parses any IP literal (IPv4 in any spelling, IPv6 with or without brackets). Returns null
 * for a name, and also reports a zone id so the caller can refuse scoped addresses.
 */
export function parseIp(text: string): { address: IpAddress; zone: string | null } | null {
  const v6 = parseIPv6(text);
  if (v6) return { address: ipFromBytes(v6.bytes), zone: v6.zone };
  const v4 = parseIPv4(text);
  if (v4) return { address: ipFromBytes(v4), zone: null };
  return null;
}
