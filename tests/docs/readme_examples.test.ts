/**
 * The README's offline examples stay runnable. A fenced block marked, on the line before it, with
 *
 *   <!-- offline-example -->          each command line runs; exit 0 expected
 *   <!-- offline-example exit=N -->   the same, exit N expected
 *   <!-- offline-example server -->   one long-running command (a `--port N` becomes a free port;
 *                                     the `admin_token` its shown output names becomes the one it
 *                                     printed); it runs until the file's examples are done, then
 *                                     SIGTERM
 *   <!-- offline-example script -->   the block runs as one bash script (`-e -o pipefail`)
 *
 * runs as a real process from the repository root, with a private HOME, HARNESS_HOME,
 * BASECRADLE_CONFIG_HOME and TMPDIR. A block marked `<!-- offline-output -->` after it is the
 * output the page shows: JSON must be a subset of the JSON printed on stdout; text must match line
 * by line in substance (uuids, timestamps and numbers may differ, `…` stands for anything). The
 * same markers work on the docs/ pages; README.md must keep at least a handful of them.
 */
import { readFirstLine } from "../support/first_line.ts";
import { strict as assert } from "node:assert";
import { DENO_DIR, REPO_ROOT } from "../support/run_cli.ts";

/** What one marked block asks for. */
interface Example {
  readonly file: string;
  /** 1-based line of the marker. */
  readonly line: number;
  readonly kind: "commands" | "server" | "script";
  readonly exit: number;
  readonly body: string;
  output?: string;
}

const MARKER = /^<!--\s*offline-example((?:\s+[\w=]+)*)\s*-->\s*$/;
const OUTPUT_MARKER = /^<!--\s*offline-output\s*-->\s*$/;

/** The fenced block that starts at or after `from` (skipping blank lines), and where it ends. */
function blockAfter(lines: string[], from: number): { body: string; end: number } | undefined {
  let i = from;
  while (i < lines.length && lines[i].trim() === "") i++;
  const fence = /^(`{3,}|~{3,})/.exec(lines[i] ?? "");
  if (!fence) return undefined;
  const body: string[] = [];
  for (let j = i + 1; j < lines.length; j++) {
    if (lines[j].startsWith(fence[1])) return { body: body.join("\n"), end: j };
    body.push(lines[j]);
  }
  return undefined;
}

/** Every marked example of a Markdown file, each with the output block that follows it, if any. */
export function extractExamples(markdown: string, file: string): Example[] {
  const lines = markdown.split("\n");
  const examples: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = MARKER.exec(lines[i]);
    if (marker) {
      const words = marker[1].trim().split(/\s+/).filter(Boolean);
      const block = blockAfter(lines, i + 1);
      assert.ok(block, `${file}:${i + 1}: offline-example marker without a fenced block after it`);
      const exit = words.find((w) => w.startsWith("exit="));
      const kind = words.includes("server")
        ? "server"
        : words.includes("script")
        ? "script"
        : "commands";
      examples.push({
        file,
        line: i + 1,
        kind,
        exit: exit ? Number(exit.slice(5)) : 0,
        body: block.body,
      });
      i = block.end;
    } else if (OUTPUT_MARKER.test(lines[i])) {
      const block = blockAfter(lines, i + 1);
      const last = examples.at(-1);
      assert.ok(
        block && last && last.output === undefined,
        `${file}:${i + 1}: stray offline-output`,
      );
      last.output = block.body;
      i = block.end;
    }
  }
  return examples;
}

/** A shell line as words: quotes grouped, a trailing `# comment` dropped. Enough for our docs. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: string | undefined;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      started = true;
    } else if (c === "#" && !started && (i === 0 || /\s/.test(line[i - 1]))) {
      break;
    } else if (/\s/.test(c)) {
      if (started) words.push(word);
      word = "";
      started = false;
    } else {
      word += c;
      started = true;
    }
  }
  if (started) words.push(word);
  return words;
}

/** The command lines of a block: continuations joined, comments and blank lines dropped. */
export function commandLines(body: string): string[][] {
  const out: string[][] = [];
  let pending = "";
  for (const raw of body.split("\n")) {
    const line = pending + raw;
    if (line.endsWith("\\")) {
      pending = line.slice(0, -1) + " ";
      continue;
    }
    pending = "";
    const words = shellWords(line);
    if (words.length) out.push(words);
  }
  return out;
}

/** `harness …` runs as `deno task harness …`; `deno …` as this very Deno. */
function argvOf(words: string[]): string[] {
  if (words[0] === "harness") return [Deno.execPath(), "task", "harness", ...words.slice(1)];
  assert.equal(
    words[0],
    "deno",
    `an offline example runs deno or harness, not: ${words.join(" ")}`,
  );
  return [Deno.execPath(), ...words.slice(1)];
}

const UUID = String.raw`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`;
const TOKENS = new RegExp(
  `(${UUID})|([0-9a-f]{8}-…)|(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)?Z)|(…)|(\\d+(?:\\.\\d+)?)`,
  "g",
);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** One shown line as a pattern: uuids, timestamps and numbers vary; `…` is anything. */
export function linePattern(shown: string): RegExp {
  const text = shown.trim().replace(/\s+/g, " ");
  let source = "";
  let last = 0;
  for (const match of text.matchAll(TOKENS)) {
    source += escapeRegExp(text.slice(last, match.index));
    if (match[1] || match[2]) source += `[0-9a-f-]{36}`;
    else if (match[3]) source += String.raw`\d{4}-\d\d-\d\dT[\d:.]+Z`;
    else if (match[4]) source += ".*";
    else source += String.raw`\d+(?:\.\d+)?`;
    last = match.index + match[0].length;
  }
  source += escapeRegExp(text.slice(last));
  return new RegExp(`^${source}$`);
}

/**
 * The shown lines the printed streams do not hold in the shown order. Each shown line must match
 * a printed line after the one its predecessor matched in the same stream (stdout before stderr
 * when both could), so a page cannot reorder, invent or drop-and-replace lines; lines it leaves
 * out are allowed, and a `…` line says where.
 */
export function unmatchedLines(shown: string, ...streams: string[]): string[] {
  const pools = streams.map((text) =>
    text.split("\n").map((line) => line.trim().replace(/\s+/g, " "))
  );
  const cursors = pools.map(() => 0);
  const missing: string[] = [];
  for (const line of shown.split("\n")) {
    if (line.trim() === "" || line.trim() === "…") continue;
    const pattern = linePattern(line);
    let matched = false;
    for (const [index, pool] of pools.entries()) {
      const at = pool.findIndex((candidate, i) => i >= cursors[index] && pattern.test(candidate));
      if (at < 0) continue;
      cursors[index] = at + 1;
      matched = true;
      break;
    }
    if (!matched) missing.push(line);
  }
  return missing;
}

/**
 * Where the JSON a page shows differs in shape from the JSON printed: every object has exactly
 * the printed keys, every array the printed length, every value the printed type; strings match
 * as shown lines do (uuids, timestamps, ports and other numbers inside them may differ), and
 * numbers, booleans and nulls are equal. `[]` when the page shows the output as it is.
 */
export function jsonShapeProblems(shown: unknown, actual: unknown, path = "$"): string[] {
  const kind = (value: unknown) =>
    value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  if (kind(shown) !== kind(actual)) {
    return [`${path}: shown ${kind(shown)}, printed ${kind(actual)}`];
  }
  if (Array.isArray(shown)) {
    const printed = actual as unknown[];
    if (shown.length !== printed.length) {
      return [`${path}: shown ${shown.length} item(s), printed ${printed.length}`];
    }
    return shown.flatMap((item, i) => jsonShapeProblems(item, printed[i], `${path}[${i}]`));
  }
  if (shown !== null && typeof shown === "object") {
    const printed = actual as Record<string, unknown>;
    const missing = Object.keys(printed).filter((key) => !Object.hasOwn(shown, key));
    const extra = Object.keys(shown).filter((key) => !Object.hasOwn(printed, key));
    return [
      ...missing.map((key) => `${path}.${key}: printed, not shown`),
      ...extra.map((key) => `${path}.${key}: shown, not printed`),
      ...Object.entries(shown).filter(([key]) => Object.hasOwn(printed, key))
        .flatMap(([key, value]) => jsonShapeProblems(value, printed[key], `${path}.${key}`)),
    ];
  }
  if (typeof shown === "string") {
    return linePattern(shown).test((actual as string).trim().replace(/\s+/g, " "))
      ? []
      : [`${path}: shown ${JSON.stringify(shown)}, printed ${JSON.stringify(actual)}`];
  }
  return shown === actual
    ? []
    : [`${path}: shown ${JSON.stringify(shown)}, printed ${JSON.stringify(actual)}`];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Asserts that what a process printed matches what the page shows. */
function assertOutput(example: Example, shown: string, stdout: string, stderr: string): void {
  const where = `${example.file}:${example.line}`;
  const json = parseJson(shown);
  if (json !== undefined) {
    const actual = parseJson(stdout);
    assert.ok(actual !== undefined, `${where}: stdout is not JSON:\n${stdout}\n${stderr}`);
    assert.deepEqual(
      jsonShapeProblems(json, actual),
      [],
      `${where}: the shown JSON is not the printed JSON's shape (show it whole, or as text with …):\n${stdout}`,
    );
    return;
  }
  const missing = unmatchedLines(shown, stdout, stderr);
  assert.deepEqual(
    missing,
    [],
    `${where}: shown lines not printed in this order:\n${stdout}\n--- stderr\n${stderr}`,
  );
}

/** Whether `curl` is on the PATH the examples run with. */
const HAS_CURL = ["/usr/local/bin", "/usr/bin", "/bin"].some((dir) => {
  try {
    return Deno.statSync(`${dir}/curl`).isFile;
  } catch {
    return false;
  }
});

/** Each process gets this long; the whole test stays well under a minute. */
const PROCESS_TIMEOUT_MS = 20_000;

/** An example's process: from the repository root, only the given environment, output piped. */
function commandOptions(argv: string[], env: Record<string, string>): Deno.CommandOptions {
  return {
    args: argv.slice(1),
    cwd: REPO_ROOT,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  };
}

async function run(
  argv: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const command = new Deno.Command(argv[0], {
    ...commandOptions(argv, env),
    signal: AbortSignal.timeout(PROCESS_TIMEOUT_MS),
  });
  const output = await command.output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

/** A long-running example: its first stdout line, and a way to stop it. */
interface Server {
  readonly firstLine: string;
  stop(): Promise<{ code: number; stderr: string }>;
}

async function startServer(argv: string[], env: Record<string, string>): Promise<Server> {
  const child = new Deno.Command(argv[0], commandOptions(argv, env)).spawn();
  // Drain stderr all along, so a chatty server never blocks on a full pipe.
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const deadline = setTimeout(() => child.kill("SIGKILL"), PROCESS_TIMEOUT_MS);
  let firstLine: string;
  try {
    ({ line: firstLine } = await readFirstLine(reader));
  } finally {
    clearTimeout(deadline);
  }
  const rest = (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  return {
    firstLine,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      const status = await child.status;
      await rest;
      return { code: status.code, stderr: await stderr };
    },
  };
}

/** Runs every example of one file in order, in one private environment. */
async function runExamples(t: Deno.TestContext, file: string, examples: Example[]): Promise<void> {
  const tmp = await Deno.makeTempDir({ prefix: "docs-examples-" });
  const env: Record<string, string> = {
    PATH: [Deno.execPath().replace(/\/[^/]*$/, ""), "/usr/local/bin", "/usr/bin", "/bin"].join(":"),
    HOME: `${tmp}/home`,
    HARNESS_HOME: `${tmp}/harness-home`,
    BASECRADLE_CONFIG_HOME: `${tmp}/home/.config/basecradle`,
    TMPDIR: `${tmp}/tmp`,
    DENO_DIR,
    NO_COLOR: "1",
  };
  for (const dir of [env.HOME, env.HARNESS_HOME, env.TMPDIR]) await Deno.mkdir(dir);
  const rewrites: [string, string][] = [];
  const rewrite = (text: string) =>
    rewrites.reduce((out, [from, to]) => out.replaceAll(from, to), text);
  const servers: Server[] = [];
  try {
    for (const example of examples) {
      const where = `${file}:${example.line}`;
      // A script example drives the sandbox with curl; a box without curl cannot run it.
      const ignore = example.kind === "script" && !HAS_CURL;
      await t.step({
        name: `${where} (${example.kind})`,
        ignore,
        fn: async () => {
          if (example.kind === "server") {
            const [words] = commandLines(example.body);
            const port = words.indexOf("--port");
            const shownPort = port >= 0 ? words[port + 1] : undefined;
            if (port >= 0) words[port + 1] = "0";
            const server = await startServer(argvOf(words), env);
            servers.push(server);
            const answer = parseJson(server.firstLine) as
              | { base_url?: string; admin_token?: string }
              | undefined;
            assert.ok(answer?.base_url, `${where}: no JSON line on stdout: ${server.firstLine}`);
            const actualHost = new URL(answer.base_url).host;
            if (shownPort) rewrites.push([`127.0.0.1:${shownPort}`, actualHost]);
            // A per-run secret the page shows one example of, as it shows one port.
            const shown = parseJson(example.output ?? "") as { admin_token?: string } | undefined;
            if (shown?.admin_token && answer.admin_token) {
              rewrites.push([shown.admin_token, answer.admin_token]);
            }
            if (example.output) {
              assertOutput(example, rewrite(example.output), server.firstLine, "");
            }
            return;
          }
          let stdout = "";
          let stderr = "";
          if (example.kind === "script") {
            const script = `${tmp}/example-${example.line}.sh`;
            await Deno.writeTextFile(script, rewrite(example.body));
            const result = await run(["bash", "-e", "-o", "pipefail", script], env);
            assert.equal(
              result.code,
              example.exit,
              `${where}: exit ${result.code}\n${result.stderr}`,
            );
            ({ stdout, stderr } = result);
          } else {
            const lines = commandLines(rewrite(example.body));
            assert.ok(lines.length > 0, `${where}: no command in the block`);
            for (const words of lines) {
              const result = await run(argvOf(words), env);
              assert.equal(
                result.code,
                example.exit,
                `${where}: \`${
                  words.join(" ")
                }\` exited ${result.code}\n${result.stdout}${result.stderr}`,
              );
              stdout += result.stdout;
              stderr += result.stderr;
            }
          }
          if (example.output) assertOutput(example, rewrite(example.output), stdout, stderr);
        },
      });
    }
  } finally {
    for (const server of servers) {
      const { code, stderr } = await server.stop();
      assert.equal(code, 0, `a server example did not stop cleanly on SIGTERM:\n${stderr}`);
    }
    await Deno.remove(tmp, { recursive: true });
  }
}

/** README.md and every docs page, as repository-relative path → text. */
async function pages(): Promise<Map<string, string>> {
  const out = new Map<string, string>([[
    "README.md",
    await Deno.readTextFile(`${REPO_ROOT}README.md`),
  ]]);
  for await (const entry of Deno.readDir(`${REPO_ROOT}docs`)) {
    if (entry.isFile && entry.name.endsWith(".md")) {
      out.set(`docs/${entry.name}`, await Deno.readTextFile(`${REPO_ROOT}docs/${entry.name}`));
    }
  }
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}

Deno.test("the output matcher tells a shown line from a different one, and keeps the order", () => {
  const shown = "INFO wake end timeline=01a2334f-… outcome=ok turns=1 duration=0.17s";
  assert.deepEqual(
    unmatchedLines(
      shown,
      "INFO wake end timeline=01a23350-0000-7000-8000-000000000000 outcome=ok turns=2 duration=1.02s",
    ),
    [],
  );
  assert.deepEqual(
    unmatchedLines(
      shown,
      "INFO wake end timeline=01a23350-0000-7000-8000-000000000000 outcome=error turns=1 duration=0.17s",
    ),
    [shown],
  );
  // In order, per stream: left-out lines are fine, a reordered one is not.
  assert.deepEqual(unmatchedLines("a\n…\nc", "a\nb\nc"), []);
  assert.deepEqual(unmatchedLines("c\na", "a\nb\nc"), ["a"]);
  assert.deepEqual(unmatchedLines("out 1\nerr 1\nout 2", "out 1\nout 2", "err 1"), []);
  assert.deepEqual(unmatchedLines("a\na", "a"), ["a"], "each printed line is used once");
  assert.deepEqual(
    commandLines("deno task demo   # a comment\n\n# only a comment\nharness x \\\n  --y 'a b'"),
    [
      ["deno", "task", "demo"],
      ["harness", "x", "--y", "a b"],
    ],
  );
});

Deno.test("the JSON matcher compares shape: every key, every item, volatile values aside", () => {
  const printed = {
    base_url: "http://127.0.0.1:40123",
    uuid: "01a23350-0000-7000-8000-000000000000",
    tools: ["a", "b"],
    n: 36,
    nested: { ok: true, none: null },
  };
  const shown = {
    base_url: "http://127.0.0.1:3000",
    uuid: "01a2334f-6570-7249-9bd9-a800411146cb",
    tools: ["a", "b"],
    n: 36,
    nested: { ok: true, none: null },
  };
  assert.deepEqual(jsonShapeProblems(shown, printed), []);
  assert.deepEqual(jsonShapeProblems({ ...shown, n: 37 }, printed), ["$.n: shown 37, printed 36"]);
  const { tools: _, ...fewer } = shown;
  assert.deepEqual(jsonShapeProblems(fewer, printed), ["$.tools: printed, not shown"]);
  assert.deepEqual(jsonShapeProblems({ ...shown, tools: ["a"] }, printed), [
    "$.tools: shown 1 item(s), printed 2",
  ]);
  assert.deepEqual(jsonShapeProblems({ ...shown, extra: 1 }, printed), [
    "$.extra: shown, not printed",
  ]);
  assert.deepEqual(jsonShapeProblems({ ...shown, nested: [] }, printed), [
    "$.nested: shown array, printed object",
  ]);
});

Deno.test("README.md keeps a handful of offline examples, and lists every command", async () => {
  const readme = (await pages()).get("README.md")!;
  const examples = extractExamples(readme, "README.md");
  assert.ok(examples.length >= 5, `only ${examples.length} offline examples in README.md`);
  assert.ok(examples.every((e) => e.output !== undefined), "every README example shows its output");
  // The command list names every command `harness --help` lists (read from the registry's text).
  const help = await run([Deno.execPath(), "run", "-P=harness", "--quiet", "main.ts", "--help"], {
    PATH: "/usr/bin:/bin",
    HOME: "/nonexistent",
    DENO_DIR,
    NO_COLOR: "1",
  });
  assert.equal(help.code, 0, help.stderr);
  const commands = [...help.stdout.split("Commands:")[1].split("\n\n")[0].matchAll(/^ {2}(\S+)/gm)]
    .map((m) => m[1]);
  assert.ok(commands.length >= 10, help.stdout);
  const section = readme.split("\n## Commands\n")[1].split("\n## ")[0];
  for (const command of commands) {
    assert.ok(section.includes(`\`harness ${command}\``), `README's command list lacks ${command}`);
  }
});

for (const [file, text] of await pages()) {
  const examples = extractExamples(text, file);
  if (examples.length === 0) continue;
  Deno.test(`${file}: its offline examples run and print what the page shows`, async (t) => {
    await runExamples(t, file, examples);
  });
}
