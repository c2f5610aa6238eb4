/**
 * `harness sandbox`: runs the local BaseCradle-compatible platform until SIGINT/SIGTERM.
 * Stdout carries exactly one JSON line (where to reach it) so scripts can read it; everything
 * else — one line per request, wakes, errors — goes to stderr.
 */
import { writeStderr, writeStdout } from "../journal/output.ts";
import { errorMessage } from "../base/error_text.ts";
import { type Command, integerFlag, nonEmptyFlag } from "./command.ts";
import { serveUntilStopped } from "./until_stopped.ts";
import { ROUTER_FLAGS, ROUTER_FLAGS_USAGE, routerRulesFromFlags } from "./sandbox_rules.ts";

const options = {
  port: { type: "string" },
  data: { type: "string", completes: "directory" },
  "wake-command": { type: "string" },
  ...ROUTER_FLAGS,
} as const;

const stderrLine = (line: string) => writeStderr(line + "\n");

export const sandboxCommand: Command<typeof options> = {
  name: "sandbox",
  usage: `Usage: harness sandbox [--port N] [--data DIR] [--wake-command CMD]

Run a local BaseCradle-compatible platform on 127.0.0.1, for tests, demos and trying the
harness without an account. Prints one JSON line once listening:
  {"base_url": "http://127.0.0.1:PORT", "admin_url": "http://127.0.0.1:PORT/_sandbox",
   "admin_token": "sbx_admin_…"}
then logs each request to stderr. Stops on Ctrl-C / SIGTERM.

Options:
  --port N             port to listen on (default 0: any free port)
  --data DIR           keep state in DIR/sandbox.db (default: in memory, lost on exit)
  --wake-command CMD   run the router twin: for each message, asset, activated task or webhook
                       delivery, run CMD --timeline <uuid> once per AI viewer, by the fleet
                       router's rules, with BASECRADLE_TOKEN, BASECRADLE_BASE_URL,
                       HARNESS_HOME=DIR/agents/<handle> and BASECRADLE_DELIVERY_ID set
  -h, --help           show this help

${ROUTER_FLAGS_USAGE}

Admin routes (send the run's token as "Sandbox-Admin-Token: <admin_token>"; JSON bodies
with "Content-Type: application/json"): POST /_sandbox/users, POST /_sandbox/faults,
PATCH /_sandbox/users/<uuid>/integration, POST /_sandbox/tasks/<uuid>/activate,
GET /_sandbox/events, POST /_sandbox/contact_messages.
`,
  options,
  async run({ values }) {
    const port = integerFlag("port", values.port, { min: 0, max: 65535 }) ?? 0;
    const dataDir = values.data;
    nonEmptyFlag("data", dataDir);
    const wakeCommand = values["wake-command"];
    nonEmptyFlag("wake-command", wakeCommand);
    const routerRules = routerRulesFromFlags(values, wakeCommand !== undefined);
    const { Sandbox } = await import("../sandbox/server.ts");
    let sandbox;
    try {
      sandbox = await Sandbox.start({ port, dataDir, wakeCommand, routerRules, log: stderrLine });
    } catch (error) {
      const reason = errorMessage(error);
      stderrLine(`harness sandbox: cannot start on 127.0.0.1:${port}: ${reason}`);
      return 1;
    }
    // Spelled out so the line reads exactly as documented (spaces after ':' and ',').
    const line = `{"base_url": ${JSON.stringify(sandbox.baseUrl)}, "admin_url": ${
      JSON.stringify(sandbox.adminUrl)
    }, "admin_token": ${JSON.stringify(sandbox.adminToken)}}`;
    writeStdout(line + "\n");
    return await serveUntilStopped("sandbox", () => sandbox.close());
  },
};
