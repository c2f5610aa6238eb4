/**
 * How long-running commands (`harness sandbox`, `harness playground`) end: on the first SIGINT
 * or SIGTERM they log one `<name> stopping signal=<SIG>` line to stderr, close what they serve
 * and exit 0.
 */
import { writeStderr } from "../journal/output.ts";

/** Resolves with the name of the first SIGINT or SIGTERM received. */
export function untilStopped(): Promise<Deno.Signal> {
  return new Promise((resolve) => {
    const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
    const handlers = signals.map((signal) => {
      const handler = () => {
        signals.forEach((s, i) => Deno.removeSignalListener(s, handlers[i]));
        resolve(signal);
      };
      Deno.addSignalListener(signal, handler);
      return handler;
    });
  });
}

/**
 * Waits for SIGINT/SIGTERM, logs `<name> stopping signal=<SIG>`, runs `close` and returns the
 * exit code 0.
 */
export async function serveUntilStopped(
  name: string,
  close: () => Promise<void>,
): Promise<number> {
  const signal = await untilStopped();
  writeStderr(`${name} stopping signal=${signal}\n`);
  await close();
  return 0;
}
