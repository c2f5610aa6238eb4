/**
 * What Deno puts on a process's start-up module graph: every module statically reachable from an
 * entry point (a literal dynamic `import()` is read and parsed at start-up too, but is followed
 * only where it runs; `deno info` marks those as dynamic and they are left out here).
 */
import assert from "node:assert/strict";
import { REPO_ROOT } from "./run_cli.ts";

/** The modules `deno run` loads statically from `entry` (dynamic imports not followed). */
export async function staticGraph(entry: string): Promise<Set<string>> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: REPO_ROOT,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.ok(output.success, `deno info ${entry} failed`);
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    roots: string[];
    modules: {
      specifier: string;
      dependencies?: { code?: { specifier?: string }; isDynamic?: boolean }[];
    }[];
  };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const stack = [...info.roots];
  while (stack.length) {
    const specifier = stack.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dep of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (!dep.isDynamic && dep.code?.specifier) stack.push(dep.code.specifier);
    }
  }
  const root = `file://${REPO_ROOT.replace(/\/?$/, "/")}`;
  return new Set([...seen].map((s) => s.replace(root, "")));
}
