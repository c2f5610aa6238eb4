/**
 * UUIDv7 identifiers (RFC 9562), monotonic within the process so that "newest first" can be
 * served as "uuid descending" — the same property the platform's pagination relies on.
 */

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

export { isUuid } from "../../base/uuid.ts";

/**
 * A UUIDv7 source. Within one millisecond a 42-bit counter (12 bits of `rand_a` plus the top 30
 * bits of `rand_b`) is incremented instead of re-randomised, so ids never go backwards even when
 * the wall clock does (the timestamp is pinned to the last one issued).
 */
export class Uuid7Generator {
  #lastMs = -1;
  #counter = 0;
  readonly #clock: () => number;

  /**
   * A generator whose ids follow the given clock.
   *
   * @param clock milliseconds since the epoch; injectable for tests.
   */
  constructor(clock: () => number = Date.now) {
    this.#clock = clock;
  }

  /** The next id, strictly greater (as a string) than every id this generator issued before. */
  next(): string {
    let ms = Math.floor(this.#clock());
    if (ms > this.#lastMs) {
      this.#lastMs = ms;
      // Start low in the counter space so thousands of ids fit in one millisecond.
      this.#counter = randomInt(2 ** 40);
    } else {
      ms = this.#lastMs;
      this.#counter++;
      if (this.#counter >= 2 ** 42) {
        // Counter exhausted: borrow the next millisecond rather than wrap around.
        this.#lastMs = ++ms;
        this.#counter = randomInt(2 ** 40);
      }
    }
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes.subarray(12));
    let time = ms;
    for (let i = 5; i >= 0; i--) {
      bytes[i] = time % 256;
      time = Math.floor(time / 256);
    }
    const high = Math.floor(this.#counter / 2 ** 30); // 12 bits → rand_a
    const low = this.#counter % 2 ** 30; // 30 bits → top of rand_b
    bytes[6] = 0x70 | (high >> 8);
    bytes[7] = high & 0xff;
    bytes[8] = 0x80 | (low >>> 24);
    bytes[9] = (low >>> 16) & 0xff;
    bytes[10] = (low >>> 8) & 0xff;
    bytes[11] = low & 0xff;
    return format(bytes);
  }
}

function randomInt(limit: number): number {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return (words[0] * 2 ** 32 + words[1]) % limit;
}

function format(bytes: Uint8Array): string {
  const h = Array.from(bytes, (b) => HEX[b]);
  return `${h.slice(0, 4).join("")}-${h.slice(4, 6).join("")}-${h.slice(6, 8).join("")}-${
    h.slice(8, 10).join("")
  }-${h.slice(10).join("")}`;
}

const shared = new Uuid7Generator();

/** A new UUIDv7 from the process-wide generator. */
export function uuid7(): string {
  return shared.next();
}
