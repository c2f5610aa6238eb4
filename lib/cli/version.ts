/** `harness version`: one line a fleet drift-guard can parse. */
import type { Command } from "./command.ts";
import { PRODUCT, VERSION } from "../version.ts";
import manifest from "../../deno.json" with { type: "json" };

const SDK_PACKAGES: Record<string, string> = {
  openai: "openai",
  openrouter: "@openrouter/sdk",
};

/** The pinned version range of an SDK's npm package from the import map, or null if absent. */
export function sdkVersion(sdk: string): string | null {
  const pkg = SDK_PACKAGES[sdk];
  if (!pkg) return null;
  const spec = (manifest.imports as Record<string, string>)[pkg];
  const match = spec?.match(/@\^?~?(\d+\.\d+\.\d+[^\s]*)$/);
  return match ? match[1] : null;
}

/** The version line: `harness <version> · <sdk> SDK <version>`. */
export function versionLine(env: (name: string) => string | undefined): string {
  const sdk = (env("AI_SDK") ?? "").trim().toLowerCase() || "openai";
  const version = sdkVersion(sdk);
  return `harness ${VERSION} · ${sdk} SDK ${version ?? "not installed"}`;
}

export const versionCommand: Command<Record<string, never>> = {
  name: "version",
  usage: `Usage: harness version

Print one line: harness <version> · <sdk> SDK <version>, where <sdk> is AI_SDK
(default openai). Touches no timeline, model or credential. Also: harness --version.

(${PRODUCT})
`,
  options: {},
  run() {
    console.log(versionLine((name) => Deno.env.get(name)));
    return Promise.resolve(0);
  },
};
