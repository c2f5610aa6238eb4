/**
 * The tool set a default install activates on every provider: the contract's benign default set
 * (docs/tools.md#the-shipped-stems) plus the memory tool. One list, so a change to the default set
 * is one edit.
 */
export const BENIGN_TOOLS: readonly string[] = [
  "assets",
  "delete",
  "lock",
  "memory",
  "messages",
  "tasks",
  "timelines",
  "trust",
  "users",
  "web_fetch",
  "webhook_endpoints",
  "webhook_events",
];

/** The harness's own working-state tools, which every wake adds (docs/tools.md#working-state-notes-and-summarize). */
export const WORKING_STATE_TOOLS: readonly string[] = [
  "note_delete",
  "note_get",
  "note_write",
  "summarize",
];

/** What a default wake offers the model, sorted: the benign set and the working-state tools. */
export const WAKE_TOOLS: readonly string[] = [...BENIGN_TOOLS, ...WORKING_STATE_TOOLS].sort();
