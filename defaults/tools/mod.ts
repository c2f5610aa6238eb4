/**
 * The shipped tool-plugin files, embedded by text import so `deno compile` carries them (one
 * `<stem>.json` per stem; the format is documented in `lib/config/plugins.ts`). Imported as
 * text, not JSON: the installer's manifest hashes the exact shipped bytes. Add a stem here when
 * adding its file.
 */
import anthropicSearchPlugin from "./anthropic_search.json" with { type: "text" };
import assetsPlugin from "./assets.json" with { type: "text" };
import codeExecutionPlugin from "./code_execution.json" with { type: "text" };
import deletePlugin from "./delete.json" with { type: "text" };
import editImagePlugin from "./edit_image.json" with { type: "text" };
import generateImagePlugin from "./generate_image.json" with { type: "text" };
import grokEditImagePlugin from "./grok_edit_image.json" with { type: "text" };
import grokGenerateImagePlugin from "./grok_generate_image.json" with { type: "text" };
import grokGenerateVideoPlugin from "./grok_generate_video.json" with { type: "text" };
import hearAudioPlugin from "./hear_audio.json" with { type: "text" };
import lockPlugin from "./lock.json" with { type: "text" };
import messagesPlugin from "./messages.json" with { type: "text" };
import openrouterSearchPlugin from "./openrouter_search.json" with { type: "text" };
import sendDirectMessageToOriginPlugin from "./send_direct_message_to_origin.json" with {
  type: "text",
};
import shellPlugin from "./shell.json" with { type: "text" };
import systemPromptPlugin from "./system_prompt.json" with { type: "text" };
import tasksPlugin from "./tasks.json" with { type: "text" };
import timelinesPlugin from "./timelines.json" with { type: "text" };
import trustPlugin from "./trust.json" with { type: "text" };
import usersPlugin from "./users.json" with { type: "text" };
import webFetchPlugin from "./web_fetch.json" with { type: "text" };
import webSearchPlugin from "./web_search.json" with { type: "text" };
import webhookEndpointsPlugin from "./webhook_endpoints.json" with { type: "text" };
import webhookEventsPlugin from "./webhook_events.json" with { type: "text" };
import xaiAccountBalancePlugin from "./xai_account_balance.json" with { type: "text" };
import xaiSearchPlugin from "./xai_search.json" with { type: "text" };

/** Every shipped plugin file's text by file name, sorted. */
export const TOOL_PLUGIN_FILES: Readonly<Record<string, string>> = Object.freeze({
  "anthropic_search.json": anthropicSearchPlugin,
  "assets.json": assetsPlugin,
  "code_execution.json": codeExecutionPlugin,
  "delete.json": deletePlugin,
  "edit_image.json": editImagePlugin,
  "generate_image.json": generateImagePlugin,
  "grok_edit_image.json": grokEditImagePlugin,
  "grok_generate_image.json": grokGenerateImagePlugin,
  "grok_generate_video.json": grokGenerateVideoPlugin,
  "hear_audio.json": hearAudioPlugin,
  "lock.json": lockPlugin,
  "messages.json": messagesPlugin,
  "openrouter_search.json": openrouterSearchPlugin,
  "send_direct_message_to_origin.json": sendDirectMessageToOriginPlugin,
  "shell.json": shellPlugin,
  "system_prompt.json": systemPromptPlugin,
  "tasks.json": tasksPlugin,
  "timelines.json": timelinesPlugin,
  "trust.json": trustPlugin,
  "users.json": usersPlugin,
  "web_fetch.json": webFetchPlugin,
  "web_search.json": webSearchPlugin,
  "webhook_endpoints.json": webhookEndpointsPlugin,
  "webhook_events.json": webhookEventsPlugin,
  "xai_account_balance.json": xaiAccountBalancePlugin,
  "xai_search.json": xaiSearchPlugin,
});
