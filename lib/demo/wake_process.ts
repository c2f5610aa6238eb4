/**
 * Runs `harness wake` for the demo as a real subprocess of this same program — the way a router
 * runs it — and streams its journal back line by line.
 *
 * From source the child is `deno run -P=harness <repo>/main.ts wake …` (the production
 * permission set from deno.json); in a compiled binary `Deno.execPath()` is the harness itself,
 * with that permission set baked in, so the child is `<binary> wake …`.
 */
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { PACKAGE_ROOT, packageModuleUrl } from "../base/lazy_import.ts";

/** A problem the person running the demo can fix; printed as one line. */
export class DemoError extends Error {
  override name = "DemoError";
}

/** The model the demo's wake talks to, and the AI_* variables that select it. */
export interface ModelChoice {
  /** One line for people, e.g. `sandbox-demo at http://…/v1 (the sandbox's deterministic model)`. */
  readonly label: string;
  readonly vendor: boolean;
  readonly env: Readonly<Record<string, string>>;
}

/** The sandbox's demo model id. */
export const DEMO_MODEL = "sandbox-demo";

/**
 * The sandbox's deterministic model at `modelUrl` — or, with `AI_PROVIDER=anthropic`, the same
 * model on the Messages wire at `anthropicUrl`, through the anthropic SDK — unless the
 * environment carries a real `AI_API_KEY`: then its AI_* variables pass through unchanged (and
 * AI_MODEL is required).
 */
export function chooseModel(
  parent: Record<string, string>,
  modelUrl: string,
  anthropicUrl?: string,
): ModelChoice {
  if (parent.AI_API_KEY?.trim()) {
    const model = parent.AI_MODEL?.trim();
    if (!model) {
      throw new DemoError(
        "AI_API_KEY is set, so the demo would use your real vendor, but AI_MODEL is not — set " +
          "AI_MODEL to the model id to use (and AI_PROVIDER/AI_BASE_URL if not OpenAI), or " +
          "unset AI_API_KEY to run offline against the sandbox's demo model.",
      );
    }
    const env = Object.fromEntries(Object.entries(parent).filter(([k]) => k.startsWith("AI_")));
    const where = parent.AI_BASE_URL?.trim() || `the ${parent.AI_PROVIDER?.trim() || "openai"} API`;
    return { label: `${model} at ${where} (your AI_* settings)`, vendor: true, env };
  }
  if (anthropicUrl && parent.AI_PROVIDER?.trim().toLowerCase() === "anthropic") {
    return {
      label: `${DEMO_MODEL} at ${anthropicUrl} (the sandbox's deterministic model, Messages wire)`,
      vendor: false,
      env: {
        AI_PROVIDER: "anthropic",
        AI_SDK: "anthropic",
        AI_BASE_URL: anthropicUrl,
        AI_MODEL: DEMO_MODEL,
        AI_API_KEY: "sandbox-demo-key",
      },
    };
  }
  return {
    label: `${DEMO_MODEL} at ${modelUrl} (the sandbox's deterministic model)`,
    vendor: false,
    env: {
      AI_PROVIDER: "openai",
      AI_SDK: "openai",
      AI_SDK_SURFACE: "chat",
      AI_BASE_URL: modelUrl,
      AI_MODEL: DEMO_MODEL,
      AI_API_KEY: "sandbox-demo-key",
    },
  };
}

/** Whether this process is a `deno compile`d binary (then execPath is the harness itself). */
export function isCompiled(): boolean {
  const standalone = (Deno.build as { standalone?: boolean }).standalone;
  if (typeof standalone === "boolean") return standalone;
  return !/^deno(\.exe)?$/i.test(basename(Deno.execPath()));
}

/** The program and the arguments that run `harness <args>` the way this process was run. */
export function harnessInvocation(args: readonly string[]): { program: string; args: string[] } {
  if (isCompiled()) return { program: Deno.execPath(), args: [...args] };
  // From source: the repository's deno.json and main.ts; from the bundle: the bundle's own.
  return {
    program: Deno.execPath(),
    args: [
      "run",
      "-P=harness",
      "--quiet",
      "--config",
      fileURLToPath(new URL("deno.json", PACKAGE_ROOT)),
      fileURLToPath(packageModuleUrl("main.ts")),
      ...args,
    ],
  };
}

/**
 * The wake's environment: this process's, minus any agent settings of its own (AI_*,
 * BASECRADLE_*, HARNESS_* but HARNESS_LOG_LEVEL), plus `wake` (the demo agent's) and the model.
 */
export function wakeEnv(
  parent: Record<string, string>,
  wake: Record<string, string>,
  model: ModelChoice,
): Record<string, string> {
  const own = /^(AI_|BASECRADLE_|HARNESS_(?!LOG_LEVEL$))/;
  const kept = Object.entries(parent).filter(([k]) => !own.test(k));
  return { ...Object.fromEntries(kept), ...wake, ...model.env };
}

/** Deno's own notice when a deno.json permission set is used; not part of the journal. */
export const DENO_NOTICE: RegExp = /Permissions in the config file is an experimental feature/;

/** What the wake process left behind. */
export interface WakeOutcome {
  readonly code: number;
  readonly stdout: string;
}

/**
 * Spawns the wake, sends each stderr line (the journal) to `journal` as it arrives, and resolves
 * when the process has exited and its streams are drained.
 */
export async function runWakeProcess(
  invocation: { program: string; args: string[] },
  env: Record<string, string>,
  journal: (line: string) => void,
): Promise<WakeOutcome> {
  const child = new Deno.Command(invocation.program, {
    args: invocation.args,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines = (async () => {
    let rest = "";
    for await (const text of child.stderr.pipeThrough(new TextDecoderStream())) {
      const parts = (rest + text).split("\n");
      rest = parts.pop() ?? "";
      for (const line of parts) if (!DENO_NOTICE.test(line)) journal(line);
    }
    if (rest && !DENO_NOTICE.test(rest)) journal(rest);
  })();
  const stdout = new Response(child.stdout).text();
  const [status, out] = await Promise.all([child.status, stdout, lines]);
  return { code: status.code, stdout: out };
}
