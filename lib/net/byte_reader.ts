/**
 * A small buffered reader over a connection, enough to parse an HTTP/1.1 response: lines for
 * the head and chunk sizes, bounded byte runs for the body. It never buffers more than one
 * socket read beyond what was asked for, so memory stays bounded by the caller's limits.
 */

/** Reads into a buffer; resolves the byte count, or null at end of stream (like `Deno.Conn`). */
export type ReadFn = (buffer: Uint8Array) => Promise<number | null>;

const READ_SIZE = 16 * 1024;
const CR = 13;
const LF = 10;

/** Thrown when a line exceeds the caller's limit; the message is for the model. */
export class LineTooLongError extends Error {
  /** Names the class in stack traces and logs. */
  override name = "LineTooLongError";
}

/** A buffered reader; see the module comment. */
export class ByteReader {
  #buffer = new Uint8Array(0);
  #eof = false;
  readonly #read: ReadFn;

  /** Wraps a read function (e.g. `conn.read.bind(conn)`). */
  constructor(read: ReadFn) {
    this.#read = read;
  }

  /** Pulls one more socket read into the buffer; false at end of stream. */
  async #fill(): Promise<boolean> {
    if (this.#eof) return false;
    const chunk = new Uint8Array(READ_SIZE);
    const count = await this.#read(chunk);
    if (count === null) {
      this.#eof = true;
      return false;
    }
    const joined = new Uint8Array(this.#buffer.length + count);
    joined.set(this.#buffer);
    joined.set(chunk.subarray(0, count), this.#buffer.length);
    this.#buffer = joined;
    return true;
  }

  /**
   * One line without its terminator (CRLF, or a bare LF, which real servers send), decoded as
   * Latin-1 the way HTTP heads are. Null at end of stream with nothing buffered; a final
   * unterminated line is returned as is.
   */
  async readLine(limit: number): Promise<string | null> {
    let searched = 0;
    while (true) {
      const at = this.#buffer.indexOf(LF, searched);
      if (at >= 0) {
        const end = at > 0 && this.#buffer[at - 1] === CR ? at - 1 : at;
        const line = latin1(this.#buffer.subarray(0, end));
        this.#buffer = this.#buffer.slice(at + 1);
        return line;
      }
      searched = this.#buffer.length;
      if (searched > limit) throw new LineTooLongError("the server sent an oversized header line.");
      if (!(await this.#fill())) {
        if (this.#buffer.length === 0) return null;
        const line = latin1(this.#buffer);
        this.#buffer = new Uint8Array(0);
        return line;
      }
    }
  }

  /** Up to `max` bytes (at least one), or null at end of stream. */
  async readSome(max: number): Promise<Uint8Array | null> {
    if (this.#buffer.length === 0 && !(await this.#fill())) return null;
    const take = Math.min(max, this.#buffer.length);
    const out = this.#buffer.slice(0, take);
    this.#buffer = this.#buffer.slice(take);
    return out;
  }
}

function latin1(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}
