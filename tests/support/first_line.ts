/**
 * The first line a child process writes: commands like `harness sandbox` announce where they
 * listen in one stdout line and keep running, so a test reads up to the first newline and leaves
 * the rest of the stream to the caller.
 */

/** Reads `reader` up to its first newline (or its end); returns that line and what came after. */
export async function readFirstLine(
  reader: ReadableStreamDefaultReader<string>,
): Promise<{ line: string; rest: string }> {
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  const end = text.indexOf("\n");
  return end < 0
    ? { line: text, rest: "" }
    : { line: text.slice(0, end), rest: text.slice(end + 1) };
}
