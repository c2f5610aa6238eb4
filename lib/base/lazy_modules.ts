/**
 * Every module the package imports with `lazyImport`, by package path. The list is the one
 * source of truth for three things: which paths `lazyImport` accepts (a type error otherwise),
 * which entry points deploy/bundle.ts gives the bundle (each becomes `<bundle>/<path>.js`), and
 * therefore what `deno compile` embeds. tests/cli/lazy_modules.test.ts keeps it exact.
 */
export const LAZY_MODULES = [
  "lib/cli/wake.ts",
  "lib/cli/poll.ts",
  "lib/cli/version.ts",
  "lib/cli/install.ts",
  "lib/cli/resolved_config.ts",
  "lib/cli/resolve.ts",
  "lib/cli/cleanup.ts",
  "lib/cli/verify.ts",
  "lib/cli/claims.ts",
  "lib/cli/log_grammar.ts",
  "lib/cli/completions.ts",
  "lib/cli/records.ts",
  "lib/cli/replay.ts",
  "lib/cli/mcp.ts",
  "lib/cli/doctor.ts",
  "lib/cli/status.ts",
  "lib/cli/sandbox.ts",
  "lib/cli/demo.ts",
  "lib/cli/playground.ts",
  "lib/cli/env_file_flag.ts",
  "lib/wake/wake.ts",
  "lib/wake/engaged/mod.ts",
  "lib/wake/escalation.ts",
  "lib/wake/budget.ts",
  "lib/gate/gate.ts",
  "lib/gate/guardrails.ts",
  "lib/config/host_rules.ts",
  "lib/net/handed_hop.ts",
  "lib/config/installer.ts",
  "lib/tools/shell/tool.ts",
  "lib/tools/media/openai_media.ts",
  "lib/tools/media/xai_media.ts",
  "lib/tools/direct_message.ts",
  "lib/tools/xai_balance.ts",
  "lib/tools/code/mod.ts",
  "lib/tools/net/html_text.ts",
  "lib/poll/mod.ts",
  "lib/mcp/client.ts",
  "lib/core/image_prep.ts",
  "lib/journal/otel.ts",
  "lib/memory/recall_provider.ts",
  "lib/memory/recall_embeddings.ts",
  "lib/playground/tool_runner.ts",
] as const;

/** A module path `lazyImport` accepts. */
export type LazyModule = typeof LAZY_MODULES[number];
