/**
 * The sandbox's deterministic demo model: an OpenAI-compatible endpoint (Chat Completions,
 * Responses, models retrieve) served at `<base_url>/_sandbox/model/v1`. It answers the newest
 * peer message by calling the `messages` tool once, then settles on narration.
 *
 * @module
 */
export { MODEL_PATH, modelRoutes } from "./routes.ts";
export {
  decide,
  DEMO_CONTEXT_WINDOW,
  DEMO_MODEL_ID,
  DEMO_PREFIX,
  type DemoCall,
  type DemoConversation,
  type DemoDecision,
  type DemoTurn,
  isSilenced,
  newestPeerLine,
  newestUserTurn,
  type PeerLine,
  reply,
  SILENCE_DIRECTIVE,
} from "./demo_model.ts";
