/**
 * Shared test support: the real npm MCP servers (installed once per pin set into the repo's
 * ignored `tmp/`, reused by every test and every later run), a capturing journal, config-home
 * helpers, and a Deno-native Streamable HTTP server for the failure cases.
 */
import { pathExists } from "../../lib/base/read_files.ts";
import type { Journal, Level } from "../../lib/journal/journal.ts";
import { type McpServerConfig, readMcpConfigs } from "../../lib/mcp/config.ts";
import { inspectServers } from "../../lib/mcp/load.ts";
import { recordApproval } from "../../lib/mcp/pinning.ts";

/** The npm servers the suite runs against, pinned. */
export const NPM_PINS: Readonly<Record<string, string>> = {
  "@modelcontextprotocol/server-everything": "2026.8.31",
  "@modelcontextprotocol/server-filesystem": "2026.8.31",
};

const REPO = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
const PIN_KEY = Object.entries(NPM_PINS).map(([n, v]) => `${n.split("/")[1]}@${v}`).join("+");
/** Where the servers are installed (override with `MCP_TEST_NPM_CACHE`). */
export const NPM_CACHE = Deno.env.get("MCP_TEST_NPM_CACHE") ?? `${REPO}/tmp/mcp-npm/${PIN_KEY}`;

/** Paths of the installed servers' entry points. */
export interface NpmServers {
  readonly everything: string;
  readonly filesystem: string;
}

let installing: Promise<NpmServers> | undefined;

/**
 * Installs the pinned servers once (npm, `--ignore-scripts`), into a scratch directory renamed
 * into place, so concurrent test processes never see a half-installed tree.
 */
export function npmServers(): Promise<NpmServers> {
  installing ??= install();
  return installing;
}

async function install(): Promise<NpmServers> {
  const paths: NpmServers = {
    everything: `${NPM_CACHE}/node_modules/@modelcontextprotocol/server-everything/dist/index.js`,
    filesystem: `${NPM_CACHE}/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js`,
  };
  const done = `${NPM_CACHE}/.complete`;
  if (await pathExists(done)) return paths;
  const scratch = `${NPM_CACHE}.tmp-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  await Deno.mkdir(scratch, { recursive: true });
  const specs = Object.entries(NPM_PINS).map(([name, version]) => `${name}@${version}`);
  const out = await new Deno.Command("npm", {
    args: [
      "install",
      "--prefix",
      scratch,
      "--no-audit",
      "--no-fund",
      "--no-save",
      "--ignore-scripts",
      "--loglevel=error",
      ...specs,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    await Deno.remove(scratch, { recursive: true }).catch(() => {});
    throw new Error(`npm install failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  await Deno.writeTextFile(`${scratch}/.complete`, JSON.stringify(NPM_PINS));
  try {
    await Deno.rename(scratch, NPM_CACHE);
  } catch {
    // Another test process won the race; its tree is as good as ours.
    await Deno.remove(scratch, { recursive: true }).catch(() => {});
    if (!(await pathExists(done))) throw new Error(`could not install into ${NPM_CACHE}`);
  }
  return paths;
}

/** A journal that keeps `LEVEL text` lines. */
export function captureJournal(): Journal & { readonly lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    event(level: Level, head: string) {
      lines.push(`${level} ${head}`);
    },
    text(level: Level, message: string) {
      lines.push(`${level} ${message}`);
    },
    enabled: () => true,
  };
}

/** A fresh config home with an `mcp/` dir; the caller removes it. */
export async function tempConfigHome(): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "mcp-home-" });
  await Deno.mkdir(`${home}/mcp`);
  return home;
}

/** Writes `mcp/<name>.json`. */
export async function writeServer(home: string, name: string, config: unknown): Promise<void> {
  await Deno.writeTextFile(`${home}/mcp/${name}.json`, JSON.stringify(config));
}

/** Approves every configured server as it is now (what `harness mcp approve --all` does). */
export async function approveAll(home: string, only?: readonly string[]): Promise<void> {
  const read = await readMcpConfigs(home);
  const configs: McpServerConfig[] = read.configs.filter((c) => !only || only.includes(c.name));
  for (const inspection of await inspectServers(configs, { timeoutSeconds: 20 })) {
    if (!inspection.digest) throw new Error(`${inspection.config.name}: ${inspection.error}`);
    await recordApproval(home, inspection.config.name, inspection.digest);
  }
}

/** A unique marker for pgrep. */
export function marker(): string {
  return `mcp-marker-${crypto.randomUUID()}`;
}

/** Pids whose command line contains `text` (pgrep -f). */
export async function pgrep(text: string): Promise<number[]> {
  const out = await new Deno.Command("pgrep", { args: ["-f", text], stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).map(Number);
}

/** Polls `pgrep -f text` until nothing matches or `ms` passes; returns what still matches. */
export async function waitGone(text: string, ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  let left = await pgrep(text);
  while (left.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    left = await pgrep(text);
  }
  return left;
}

/** A free TCP port on 127.0.0.1 (closed again; a tiny race, fine for tests). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}
