/**
 * The captured text of a turn's first request (docs/records.md#the-request-anatomy): one JSON file
 * per turn record, `requests/<quote(timeline)>/<record_id>.json`, written only while
 * `HARNESS_CAPTURE_REQUESTS` is on (the playground turns it on for its wakes; production leaves
 * it off). The record itself keeps each part's size and sha256; this file keeps the part texts,
 * scrubbed of every registered secret, so a viewer can show what the model was sent and where
 * two requests first differ. Nothing here is ever read by a wake.
 */
import { atomicWrite } from "../base/atomic_write.ts";
import { join } from "../base/paths.ts";
import { readTextIfPresent } from "../base/read_files.ts";
import * as z from "../base/zod.ts";
import { scrubSecrets } from "../journal/scrub.ts";
import { quote } from "../pycompat/quote.ts";

/** The capture format this writer produces. */
export const CAPTURE_VERSION = 1;

/** One captured part: its name, the sha256 of its unscrubbed text, and the scrubbed text. */
export const CapturedPartSchema = z.strictObject({
  name: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  text: z.string(),
});

/** One turn's captured first request. */
export const RequestCaptureSchema = z.strictObject({
  version: z.literal(CAPTURE_VERSION),
  record_id: z.string().min(1),
  timeline: z.string().min(1),
  wake_id: z.string().min(1),
  parts: z.array(CapturedPartSchema),
});

/** One turn's captured first request. */
export type RequestCapture = z.infer<typeof RequestCaptureSchema>;

/** `requests/<quote(timeline)>/`: one timeline's captured requests. */
function capturesDir(home: string, timeline: string): string {
  return join(home, "requests", quote(timeline));
}

/** `requests/<quote(timeline)>/<quote(record_id)>.json`. */
export function capturePath(home: string, timeline: string, recordId: string): string {
  return join(capturesDir(home, timeline), `${quote(recordId)}.json`);
}

/** What {@link writeCapture} is given: the record's ids and each part's hash and raw text. */
export interface CaptureInput {
  readonly recordId: string;
  readonly timeline: string;
  readonly wakeId: string;
  readonly parts: readonly {
    readonly name: string;
    readonly sha256: string;
    readonly text: string;
  }[];
}

/** Writes one capture (atomic replace), every text scrubbed of the registered secrets. */
export async function writeCapture(home: string, input: CaptureInput): Promise<void> {
  const capture: RequestCapture = {
    version: CAPTURE_VERSION,
    record_id: input.recordId,
    timeline: input.timeline,
    wake_id: input.wakeId,
    parts: input.parts.map((p) => ({ name: p.name, sha256: p.sha256, text: scrubSecrets(p.text) })),
  };
  await atomicWrite(capturePath(home, input.timeline, input.recordId), JSON.stringify(capture));
}

/** The capture of one record, or null when none was kept (capture off, or removed). */
export async function readCapture(
  home: string,
  timeline: string,
  recordId: string,
): Promise<RequestCapture | null> {
  const text = await readTextIfPresent(capturePath(home, timeline, recordId));
  if (text === undefined) return null;
  try {
    const parsed = RequestCaptureSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // not JSON: a damaged capture is as good as none
  }
}
