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
