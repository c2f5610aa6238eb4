/** What an error says, for the one-line messages the harness prints and logs. */

/** The error's message (or the thrown value as text). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** {@link errorMessage} on one line (whitespace runs collapsed); the error's name when empty. */
export function oneLineError(error: unknown): string {
  return errorMessage(error).replace(/\s+/g, " ").trim() ||
    (error instanceof Error ? error.name : "error");
}

/** `Name: message` (or the thrown value as text): for lines that must tell error classes apart. */
export function namedError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
