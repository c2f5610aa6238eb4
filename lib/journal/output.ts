/**
 * The process's own output: every byte the harness writes to stdout or stderr — journal lines,
 * a command's result, its one-line error, the demo's transcript of a wake — passes through here
 * and is scrubbed of secrets on the way out. A credential a vendor or the platform echoes in an
 * error message (a 401 that quotes the key it refused) therefore never reaches a terminal or
 * journald, whichever path printed it. tests/architecture/output_only.test.ts keeps every other
 * module from writing to the process's streams directly.
 */
import { registerSecret, scrubSecrets } from "./scrub.ts";
import { SECRET_VARIABLES } from "./secret_variables.ts";

const encoder = new TextEncoder();

/** Writes all of `bytes` to `stream`, looping over partial writes. */
function writeAll(stream: { writeSync(p: Uint8Array): number }, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) offset += stream.writeSync(bytes.subarray(offset));
}

/** Writes `text` to stdout, scrubbed (synchronously: a process that exits next has written it). */
export function writeStdout(text: string): void {
  writeAll(Deno.stdout, encoder.encode(scrubSecrets(text)));
}

/** Writes `text` to stderr, scrubbed (synchronously, as {@link writeStdout}). */
export function writeStderr(text: string): void {
  writeAll(Deno.stderr, encoder.encode(scrubSecrets(text)));
}

// Asked once per stream: a process's stdout or stderr does not stop being a terminal halfway.
const terminals: { stdout?: boolean; stderr?: boolean } = {};

/**
 * Whether the process's `stream` is a terminal (a command that draws for a person, such as a
 * chart, asks it; the journal's colour does not, docs/journal.md#colour). A stream that cannot say
 * counts as none.
 */
export function isTerminal(stream: "stdout" | "stderr"): boolean {
  if (terminals[stream] === undefined) {
    try {
      terminals[stream] = (stream === "stdout" ? Deno.stdout : Deno.stderr).isTerminal();
    } catch {
      terminals[stream] = false;
    }
  }
  return terminals[stream];
}

/**
 * Registers the value of every secret-bearing variable `read` knows (the process environment,
 * for the CLI) with the scrubber, before a command runs: whatever path an error then takes to
 * the output, the harness's own credentials are redacted from it.
 */
export function registerSecretsFrom(read: (name: string) => string | undefined): void {
  for (const name of SECRET_VARIABLES) registerSecret(read(name));
}

/**
 * Relays another process's output (a wake the sandbox's router runs) to `write` line by line,
 * so each line is scrubbed whole: a secret split across two reads is still caught. Call
 * {@link LineRelay.flush} when the stream ends, for a last line without a newline.
 */
export class LineRelay {
  readonly #write: (text: string) => void;
  readonly #decoder = new TextDecoder();
  #pending = "";

  /** A relay to `write` (default: {@link writeStderr}). */
  constructor(write: (text: string) => void = writeStderr) {
    this.#write = write;
  }

  /** Takes a chunk; writes every line it completes. */
  push(chunk: Uint8Array): void {
    this.#pending += this.#decoder.decode(chunk, { stream: true });
    const end = this.#pending.lastIndexOf("\n");
    if (end < 0) return;
    this.#write(this.#pending.slice(0, end + 1));
    this.#pending = this.#pending.slice(end + 1);
  }

  /** Writes what is left (the stream ended without a final newline). */
  flush(): void {
    this.#pending += this.#decoder.decode();
    if (this.#pending) this.#write(this.#pending);
    this.#pending = "";
  }
}
