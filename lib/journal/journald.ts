/**
 * Writing lines straight into journald and reading them back, for the log-grammar probe
 * (docs/operating.md#harness-log-grammar). Two ways in, tried in order:
 *
 * 1. journald's native datagram protocol on its socket, when this Deno exposes unix datagram
 *    sockets (`Deno.listenDatagram` with `transport: "unixpacket"`, which Deno 2.9 offers only
 *    under `--unstable-net`);
 * 2. otherwise `systemd-cat`, which writes through journald's stream socket.
 *
 * Both need journald, so a box without its socket is "could not ask", never "asked and failed".
 */
import { concatBytes } from "../base/bytes.ts";
import { sleep } from "../base/sleep.ts";

/** journald's native datagram socket. */
export const JOURNAL_SOCKET = "/run/systemd/journal/socket";

/** journald is not there, or could not be asked: the probe's answer is "unprovable". */
export class JournalUnavailable extends Error {
  override name = "JournalUnavailable";
}

const encoder = new TextEncoder();

/**
 * One native-protocol field. A value holding a newline takes the binary form (key, newline,
 * little-endian 64-bit length, bytes, newline): in the short `KEY=value\n` form that newline
 * would start a forged field of the value's choosing.
 */
export function journalField(key: string, value: string): Uint8Array {
  if (!value.includes("\n")) return encoder.encode(`${key}=${value}\n`);
  const bytes = encoder.encode(value);
  const head = encoder.encode(`${key}\n`);
  const out = new Uint8Array(head.length + 8 + bytes.length + 1);
  out.set(head, 0);
  new DataView(out.buffer).setBigUint64(head.length, BigInt(bytes.length), true);
  out.set(bytes, head.length + 8);
  out[out.length - 1] = 0x0a;
  return out;
}

/** One datagram: `MESSAGE`, `PRIORITY` and `SYSLOG_IDENTIFIER`, as `systemd-cat` sends them. */
export function journalDatagram(message: string, identifier: string, priority = 6): Uint8Array {
  const parts = [
    journalField("MESSAGE", message),
    journalField("PRIORITY", String(priority)),
    journalField("SYSLOG_IDENTIFIER", identifier),
  ];
  return concatBytes(parts);
}

/** Where and how {@link sendToJournal} writes. */
export interface JournalTarget {
  /** The identifier the lines land under. */
  readonly identifier: string;
  /** journald's datagram socket (default {@link JOURNAL_SOCKET}). */
  readonly socket?: string;
  /** The `systemd-cat` to run when datagrams are unavailable (default: from PATH). */
  readonly systemdCat?: string;
}

/** The unix datagram surface Deno exposes under `--unstable-net`, when it does. */
interface DatagramConn {
  send(data: Uint8Array, addr: { transport: "unixpacket"; path: string }): Promise<number>;
  close(): void;
}
type ListenDatagram = (options: { transport: "unixpacket"; path: string }) => DatagramConn;

/**
 * Writes each message (one line each) to journald at priority info, and says which way it went.
 * @throws {JournalUnavailable} when there is no journald socket or the write fails.
 */
export async function sendToJournal(
  messages: readonly string[],
  target: JournalTarget,
): Promise<"datagram" | "systemd-cat"> {
  const socket = target.socket ?? JOURNAL_SOCKET;
  try {
    await Deno.lstat(socket);
  } catch {
    throw new JournalUnavailable(`no journald socket at ${socket}`);
  }
  const listen = (Deno as unknown as { listenDatagram?: ListenDatagram }).listenDatagram;
  if (typeof listen === "function") {
    await sendDatagrams(listen, socket, messages, target.identifier);
    return "datagram";
  }
  await sendWithSystemdCat(messages, target);
  return "systemd-cat";
}

async function sendDatagrams(
  listen: ListenDatagram,
  socket: string,
  messages: readonly string[],
  identifier: string,
): Promise<void> {
  // A unix datagram sender needs an address of its own to send from.
  const dir = await Deno.makeTempDir({ prefix: "harness-journal-" });
  try {
    const conn = listen({ transport: "unixpacket", path: `${dir}/sender.sock` });
    try {
      for (const message of messages) {
        await conn.send(journalDatagram(message, identifier), {
          transport: "unixpacket",
          path: socket,
        });
      }
    } finally {
      conn.close();
    }
  } catch (error) {
    throw new JournalUnavailable(`could not write to journald: ${describe(error)}`);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

async function sendWithSystemdCat(
  messages: readonly string[],
  target: JournalTarget,
): Promise<void> {
  const program = target.systemdCat ?? "systemd-cat";
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      args: [`--identifier=${target.identifier}`, "--priority=info", "--level-prefix=false"],
      stdin: "piped",
      stdout: "null",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    throw new JournalUnavailable(`could not run ${program}: ${describe(error)}`);
  }
  const writer = child.stdin.getWriter();
  await writer.write(encoder.encode(messages.map((m) => `${m}\n`).join("")));
  await writer.close();
  const done = await child.output();
  if (!done.success) {
    const said = new TextDecoder().decode(done.stderr).trim().slice(0, 200);
    throw new JournalUnavailable(`${program} exited ${done.code}: ${said}`);
  }
}

/** How {@link readBack} polls. */
export interface ReadBackOptions {
  readonly identifier: string;
  /** When the write happened (ms since the epoch); the search starts one second before it. */
  readonly since: number;
  /** Give up after this long (ms). */
  readonly timeoutMs: number;
  /** Pause between reads (ms). */
  readonly intervalMs: number;
  /** The `journalctl` to run (default: from PATH). */
  readonly journalctl?: string;
}

/**
 * Whether every message can be read back out of the journal, polling because journald ingests
 * asynchronously. The window opens one second before the write and no earlier: every probe writes
 * the same bytes, so a wider one could find an earlier run's lines and prove a write that failed.
 * @throws {JournalUnavailable} when `journalctl` cannot run, or keeps failing until the deadline.
 */
export async function readBack(
  messages: readonly string[],
  options: ReadBackOptions,
): Promise<boolean> {
  const program = options.journalctl ?? "journalctl";
  const args = [
    "--identifier",
    options.identifier,
    "--since",
    localStamp(new Date(options.since - 1000)),
    "--output",
    "cat",
  ];
  const deadline = Date.now() + options.timeoutMs;
  while (true) {
    let done: Deno.CommandOutput;
    try {
      done = await new Deno.Command(program, { args, stdout: "piped", stderr: "piped" }).output();
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        throw new JournalUnavailable(`${program} is not available on this box`);
      }
      throw new JournalUnavailable(`could not read the journal back: ${describe(error)}`);
    }
    const text = new TextDecoder().decode(done.stdout);
    if (done.success && messages.every((message) => text.includes(message))) return true;
    if (Date.now() >= deadline) {
      if (done.success) return false;
      const said = new TextDecoder().decode(done.stderr).trim().slice(0, 200);
      throw new JournalUnavailable(`${program} exited ${done.code}: ${said}`);
    }
    await sleep(options.intervalMs);
  }
}

/** `YYYY-MM-DD HH:MM:SS` in local time, which is how `journalctl --since` reads a bare stamp. */
function localStamp(date: Date): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ` +
    `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
