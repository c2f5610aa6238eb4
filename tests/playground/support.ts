/** Test helper for `harness playground`: the real CLI process on a free port. */
import { DENO_DIR, REPO_ROOT } from "../support/run_cli.ts";

/** A running `harness playground` process. */
export interface PlaygroundProcess extends AsyncDisposable {
  /** The page. */
  readonly url: string;
  /** The sandbox platform's base URL. */
  readonly baseUrl: string;
  /** The sandbox's admin token for this run. */
  readonly adminToken: string;
  /** The playground process's id (its memory can be read from /proc). */
  readonly pid: number;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM, then its exit code. */
  stop(): Promise<number>;
}

/**
 * Starts `harness playground --port 0 <args>` from source (or from a bundle directory
 * deploy/bundle.ts wrote) and waits for its JSON line.
 */
export async function startPlayground(
  args: string[],
  env: Record<string, string>,
  options: { readonly bundle?: string; readonly cwd?: string } = {},
): Promise<PlaygroundProcess> {
  const entry = options.bundle
    ? ["--config", `${options.bundle}/deno.json`, `${options.bundle}/main.js`]
    : [`${REPO_ROOT}main.ts`];
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=harness", "--quiet", ...entry, "playground", "--port", "0", ...args],
    cwd: options.cwd ?? REPO_ROOT,
    env: { NO_COLOR: "1", DENO_DIR, ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let err = "";
  const errDone = (async () => {
    for await (const text of child.stderr.pipeThrough(new TextDecoderStream())) err += text;
  })();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) {
      await errDone;
      throw new Error(
        `playground exited before serving (exit ${(await child.status).code}): ${err}`,
      );
    }
    out += value;
  }
  const drain = (async () => {
    while (!(await reader.read()).done) { /* keep stdout flowing */ }
  })();
  const { url, base_url: baseUrl, admin_token: adminToken } = JSON.parse(out.split("\n")[0]) as {
    url: string;
    base_url: string;
    admin_token: string;
  };
  let stopped: Promise<number> | undefined;
  const stop = () =>
    stopped ??= (async () => {
      try {
        child.kill("SIGTERM");
      } catch {
        // Already gone.
      }
      const { code } = await child.status;
      await Promise.all([errDone, drain]);
      return code;
    })();
  return {
    url,
    baseUrl,
    adminToken,
    pid: child.pid,
    stderr: () => err,
    stop,
    [Symbol.asyncDispose]: async () => void await stop(),
  };
}

/**
 * The page's write token, read from the page the way its own script reads it: every
 * `POST /api/…` carries it in the `playground-token` header.
 */
export async function pageToken(url: string): Promise<string> {
  const page = await (await fetch(url)).text();
  const token = page.match(/<meta name="playground-token" content="([^"]*)">/)?.[1];
  if (!token) throw new Error("the page carries no playground-token");
  return token;
}
