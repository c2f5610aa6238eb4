/**
 * `harness playground`: the sandbox platform, a seated human and AI peer, router emulation that
 * runs the real `harness wake` per event, and a local web page to watch and talk to the agent
 * (docs/playground.md). Stdout carries one JSON line once the page is served; wake start/exit
 * lines go to stderr. Stops on Ctrl-C / SIGTERM.
 */
import { writeStderr, writeStdout } from "../journal/output.ts";
import { errorMessage } from "../base/error_text.ts";
import { type Command, integerFlag, nonEmptyFlag, UsageError } from "./command.ts";
import { serveUntilStopped } from "./until_stopped.ts";

const options = {
  port: { type: "string" },
  data: { type: "string", completes: "directory" },
  host: { type: "string" },
  "allow-remote": { type: "boolean" },
  "no-rate-caps": { type: "boolean" },
} as const;

const stderrLine = (line: string) => writeStderr(line + "\n");

export const playgroundCommand: Command<typeof options> = {
  name: "playground",
  usage:
    `Usage: harness playground [--port N] [--data DIR] [--host H --allow-remote] [--no-rate-caps]

Watch and talk to an agent in a browser, offline. Starts the local BaseCradle-compatible
platform, seats a human @ada and an AI peer @vega on a shared timeline (or finds them again in
--data), wakes vega for every message, asset, activated task or webhook delivery by running
"harness wake --timeline <uuid>" as a separate process — what a router runs — and serves a
studio: the timeline and a composer, each wake's journal, tool calls, tokens, cost and turn
record live, what each request sent the model and what the prompt cache served, a draft of the
charter to replay recorded turns against, the agent's notes and memory, and its tools by hand.
Prints one JSON line once serving:
  {"url": "http://127.0.0.1:PORT/", "base_url": "http://127.0.0.1:PORT2",
   "admin_token": "sbx_admin_…"}

The model is the sandbox's deterministic "sandbox-demo" (no account, no network, no key).
With AI_API_KEY set, wakes use your real vendor instead: AI_MODEL is then required, and
AI_PROVIDER, AI_SDK, AI_SDK_SURFACE and AI_BASE_URL are passed through as set.

Options:
  --port N         the page's port (default 0: any free port)
  --data DIR       keep the platform, the seated users and the agents' homes in DIR
                   (default: a temporary directory, removed at exit)
  --host H         the page's address (default 127.0.0.1); anything but loopback also
                   needs --allow-remote, since the page has no login. The page answers
                   requests addressed to H or to a loopback name only
  --allow-remote   serve on a non-loopback --host anyway (prints a warning)
  --no-rate-caps   lift the router's rate caps (20 wakes per agent, 15 per agent and
                   timeline a minute), for a long scripted session
  -h, --help       show this help
`,
  options,
  async run({ values }) {
    const port = integerFlag("port", values.port, { min: 0, max: 65535 }) ?? 0;
    const dataDir = values.data;
    nonEmptyFlag("data", dataDir);
    const host = values.host ?? "127.0.0.1";
    const { hostRefusal, isLoopback, remoteWarning, startPlayground } = await import(
      "../playground/mod.ts"
    );
    const refusal = hostRefusal(host, values["allow-remote"] === true);
    if (refusal) throw new UsageError(refusal);
    if (!isLoopback(host)) stderrLine(remoteWarning(host));
    let playground;
    try {
      playground = await startPlayground({
        host,
        port,
        dataDir,
        env: Deno.env.toObject(),
        log: stderrLine,
        noRateCaps: values["no-rate-caps"] === true,
      });
    } catch (error) {
      stderrLine(`harness playground: ${errorMessage(error)}`);
      return 1;
    }
    writeStdout(
      `{"url": ${JSON.stringify(playground.url)}, "base_url": ${
        JSON.stringify(playground.platformUrl)
      }, "admin_token": ${JSON.stringify(playground.adminToken)}}\n`,
    );
    stderrLine(
      `playground serving url=${playground.url} model=${JSON.stringify(playground.model)}`,
    );
    return await serveUntilStopped("playground", () => playground.close());
  },
};
