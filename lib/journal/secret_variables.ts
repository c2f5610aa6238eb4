/**
 * The environment variables whose values are the harness's own credentials. Kept beside the
 * scrubber so every layer takes the same list: the configuration never echoes them, every byte
 * the process writes is scrubbed of them, and an MCP stdio server does not inherit them.
 */
export const SECRET_VARIABLES: readonly string[] = [
  "AI_API_KEY",
  "BASECRADLE_TOKEN",
  "BASECRADLE_PASSWORD",
  "NOC_PROBE_SECRET",
  "XAI_MANAGEMENT_KEY",
  "NTFY_DM_TOKEN",
];
