/**
 * The shape of `harness doctor`'s answer (docs/operating.md#harness-doctor): one row per check,
 * each OK, WARN or FAIL with a sentence of detail and, unless OK, a one-line fix. `--json` prints
 * exactly {@link DoctorReportSchema}; the table is the same rows for a person.
 */
import * as z from "../base/zod.ts";

/** A check's verdict. FAIL: a wake would fail or misbehave; WARN: worth a look; OK: fine. */
export const CheckStatusSchema = z.enum(["OK", "WARN", "FAIL"]);
/** A check's verdict. */
export type CheckStatus = z.infer<typeof CheckStatusSchema>;

/** One check's result. */
export const CheckResultSchema = z.strictObject({
  /** What was checked: `environment`, `config-home`, `platform`, `model`, `mcp:<server>`, … */
  name: z.string().min(1),
  status: CheckStatusSchema,
  /** What was found, one line. */
  detail: z.string(),
  /** What to do about it, one line; null when the check is OK. */
  fix: z.string().nullable(),
});
/** One check's result. */
export type CheckResult = z.infer<typeof CheckResultSchema>;

/** The whole answer: every check, then the counts and the exit code they give. */
export const DoctorReportSchema = z.strictObject({
  checks: z.array(CheckResultSchema),
  summary: z.strictObject({
    ok: z.number().int().nonnegative(),
    warn: z.number().int().nonnegative(),
    fail: z.number().int().nonnegative(),
    /** 1 when any check failed, else 0. */
    exit_code: z.union([z.literal(0), z.literal(1)]),
  }),
});
/** The whole answer. */
export type DoctorReport = z.infer<typeof DoctorReportSchema>;

/** A passing check. */
export function ok(name: string, detail: string): CheckResult {
  return { name, status: "OK", detail, fix: null };
}

/** A check worth a look. */
export function warn(name: string, detail: string, fix: string): CheckResult {
  return { name, status: "WARN", detail, fix };
}

/** A failing check. */
export function fail(name: string, detail: string, fix: string): CheckResult {
  return { name, status: "FAIL", detail, fix };
}

/** The report for `checks`, validated against its own schema. */
export function doctorReport(checks: readonly CheckResult[]): DoctorReport {
  const count = (status: CheckStatus) => checks.filter((c) => c.status === status).length;
  return DoctorReportSchema.parse({
    checks,
    summary: {
      ok: count("OK"),
      warn: count("WARN"),
      fail: count("FAIL"),
      exit_code: count("FAIL") > 0 ? 1 : 0,
    },
  });
}

/** The report for a person: `STATUS  name  detail`, then `      fix: …` under each non-OK row. */
export function doctorTable(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((c) => c.name.length), 0);
  const rows = report.checks.map((check) => {
    const head = `${check.status.padEnd(4)}  ${check.name.padEnd(width)}  ${check.detail}`;
    return check.fix === null ? head : `${head}\n${" ".repeat(6 + width + 2)}fix: ${check.fix}`;
  });
  const { ok, warn, fail } = report.summary;
  return `${rows.join("\n")}\n\n${ok} ok, ${warn} warning(s), ${fail} failure(s)\n`;
}

/**
 * Runs `check`, turning a throw into a FAIL row and a run longer than `timeoutMs` into one
 * naming the limit, so one stuck probe never hangs the doctor (the process exits after the
 * report, taking any abandoned probe with it).
 */
export async function bounded(
  name: string,
  timeoutMs: number,
  check: () => Promise<CheckResult[]>,
): Promise<CheckResult[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<CheckResult[]>((resolve) => {
    timer = setTimeout(() =>
      resolve([
        fail(
          name,
          `did not finish within ${timeoutMs / 1000} s`,
          "find what is slow or unreachable (the other rows may say), or pass a longer --timeout",
        ),
      ]), timeoutMs);
  });
  try {
    return await Promise.race([
      check().catch((error: unknown) => [
        fail(
          name,
          `the check itself failed: ${
            (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim()
          }`,
          "report this as a bug; the other rows are unaffected",
        ),
      ]),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
