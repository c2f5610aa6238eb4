/**
 * A wake-like child for the budget-lease tests: takes a lease (`lease`) or the budget lock
 * itself (`lock`), says so on stdout, then holds it until its stdin closes — or until the parent
 * SIGKILLs it, which is the point.
 * Usage: budget_lease_child.ts <lease|lock> <home> <tokens>
 */
import { BudgetLease, withBudgetLock } from "../../lib/home/budget_leases.ts";

const [mode, home, tokens] = Deno.args;
const holdUntilStdinCloses = async () => {
  const buffer = new Uint8Array(16);
  while (await Deno.stdin.read(buffer) !== null) { /* keep holding */ }
};
if (mode === "lock") {
  await withBudgetLock(home, async () => {
    console.log("locked");
    await holdUntilStdinCloses();
  });
} else {
  const lease = await withBudgetLock(
    home,
    () => BudgetLease.take(home, "tl-child", { tokens: Number(tokens), usd: 0 }),
  );
  console.log(`held ${lease.id}`);
  await holdUntilStdinCloses();
  await withBudgetLock(home, () => lease.release());
}
