/** What the two SDK fault suites share: awaiting one call's fault and checking its class. */
import assert from "node:assert/strict";
import type { ProviderError } from "../../lib/core/types/faults.ts";

/** A fault class, abstract ones included (`instanceof` works on those too). */
export type FaultClass = abstract new (...args: never[]) => ProviderError;

/** Awaits `call`, asserts it failed with an instance of `expected`, and returns that fault. */
export async function expectFault(
  call: Promise<unknown>,
  expected: FaultClass,
): Promise<ProviderError> {
  const error = await call.then(
    () => assert.fail("expected a fault"),
    (e: unknown) => e,
  );
  assert.ok(
    error instanceof expected,
    `got ${(error as Error).name}: ${(error as Error).message}`,
  );
  return error;
}
