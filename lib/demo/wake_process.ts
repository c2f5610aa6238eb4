/**
 * What the demo's wake runs with: the model it talks to (the sandbox's deterministic model, or
 * the operator's own) and its environment. The wake itself is spawned by
 * lib/sandbox/wake_process.ts, as the router twin and the playground spawn theirs.
 */

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

/** This process's environment minus any agent settings of its own (AI_*, BASECRADLE_*, HARNESS_* but HARNESS_LOG_LEVEL). */
export function withoutAgentSettings(
  parent: Readonly<Record<string, string>>,
): Record<string, string> {
  const own = /^(AI_|BASECRADLE_|HARNESS_(?!LOG_LEVEL$))/;
  return Object.fromEntries(Object.entries(parent).filter(([k]) => !own.test(k)));
}

/**
 * The wake's environment: this process's, {@link withoutAgentSettings}, plus `wake` (the demo
 * agent's) and the model.
 */
export function wakeEnv(
  parent: Record<string, string>,
  wake: Record<string, string>,
  model: ModelChoice,
): Record<string, string> {
  return { ...withoutAgentSettings(parent), ...wake, ...model.env };
}
