/**
 * The sandbox's deterministic demo model: an OpenAI-compatible endpoint (Chat Completions,
 * Responses, models retrieve) served at `<base_url>/_sandbox/model/v1`, and the same model on
 * Anthropic's Messages wire at `<base_url>/_sandbox/model/anthropic` (with a prompt cache that
 * counts reads and writes). It answers the newest peer message by calling the `messages` tool
 * once, then settles on narration; a request shaped like the gate's tone judge is answered as a
 * judge, by a documented demo rule.
 *
 * @module
 */
export { ANTHROPIC_MODEL_PATH, MODEL_PATH, modelRoutes } from "./routes.ts";
export {
  CACHE_TTL_MS,
  type CacheUse,
  DemoPromptCache,
  type RenderedPrefixes,
  renderPrefixes,
} from "./anthropic_cache.ts";
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
export {
  type DemoJudgement,
  type JudgeQuestion,
  judgeQuestion,
  judgeTone,
  quotedPhrases,
  TONE_MARKERS,
} from "./demo_judge.ts";
