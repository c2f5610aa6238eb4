/** The orientation text on its own: bounded, only what the dashboard returned. */
import assert from "node:assert/strict";
import { FIELD_LIMIT } from "../../lib/poll/orientation.ts";
import { orientation, withOrientation } from "../../lib/poll/mod.ts";
import type { Dashboard } from "../../lib/platform/mod.ts";

const identity = { uuid: "0190a000-0000-7000-8000-000000000001", handle: "ada" } as Dashboard[
  "identity"
];

Deno.test("an identity-only dashboard carries no orientation", () => {
  assert.equal(orientation({ identity }), undefined);
  assert.equal(withOrientation(orientation({ identity }), "Charter."), "Charter.");
  assert.equal(withOrientation(undefined, undefined), undefined);
});

Deno.test("only the returned fields are rendered, in order", () => {
  const text = orientation({
    identity,
    environment: { summary: "A place for peers" },
    documentation: { changelog: "https://x.test/changelog", api: "https://x.test/api" },
  });
  assert.equal(
    text,
    "Your BaseCradle orientation:\nA place for peers\nDocumentation:\n- API: https://x.test/api\n" +
      "- Changelog: https://x.test/changelog\nYou are signed in as @ada.",
  );
});

Deno.test("every field is capped", () => {
  const text = orientation({ identity, environment: { summary: "x".repeat(10_000) } })!;
  assert.ok(text.length < FIELD_LIMIT + 200);
});
