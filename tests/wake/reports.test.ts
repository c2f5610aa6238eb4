import assert from "node:assert/strict";
import { ProviderBillingError } from "../../lib/core/types/faults.ts";
import { billingReport, itemPhrase, permanentReport, verbatim } from "../../lib/wake/reports.ts";

Deno.test("item phrases", () => {
  assert.equal(itemPhrase({ kind: "message", count: 1 }), "your message");
  assert.equal(itemPhrase({ kind: "message", count: 3 }), "your messages");
  assert.equal(itemPhrase({ kind: "asset", filename: "a.png" }), "the file you shared (a.png)");
  assert.equal(itemPhrase({ kind: "event" }), "the webhook delivery");
  assert.equal(itemPhrase({ kind: "task" }), "the scheduled task");
});

Deno.test("report bodies quote the vendor verbatim", () => {
  assert.equal(
    permanentReport(
      "payload_too_large",
      { kind: "asset", filename: "big.png" },
      "openai",
      "too big",
    ),
    "I couldn't process the file you shared (big.png): OpenAI rejected the request — too big. The original file is untouched; a smaller or cropped version may work.",
  );
  assert.ok(
    permanentReport("context_length", { kind: "message", count: 1 }, "xai", "long").endsWith(
      " This conversation has grown too long for my context window here.",
    ),
  );
  assert.equal(
    billingReport("openrouter", "no credit"),
    "I can't respond right now — my OpenRouter account is out of credit (no credit). Add funds to the OpenRouter account to resume; pending messages will be handled then.",
  );
});

Deno.test("verbatim reads the error body before the exception text", () => {
  assert.equal(
    verbatim(new ProviderBillingError("x", 402, { error: { message: "Insufficient credits" } })),
    "Insufficient credits",
  );
  assert.equal(verbatim(new ProviderBillingError("x", 402, { detail: "d" })), "d");
  assert.equal(verbatim(new ProviderBillingError("fallback", 402, undefined)), "fallback");
});
