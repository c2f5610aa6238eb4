/** `harness version`: one line a fleet drift-guard can parse. */
import { writeStdout } from "../journal/output.ts";
import type { Command } from "./command.ts";
import { PRODUCT, VERSION } from "../base/version.ts";
import manifest from "../../deno.json" with { type: "json" };
import lockText from "../../deno.lock" with { type: "text" };
import * as z from "../base/zod.ts";
import { runningSdk } from "../providers/axes.ts";

const SDK_PACKAGES: Record<string, string> = {
  openai: "openai",
  openrouter: "@openrouter/sdk",
  anthropic: "@anthropic-ai/sdk",
};

const LockFile = z.object({ specifiers: z.record(z.string(), z.string()) });

function lockedSpecifiers(): Record<string, string> {
  const parsed = LockFile.safeParse(JSON.parse(lockText));
  return parsed.success ? parsed.data.specifiers : {};
}

/**
 * The exact version of an SDK's npm package this build resolved (from deno.lock, which
 * `deno install --frozen` enforces), or null when the SDK is not one this runtime ships.
 */
export function sdkVersion(sdk: string): string | null {
  const pkg = SDK_PACKAGES[sdk];
  if (!pkg) return null;
  const spec = (manifest.imports as Record<string, string>)[pkg];
  const resolved = spec ? lockedSpecifiers()[spec] : undefined;
  // Lock entries look like "7.59.0" or "7.59.0_zod@4.6.7" (peer suffix).
  return resolved?.split("_")[0] ?? null;
}

/**
 * The version line: `<name> <version> · <sdk> SDK <version>`, where `<name>` is `harness` or,
 * run through a `deploy/bin` wrapper, the Python console-script name the wrapper stands in for
 * (`basecradle-harness-wake`), which is the line a fleet drift-guard parses.
 */
export function versionLine(env: (name: string) => string | undefined, name = "harness"): string {
  // The SDK that runs: `AI_SDK=xai-sdk` runs on the openai SDK (docs/models.md).
  const sdk = runningSdk((env("AI_SDK") ?? "").trim().toLowerCase() || "openai");
  const version = sdkVersion(sdk);
  return `${name} ${VERSION} · ${sdk} SDK ${version ?? "not installed"}`;
}

export const versionCommand: Command<Record<string, never>> = {
  name: "version",
  usage: `Usage: harness version

Print one line: harness <version> · <sdk> SDK <version>, where <sdk> is the SDK that
runs for AI_SDK (default openai; xai-sdk runs on openai). Touches no timeline, model or credential. Also: harness --version.

(${PRODUCT})
`,
  options: {},
  run() {
    writeStdout(versionLine((name) => Deno.env.get(name)) + "\n");
    return Promise.resolve(0);
  },
};
