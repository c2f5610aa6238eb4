/**
 * The subcommands `harness` knows. Each is loaded only when invoked, so `harness wake` never
 * pays for the sandbox's code and `harness --help` pays for none of them.
 *
 * The modules are imported with {@link lazyImport}, never a literal `import("./x.ts")`: Deno
 * reads and parses every literal dynamic import reachable from the entry point at start-up, so a
 * literal here would make each `harness wake` pay for the sandbox, installer and demo graphs it
 * never runs. Each is listed in lib/base/lazy_modules.ts, which makes it an entry point of the
 * bundle the binary is compiled from.
 */
import { lazyImport } from "../base/lazy_import.ts";
import type { CommandListing } from "./command.ts";

/** One registry row: what `harness --help` shows, and how to load the command. */
export type CommandEntry = CommandListing;

/** Every implemented subcommand, in the order `harness --help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "wake",
    summary: "reconcile one timeline once: what a router runs per platform event",
    load: async () =>
      (await lazyImport<typeof import("./wake.ts")>("lib/cli/wake.ts"))
        .wakeCommand,
  },
  {
    name: "poll",
    summary: "watch one timeline from a long-lived process (poll mode, for a laptop)",
    load: async () =>
      (await lazyImport<typeof import("./poll.ts")>("lib/cli/poll.ts"))
        .pollCommand,
  },
  {
    name: "version",
    summary: "print the harness version and its model SDK",
    load: async () =>
      (await lazyImport<typeof import("./version.ts")>("lib/cli/version.ts"))
        .versionCommand,
  },
  {
    name: "install",
    summary: "scaffold or upgrade the config home (conffile-style; --opt-in powerful tools)",
    load: async () =>
      (await lazyImport<typeof import("./install.ts")>("lib/cli/install.ts"))
        .installCommand,
  },
  {
    name: "resolved-config",
    summary: "print, as JSON, what this agent will actually run (tools, params, sandbox)",
    load: async () =>
      (await lazyImport<typeof import("./resolved_config.ts")>("lib/cli/resolved_config.ts"))
        .resolvedConfigCommand,
  },
  {
    name: "resolve",
    summary: "print, as JSON, the tools a provider + opt-in set would activate (pure)",
    load: async () =>
      (await lazyImport<typeof import("./resolve.ts")>("lib/cli/resolve.ts"))
        .resolveCommand,
  },
  {
    name: "cleanup",
    summary: "remove deleted timelines' on-box state (--sweep or --timeline UUID); prune records",
    load: async () =>
      (await lazyImport<typeof import("./cleanup.ts")>("lib/cli/cleanup.ts"))
        .cleanupCommand,
  },
  {
    name: "verify",
    summary: "prove the config home holds what it declares; --emit-claims for the manifest",
    load: async () =>
      (await lazyImport<typeof import("./verify.ts")>("lib/cli/verify.ts")).verifyCommand,
  },
  {
    name: "claims",
    summary: "print this agent's claims manifest (JSON) and exit 0, whatever the verdict",
    load: async () =>
      (await lazyImport<typeof import("./claims.ts")>("lib/cli/claims.ts")).claimsCommand,
  },
  {
    name: "log-grammar",
    summary: "prove the billing alarm's log lines round-trip through journald (billing_blocked)",
    load: async () =>
      (await lazyImport<typeof import("./log_grammar.ts")>("lib/cli/log_grammar.ts"))
        .logGrammarCommand,
  },
  {
    name: "completions",
    summary: "print a shell completion script (bash | zsh | fish)",
    load: async () =>
      (await lazyImport<typeof import("./completions.ts")>("lib/cli/completions.ts"))
        .completionsCommand,
  },
  {
    name: "records",
    summary:
      "verify turn records, print stats, or show what turns read and said (verify | stats | show)",
    load: async () =>
      (await lazyImport<typeof import("./records.ts")>("lib/cli/records.ts"))
        .recordsCommand,
  },
  {
    name: "replay",
    summary: "re-run recorded turns offline against another charter or model; diff the replies",
    load: async () =>
      (await lazyImport<typeof import("./replay.ts")>("lib/cli/replay.ts"))
        .replayCommand,
  },
  {
    name: "mcp",
    summary: "list, approve (pin the tool list of) or revoke MCP server drop-ins",
    load: async () =>
      (await lazyImport<typeof import("./mcp.ts")>("lib/cli/mcp.ts"))
        .mcpCommand,
  },
  {
    name: "doctor",
    summary: "check this box is ready to wake: env, config home, platform, model, MCP, home",
    load: async () =>
      (await lazyImport<typeof import("./doctor.ts")>("lib/cli/doctor.ts")).doctorCommand,
  },
  {
    name: "status",
    summary: "the last wakes, items in flight and walls per timeline, from HARNESS_HOME alone",
    load: async () =>
      (await lazyImport<typeof import("./status.ts")>("lib/cli/status.ts")).statusCommand,
  },
  {
    name: "sandbox",
    summary: "run a local BaseCradle-compatible platform (offline, for tests and demos)",
    load: async () =>
      (await lazyImport<typeof import("./sandbox.ts")>("lib/cli/sandbox.ts"))
        .sandboxCommand,
  },
  {
    name: "demo",
    summary: "one complete wake, offline: the sandbox, two peers, a question and the reply",
    load: async () =>
      (await lazyImport<typeof import("./demo.ts")>("lib/cli/demo.ts"))
        .demoCommand,
  },
  {
    name: "playground",
    summary: "watch and talk to an agent in a browser: the sandbox, real wakes, a live page",
    load: async () =>
      (await lazyImport<typeof import("./playground.ts")>("lib/cli/playground.ts"))
        .playgroundCommand,
  },
];
