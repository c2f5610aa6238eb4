/**
 * A scripted tone judge for the chat wire (docs/security.md#the-tone-check): requests to the model
 * id `judge` are answered with the strict verdict, refusing any message that says "brilliant"
 * (sarcasm, for these tests) with {@link SARCASM_REASON}. It holds no tests.
 */
import { chatCompletion, type MockReply, type RecordedRequest } from "./model_mock.ts";

/** The judge's model id, as `tone.model` names it in the tests' guardrails.json. */
export const JUDGE_MODEL = "judge";

/** The reason the judge gives for a sarcastic message. */
export const SARCASM_REASON = "It mocks the reader; say it plainly.";

/** `guardrails.json` switching the tone check on with the scripted judge. */
export const JUDGED_GUARDRAILS = JSON.stringify({
  tone: { instruction: "Never sarcastic.", model: JUDGE_MODEL, max_tokens: 100 },
});

/** The judge's answer when `request` is a judge call; undefined for any other request. */
export function judgeReply(request: RecordedRequest): MockReply | undefined {
  const body = request.body as { model: string; messages: { content: string }[] };
  if (body.model !== JUDGE_MODEL) return undefined;
  const sarcastic = body.messages[1].content.includes("brilliant");
  const verdict = sarcastic
    ? { pass: false, reason: SARCASM_REASON }
    : { pass: true, reason: "Kind." };
  return { json: chatCompletion({ content: JSON.stringify(verdict) }) };
}
