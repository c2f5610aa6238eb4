/**
 * `harness demo`: one complete wake, offline. It starts an in-process sandbox platform, seats a
 * human (@ada) and an AI peer (@vega) on a shared timeline, has ada ask vega a question, then runs
 * `harness wake` as a real subprocess — exactly what a router would exec — against the sandbox's
 * deterministic model (or a real vendor when AI_API_KEY is set), and prints the wake's journal
 * and the timeline afterwards.
 */
import { writeStderr, writeStdout } from "../journal/output.ts";
import { errorMessage } from "../base/error_text.ts";
import { join } from "node:path";
import { type Command, integerFlag } from "./command.ts";

const options = {
  port: { type: "string" },
  draw: { type: "boolean" },
} as const;

/** The image tool each provider draws with in `harness demo --draw` (an opt-in stem). */
const DRAWING_STEM: Readonly<Record<string, string>> = {
  openai: "generate_image",
  xai: "grok_generate_image",
};

/**
 * Runs the demo against a fresh sandbox in a temporary data directory, writing readable lines to
 * `out`, and resolves to the wake's exit code. The sandbox is closed and its directory removed
 * before this resolves (or on Ctrl-C).
 */
export async function runDemo(
  port: number,
  out: (line: string) => void,
  options: { readonly draw?: boolean } = {},
): Promise<number> {
  const { Sandbox } = await import("../sandbox/mod.ts");
  const { DRAW_REQUEST, seedWorld, timelineLines } = await import("../demo/world.ts");
  const wakeProcess = await import("../demo/wake_process.ts");
  const { harnessInvocation, spawnWake } = await import("../sandbox/wake_process.ts");
  const parentEnv = Deno.env.toObject();
  const dataDir = await Deno.makeTempDir({ prefix: "harness-demo-" });
  const interrupted = () => {
    Deno.removeSync(dataDir, { recursive: true });
    Deno.exit(130);
  };
  Deno.addSignalListener("SIGINT", interrupted);
  try {
    const sandbox = await Sandbox.start({ port, dataDir });
    try {
      const model = wakeProcess.chooseModel(parentEnv, sandbox.modelUrl, sandbox.anthropicModelUrl);
      const world = await seedWorld(sandbox, options.draw ? DRAW_REQUEST : undefined);
      const { ada, vega, timeline } = world;
      out("BaseCradle harness demo — one complete wake, offline");
      out("");
      out(`Platform   ${sandbox.baseUrl}  (in-process sandbox, removed at exit)`);
      out(`Model      ${model.label}`);
      out("Users");
      for (const p of [ada, vega]) {
        out(`  @${p.handle.padEnd(5)} ${`${p.name} (${p.kind})`.padEnd(22)} ${p.uuid}`);
      }
      out(`Trust      @ada and @vega trust each other (mutual: ${world.mutual})`);
      out(`Timeline   "${timeline.name}"  ${timeline.uuid}`);
      out(`  owner @${ada.handle}, participants @${vega.handle}`);
      for (const line of await timelineLines(ada.client, timeline.uuid)) out(`  ${line}`);
      out("");

      const home = join(dataDir, "agents", vega.handle);
      const env = wakeProcess.wakeEnv(parentEnv, {
        HARNESS_HOME: home,
        BASECRADLE_BASE_URL: sandbox.baseUrl,
        BASECRADLE_TOKEN: vega.token,
        BASECRADLE_CONFIG_HOME: join(home, "config"),
      }, model);
      if (options.draw) {
        // The image tool is powerful (paid, opt-in): grant it the way an operator would.
        const provider = env.AI_PROVIDER || "openai";
        const stem = DRAWING_STEM[provider];
        if (!stem) throw new Error(`--draw needs AI_PROVIDER openai or xai, not '${provider}'.`);
        const { install } = await import("../install/installer.ts");
        await install({ configHome: env.BASECRADLE_CONFIG_HOME, provider, optIn: [stem] });
        out(`Config     harness install --opt-in ${stem}  (vega may draw)`);
      }
      const args = ["wake", "--timeline", timeline.uuid];
      out(`Wake       harness ${args.join(" ")}  (as @${vega.handle}, a separate process)`);
      out("Journal");
      // The wake colours its verdicts unless NO_COLOR, which it inherits (docs/journal.md#colour).
      const wake = await spawnWake({
        invocation: harnessInvocation(args),
        env,
        clearEnv: true,
        onJournalLine: (line) => out(`  ${line}`),
        keep: "stdout",
      });
      const stdout = wake.kept ?? "";
      if (stdout.trim()) {
        out("Wake stdout");
        for (const line of stdout.trimEnd().split("\n")) out(`  ${line}`);
      }
      out(`Exit code  ${wake.code}${wake.code === 0 ? "" : "  (the wake failed; see above)"}`);
      out("");
      out("Timeline afterwards");
      for (const line of await timelineLines(ada.client, timeline.uuid)) out(`  ${line}`);
      out("");
      out(
        model.vendor
          ? "That was your model, answering through the messages tool."
          : "Use a real model: AI_API_KEY=… AI_MODEL=… deno task demo (AI_PROVIDER/AI_BASE_URL too).",
      );
      return wake.code;
    } finally {
      await sandbox.close();
    }
  } finally {
    Deno.removeSignalListener("SIGINT", interrupted);
    await Deno.remove(dataDir, { recursive: true });
  }
}

export const demoCommand: Command<typeof options> = {
  name: "demo",
  usage: `Usage: harness demo [--port N]

One complete wake, offline: starts a local BaseCradle-compatible platform (in a temporary
directory, removed at exit), creates a human @ada and an AI peer @vega with mutual trust, has
ada open a timeline "Demo", add vega and ask vega a question, then runs
"harness wake --timeline <uuid>" as vega in a separate process — what a router runs per event —
and prints the wake's journal, its exit code and the timeline afterwards.

The model is the sandbox's deterministic "sandbox-demo" (no account, no network, no key);
with AI_PROVIDER=anthropic it answers on Anthropic's Messages wire, through the anthropic SDK.
With AI_API_KEY set, the wake uses your real vendor instead: AI_MODEL is then required, and
AI_PROVIDER, AI_SDK, AI_SDK_SURFACE and AI_BASE_URL are passed through as set.

With --draw, ada asks for a picture instead ("/imagine …"): the demo grants vega the image
tool (harness install --opt-in generate_image, or grok_generate_image under AI_PROVIDER=xai),
and the wake generates the image — offline, the sandbox's model draws a small PNG — uploads it
as a file on the timeline and answers.

Exit code: 0 when the wake exited 0, else 1.

Options:
  --port N     port for the sandbox (default 0: any free port)
  --draw       ask for a picture: the agent draws it with its image tool and posts it
  -h, --help   show this help
`,
  options,
  async run({ values }) {
    const port = integerFlag("port", values.port, { min: 0, max: 65535 }) ?? 0;
    try {
      const code = await runDemo(port, (line) => writeStdout(line + "\n"), {
        draw: values.draw === true,
      });
      return code === 0 ? 0 : 1;
    } catch (error) {
      const reason = errorMessage(error);
      writeStderr(`harness demo: ${reason}\n`);
      return 1;
    }
  },
};
