/**
 * The abortable wait: it ends when its signal aborts, however long it was asked to wait, and an
 * aborted signal ends it before it starts. Every assertion waits on a condition, never on time: a
 * wait of an hour that returns proves the abort ended it.
 */
import assert from "node:assert/strict";
import { sleep } from "../../lib/base/sleep.ts";

const HOUR_MS = 60 * 60 * 1000;

Deno.test("sleep: an abort ends a long wait, and leaves no timer behind", async () => {
  const controller = new AbortController();
  const wait = sleep(HOUR_MS, controller.signal);
  controller.abort();
  // Resolves (never rejects); the test's sanitizers fail it if the hour's timer were left running.
  assert.equal(await wait, undefined);
});

Deno.test("sleep: a signal already aborted ends the wait at once", async () => {
  assert.equal(await sleep(HOUR_MS, AbortSignal.abort()), undefined);
});

Deno.test("sleep: without an abort the wait runs out by itself", async () => {
  const controller = new AbortController();
  await sleep(1, controller.signal);
  assert.equal(controller.signal.aborted, false);
});
