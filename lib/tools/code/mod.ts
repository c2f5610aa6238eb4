/**
 * The code bridge's entry, loaded lazily by lib/runtime/tool_set.ts only when `code_execution`
 * is active on OpenAI's responses surface: the wake's code container, the bridge hook over it, and
 * the `code_attach` tool bound to the same container.
 */
export { CodeAttachTool } from "./attach.ts";
export { ARTIFACTS_LEAD, artifactsText, bridge, CELL_SEPARATOR, codeBridgeHook } from "./bridge.ts";
export { CODE_FILE_MAX_BYTES, CodeContainer, type CodeEndpoint } from "./container.ts";
