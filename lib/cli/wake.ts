/**
 * `harness wake --timeline <uuid>`: what a router execs once per platform event. The flags fall
 * back to the router's BASECRADLE_* variables; a missing or malformed uuid is a usage error (2).
 */
import { lazyImport } from "../base/lazy_import.ts";
import { type Command, commandLabel, UsageError, uuidArg } from "./command.ts";

const options = {
  timeline: { type: "string" },
  message: { type: "string" },
  asset: { type: "string" },
  event: { type: "string" },
  "resolved-config": { type: "boolean" },
} as const;

export const wakeCommand: Command<typeof options> = {
  name: "wake",
  usage: `Usage: harness wake --timeline <uuid> [--message <uuid>] [--asset <uuid>] [--event <uuid>]
       harness wake --resolved-config

Reconcile one timeline once: read what is new (messages, assets, webhook events,
activated tasks), think with the model, act through tools, record, exit. What a router
runs per platform event.

Options:
  --timeline <uuid>  the timeline to wake on (or BASECRADLE_TIMELINE)
  --message <uuid>   the triggering message; sharpens only the first message wake
                     (or BASECRADLE_MESSAGE)
  --asset <uuid>     the triggering asset, first asset wake only (or BASECRADLE_ASSET)
  --event <uuid>     the triggering webhook event, first event wake only (or BASECRADLE_EVENT)
  --resolved-config  print what this agent will run, as JSON, and exit (as harness
                     resolved-config); timeline-free, ignores --timeline

Exit codes: 0 the wake ran (including nothing to do, a breaker decline, a reported
provider failure, a deleted timeline); 1 a configuration, credential or platform
failure (one line on stderr, "ERROR harness wake: …"); 2 a usage error.
`,
  options,
  async run({ values }) {
    if (values["resolved-config"]) {
      // Timeline-free (docs/configuration.md#resolved-config): --timeline and its fallback are not even validated.
      const { runResolvedConfig } = await lazyImport<typeof import("./resolved_config.ts")>(
        "lib/cli/resolved_config.ts",
      );
      return await runResolvedConfig({ prefix: commandLabel("wake") });
    }
    const timeline = uuidArg("timeline", values.timeline, "BASECRADLE_TIMELINE");
    if (!timeline) throw new UsageError("--timeline is required (or set BASECRADLE_TIMELINE)");
    const triggers = {
      message: uuidArg("message", values.message, "BASECRADLE_MESSAGE"),
      asset: uuidArg("asset", values.asset, "BASECRADLE_ASSET"),
      event: uuidArg("event", values.event, "BASECRADLE_EVENT"),
    };
    // Loaded only now, so `harness wake --help` and usage errors pay for none of the runtime.
    // A process that parses each schema about once is faster without zod's JIT (it compiles a
    // parser per object schema on first use); the results are the same.
    (await import("../base/zod.ts")).config({ jitless: true });
    const { runWake } = await lazyImport<typeof import("../wake/wake.ts")>("lib/wake/wake.ts");
    return await runWake({ timeline, triggers, label: commandLabel("wake") });
  },
};
