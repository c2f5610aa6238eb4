/**
 * ConfigError: configuration that refuses to load. Fleet operators read these on stderr and in
 * the journal, so each one is a sentence naming the variable or file to fix and what it accepts.
 */

/** One refused setting. */
export interface ConfigIssue {
  /** The environment variable or file the problem is in. */
  readonly variable: string;
  /** A complete sentence: the variable, the bad value (never a secret's) and what it accepts. */
  readonly message: string;
}

/** Bad configuration. The message lists every refused setting, so one fix-up round suffices. */
export class ConfigError extends Error {
  /** The class name, kept through minification. */
  override name = "ConfigError";
  /** Every refused setting, in the order they were checked. */
  readonly issues: readonly ConfigIssue[];

  /** An error for one or more refused settings (at least one). */
  constructor(issues: ConfigIssue | readonly ConfigIssue[], options?: ErrorOptions) {
    const list = Array.isArray(issues) ? issues : [issues as ConfigIssue];
    // One line: a journal record must never be split by the error it carries.
    super(list.map((issue) => issue.message).join(" "), options);
    this.issues = list;
  }

  /** The first refused variable, for callers that report one. */
  get variable(): string {
    return this.issues[0]?.variable ?? "environment";
  }
}
