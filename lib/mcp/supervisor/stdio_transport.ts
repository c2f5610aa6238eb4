/**
 * The stdio transport: line-delimited JSON-RPC over a supervised child's stdin/stdout. Our own
 * rather than the SDK's `StdioClientTransport` for three reasons: the server must run in its own
 * process group under the orphan guard (`script.ts`), which the SDK's spawn cannot do; the env
 * must be the inherited one minus the harness's own credentials, with the agent's own bin
 * directories on `PATH`, overlaid literally by the config's `env`; and a server that dies at start-up should be reported with its exit code and
 * the tail of its stderr, not as a bare "Connection closed".
 */
// @ts-types="@modelcontextprotocol/sdk/shared/stdio"
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types";
import { SUPERVISOR, SUPERVISOR_LABEL } from "./script.ts";
import { concatBytes } from "../../base/bytes.ts";
import { agentBinDirs, pathWithDirs } from "../../box/child_path.ts";

/** What to spawn. */
export interface StdioSpawn {
  readonly command: string;
  readonly args: readonly string[];
  /** Laid over the inherited environment, literally. */
  readonly env: Readonly<Record<string, string>>;
  /** Inherited variables withheld from the server (the harness's own credentials). */
  readonly withheld: readonly string[];
}

/** The longest JSON-RPC line accepted: room for a 64 MiB image, base64-encoded. */
const MAX_LINE_BYTES = 96 * 1024 * 1024;
/** How much of the server's stderr is kept for a start-up failure report. */
const STDERR_TAIL = 600;
/** After stdin EOF, how long a server gets to exit on its own before SIGTERM. */
const EOF_GRACE_MS = 100;
/** After SIGTERM, how long before SIGKILL (the reference waits 5 s; a wake end should not). */
const TERM_GRACE_MS = 2000;

/** A stdio MCP transport over a supervised process group. */
export class SupervisedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  readonly #spawn: StdioSpawn;
  #child?: Deno.ChildProcess;
  #writer?: WritableStreamDefaultWriter<Uint8Array>;
  #status?: Deno.CommandStatus;
  #stderr = "";
  #closing?: Promise<void>;
  #closedNotified = false;

  constructor(spawn: StdioSpawn) {
    this.#spawn = spawn;
  }

  /** The server's pid (also its process-group id), once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Starts the server under the supervisor. */
  start(): Promise<void> {
    if (this.#child) throw new Error("the MCP stdio transport is already started");
    const { env, clearEnv } = childEnv(this.#spawn);
    this.#child = new Deno.Command("/bin/sh", {
      args: ["-c", SUPERVISOR, SUPERVISOR_LABEL, this.#spawn.command, ...this.#spawn.args],
      env,
      clearEnv,
      detached: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#child.status.then((status) => (this.#status = status));
    void this.#readStdout(this.#child.stdout);
    void this.#readStderr(this.#child.stderr);
    return Promise.resolve();
  }

  /** Writes one message as a line. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.#writer || this.#closing) throw new Error("the MCP server is not running");
    await this.#writer.write(new TextEncoder().encode(serializeMessage(message)));
  }

  /** Ends the server: stdin EOF, a short grace, SIGTERM to the group, then SIGKILL. */
  close(): Promise<void> {
    this.#closing ??= this.#terminate();
    return this.#closing;
  }

  /**
   * How the process ended, for an error report — `exited with code 127: <stderr tail>` — or
   * undefined while it still runs.
   */
  exitReport(): string | undefined {
    const status = this.#status;
    if (!status) return undefined;
    const how = status.signal
      ? `was killed by ${status.signal}`
      : `exited with code ${status.code}`;
    const tail = this.#stderr.replace(/\s+/g, " ").trim();
    return tail ? `the server process ${how}: ${tail}` : `the server process ${how}`;
  }

  /** Waits (bounded) for the process to end; true if it did. */
  async exited(ms: number): Promise<boolean> {
    if (!this.#child) return true;
    return await settles(this.#child.status, ms);
  }

  async #terminate(): Promise<void> {
    const child = this.#child;
    if (!child) return this.#notifyClosed();
    await this.#writer?.close().catch(() => {});
    if (!(await settles(child.status, EOF_GRACE_MS))) {
      signalGroup(child.pid, "SIGTERM");
      if (!(await settles(child.status, TERM_GRACE_MS))) signalGroup(child.pid, "SIGKILL");
      await settles(child.status, 1000);
    }
    // The leader is gone; sweep whatever it forked, and the watchdog.
    signalGroup(child.pid, "SIGKILL");
    this.#notifyClosed();
  }

  async #readStdout(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let pending: Uint8Array[] = [];
    let size = 0;
    try {
      for await (const chunk of stream) {
        let start = 0;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
          pending.push(chunk.subarray(start, i));
          // a line within one chunk (the usual case) is decoded where it lies, uncopied
          this.#deliver(decoder.decode(pending.length === 1 ? pending[0] : concatBytes(pending)));
          pending = [];
          size = 0;
          start = i + 1;
        }
        if (start < chunk.length) {
          pending.push(chunk.slice(start));
          size += chunk.length - start;
          if (size > MAX_LINE_BYTES) {
            this.onerror?.(new Error(`a message from the server exceeded ${MAX_LINE_BYTES} bytes`));
            void this.close();
            return;
          }
        }
      }
    } catch (error) {
      if (!this.#closing) this.onerror?.(asError(error));
    }
    // EOF: the server is gone (or closed stdout); pending requests fail now, not at timeout.
    await settles(this.#child!.status, 200);
    this.#notifyClosed();
  }

  #deliver(line: string): void {
    const text = line.replace(/\r$/, "");
    if (!text.trim()) return;
    try {
      this.onmessage?.(deserializeMessage(text));
    } catch (error) {
      this.onerror?.(new Error(`unparseable message from the server: ${asError(error).message}`));
    }
  }

  async #readStderr(stream: ReadableStream<Uint8Array>): Promise<void> {
    // Drained continuously so a chatty server never blocks on a full pipe; only a tail is kept.
    const decoder = new TextDecoder();
    try {
      for await (const chunk of stream) {
        this.#stderr = (this.#stderr + decoder.decode(chunk, { stream: true })).slice(-STDERR_TAIL);
      }
    } catch { /* the process is gone */ }
  }

  #notifyClosed(): void {
    if (this.#closedNotified) return;
    this.#closedNotified = true;
    this.onclose?.();
  }
}

/**
 * The child's environment: inherited minus `withheld`, with the agent's own bin directories on
 * `PATH` (docs/mcp.md#the-agents-own-commands-on-path: a server installed next to the agent runs by bare command),
 * overlaid by the config's `env` (so a `PATH` set there wins outright).
 */
function childEnv(spawn: StdioSpawn): { env: Record<string, string>; clearEnv: boolean } {
  let base: Record<string, string>;
  try {
    base = Deno.env.toObject();
  } catch {
    // Without env permission nothing can be read or withheld; the overlay still applies.
    return { env: { ...spawn.env }, clearEnv: false };
  }
  for (const name of spawn.withheld) delete base[name];
  const path = pathWithDirs(base.PATH, agentBinDirs(base.HOME || undefined));
  if (path !== undefined) base.PATH = path;
  return { env: { ...base, ...spawn.env }, clearEnv: true };
}

function signalGroup(pid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(-pid, signal);
  } catch { /* ESRCH: the group is already empty */ }
}

async function settles(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
