/**
 * The subcommands `harness` knows. Each is loaded only when invoked, so `harness wake` never
 * pays for the sandbox's code and `harness --help` pays for none of them.
 */
import type { Command } from "./command.ts";

/** One registry row: what `harness --help` shows, and how to load the command. */
export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  // deno-lint-ignore no-explicit-any -- each command narrows its own option types
  readonly load: () => Promise<Command<any>>;
}

/** Every implemented subcommand, in the order `harness --help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "wake",
    summary: "reconcile one timeline once: what a router runs per platform event",
    load: async () => (await import("./wake.ts")).wakeCommand,
  },
  {
    name: "version",
    summary: "print the harness version and its model SDK",
    load: async () => (await import("./version.ts")).versionCommand,
  },
  {
    name: "install",
    summary: "scaffold or upgrade the config home (conffile-style; --opt-in powerful tools)",
    load: async () => (await import("./install.ts")).installCommand,
  },
  {
    name: "resolved-config",
    summary: "print, as JSON, what this agent will actually run (tools, params, sandbox)",
    load: async () => (await import("./resolved_config.ts")).resolvedConfigCommand,
  },
  {
    name: "resolve",
    summary: "print, as JSON, the tools a provider + opt-in set would activate (pure)",
    load: async () => (await import("./resolve.ts")).resolveCommand,
  },
  {
    name: "cleanup",
    summary: "remove the on-box state of deleted timelines (--sweep, or --timeline UUID)",
    load: async () => (await import("./cleanup.ts")).cleanupCommand,
  },
  {
    name: "records",
    summary: "verify the chained turn records, or print per-timeline stats (verify | stats)",
    load: async () => (await import("./records.ts")).recordsCommand,
  },
  {
    name: "sandbox",
    summary: "run a local BaseCradle-compatible platform (offline, for tests and demos)",
    load: async () => (await import("./sandbox.ts")).sandboxCommand,
  },
  {
    name: "demo",
    summary: "a guided offline tour: two peers, a timeline, a question and its router events",
    load: async () => (await import("./demo.ts")).demoCommand,
  },
];
