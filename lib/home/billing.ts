/**
 * The billing-blocked marker (docs/home-layout.md#the-billing-marker): present while an
 * out-of-funds notice has already been posted for the current outage on a timeline, so the notice
 * is posted once per outage, not once per wake. It holds the onset time as a Python float repr.
 */
import { dirname } from "../base/paths.ts";
import { pythonFloatRepr } from "../pycompat/json.ts";
import { billingPath } from "./paths.ts";

/** Whether an out-of-funds notice was already posted for the ongoing outage on `timeline`. */
export async function isBillingBlocked(home: string, timeline: string): Promise<boolean> {
  try {
    await Deno.lstat(billingPath(home, timeline));
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** Records the outage's onset (`now`, epoch seconds; default the wall clock). */
export async function markBillingBlocked(
  home: string,
  timeline: string,
  now: number = Date.now() / 1000,
): Promise<void> {
  const path = billingPath(home, timeline);
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, pythonFloatRepr(now));
}

/** Clears the marker after the first successful model call; a missing marker is fine. */
export async function clearBillingBlocked(home: string, timeline: string): Promise<void> {
  try {
    await Deno.remove(billingPath(home, timeline));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}
