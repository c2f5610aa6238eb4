/**
 * The gate's built-in checks. Each is a pure function of the body and its configuration, so the
 * same body always gets the same verdicts (a logged refusal can be replayed, a test can pin it).
 */
import { codePointLength } from "../base/code_points.ts";
import type { Guardrails } from "./guardrails.ts";
import { findOwnSecrets, prepareOwnSecrets } from "./own_secrets.ts";
import { findCredentials } from "./secret_shapes.ts";
import { type Check, fail, pass, type Verdict } from "./verdict.ts";

/** Refuses an empty or whitespace-only body: the platform would reject it anyway, less clearly. */
export const notEmpty: Check = {
  name: "not_empty",
  judge: (body: string): Verdict =>
    body.trim() === ""
      ? fail("not_empty", "the message body is empty; write the text you want to post")
      : pass("not_empty"),
};

/** Refuses a body longer than `max` code points (the unit every cap in the harness uses). */
export function maxLength(max: number): Check {
  return {
    name: "max_length",
    judge(body) {
      const length = codePointLength(body);
      return length <= max ? pass("max_length") : fail(
        "max_length",
        `the message is ${length} characters long and the limit is ${max}; shorten it or ` +
          "split it into several messages",
      );
    },
  };
}

/** Refuses a body matching any operator-forbidden pattern, naming the first that matched. */
export function forbiddenPatterns(patterns: Guardrails["forbiddenPatterns"]): Check {
  // A global or sticky regex carries lastIndex between `test` calls, which would make the
  // verdict depend on the previous message; a library caller may hand one in, so strip them.
  const compiled = patterns.map((p) => ({
    regex: new RegExp(p.regex.source, p.regex.flags.replace(/[gy]/g, "")),
    reason: p.reason,
  }));
  return {
    name: "forbidden_patterns",
    judge(body) {
      const index = compiled.findIndex((p) => p.regex.test(body));
      if (index < 0) return pass("forbidden_patterns");
      const { regex, reason } = compiled[index];
      // The operator's reason is the useful text; without one, the pattern itself tells the
      // model what to avoid (operators write patterns, not secrets, so it is safe to show).
      const why = reason ?? `it matches /${regex.source}/${regex.flags}`;
      return fail(
        "forbidden_patterns",
        `the message contains something the operator forbids (pattern #${index + 1}: ${why}); ` +
          "rephrase it without that",
      );
    },
  };
}

/**
 * Refuses credential shapes: API keys, tokens, webhook URLs, URL passwords, private keys.
 * Switchable by the operator. The verdict carries every credential's span, for redaction.
 */
export const secretGuard: Check = {
  name: "secret_guard",
  judge(body) {
    const found = findCredentials(body);
    return found.length === 0 ? pass("secret_guard") : fail(
      "secret_guard",
      `the message contains what looks like ${found[0].shape}; never post credentials — ` +
        "remove it (and do not repeat it) before posting again",
      found.map((f) => [f.start, f.end] as const),
    );
  },
};

/**
 * Refuses the agent's own secrets (its platform token, its API key, its password), however they
 * are spelled: without their prefix, split by invisible characters, in fullwidth or confusable
 * letters (own_secrets.ts). Always on. A secret too short to tell from a word is not matched.
 */
export function knownSecrets(secrets: Iterable<string | null | undefined>): Check {
  const prepared = prepareOwnSecrets(secrets);
  return {
    name: "known_secrets",
    judge(body) {
      const spans = findOwnSecrets(body, prepared);
      return spans.length === 0 ? pass("known_secrets") : fail(
        "known_secrets",
        "the message contains one of your own credentials (such as your platform token); " +
          "never post it, in any spelling — remove it before posting again",
        spans,
      );
    },
  };
}

/** The pipeline `guardrails` configure, in the order the verdicts are reported. */
export function pipeline(
  guardrails: Guardrails,
  secrets: Iterable<string | null | undefined> = [],
): Check[] {
  return surfaceChecks(guardrails, secrets).message;
}

/**
 * The checks of every surface `guardrails` configure (docs/security.md#what-each-surface-screens):
 * a message gets the whole pipeline; every other text field (a file, a filename, a description,
 * task instructions, a direct message) gets the agent's own secrets, the credential shapes and the
 * operator's patterns, but no length or emptiness rule, which are about chat messages.
 */
export function surfaceChecks(
  guardrails: Guardrails,
  secrets: Iterable<string | null | undefined> = [],
): { readonly message: Check[]; readonly text: Check[] } {
  const own = knownSecrets(secrets);
  const shapes = guardrails.secretGuard ? [secretGuard] : [];
  const patterns = forbiddenPatterns(guardrails.forbiddenPatterns);
  return {
    message: [notEmpty, own, ...shapes, maxLength(guardrails.maxLength), patterns],
    text: [own, ...shapes, patterns],
  };
}
