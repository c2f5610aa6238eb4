/**
 * The code bridge's way out (docs/tools.md#code_execution-run-code-in-the-vendors-sandbox): after a model reply that ran code,
 * every file the run wrote into its container — found by listing the container, not only the
 * files the reply cites — and the source it executed are stored as assets on the timeline, and an
 * injected user turn hands the model their uuids; the turn then gets one more step to react.
 *
 * The code run itself is never repeated here or by a recovery: the reply that carries it is on
 * disk before this hook runs. What this hook sends is keyed asset creates, each named within the
 * turn by the container file id or the source's sha256, so a re-sent upload returns the first
 * asset. A failure is a `code_bridge failed` WARNING and a line of the note, never a crash.
 */
import { errorMessage } from "../../base/error_text.ts";
import { sha256Hex } from "../../base/sha256.ts";
import type { StepContext, TurnHook } from "../../core/turn_hook.ts";
import { type CodeRun, Message } from "../../core/types/message.ts";
import { codeBridgeFailed, codeBridgeStored } from "../../journal/catalogue_engine.ts";
import type { Asset } from "../../platform/mod.ts";
import { sniffImage, uploadGenerated } from "../media/common.ts";
import type { PlatformContext } from "../shared/platform_context.ts";
import {
  CODE_FILE_MAX_BYTES,
  type CodeContainer,
  type ContainerFile,
  ContainerFileTooLargeError,
} from "./container.ts";

/** How the cells of one reply are joined into one source asset. */
export const CELL_SEPARATOR = "\n\n# --- next cell ---\n\n";

/** The opening of the injected turn that names the stored artifacts. */
export const ARTIFACTS_LEAD =
  "Your code execution produced artifacts, now stored as BaseCradle Assets on this timeline:";

/** The hook, for one wake: it bridges every reply that carries a code run. */
export function codeBridgeHook(code: CodeContainer, context: PlatformContext): TurnHook {
  let noted: Message | undefined;
  return {
    async afterStep(step: StepContext) {
      const run = step.reply.codeRun;
      if (!run) return;
      const lines = await bridge(code, context, run);
      if (!lines.length) return;
      step.append(Message.user(artifactsText(lines), { injected: true }));
      noted = step.reply;
    },
    beforeFinish(step: StepContext) {
      // The note is on the transcript: one more step lets the model use the uuids.
      if (noted !== step.reply) return false;
      noted = undefined;
      return true;
    },
  };
}

/** Stores the run's source and new output files; the note's lines (failures included). */
export async function bridge(
  code: CodeContainer,
  context: PlatformContext,
  run: CodeRun,
): Promise<string[]> {
  code.adopt(run.container);
  const lines: string[] = [];
  const source = await storeSource(code, context, run);
  if (source) lines.push(source);
  lines.push(...await storeOutputs(code, context, run));
  return lines;
}

async function storeSource(
  code: CodeContainer,
  context: PlatformContext,
  run: CodeRun,
): Promise<string | undefined> {
  const source = run.cells.filter((cell) => cell.trim() !== "").join(CELL_SEPARATOR);
  if (!source) return undefined;
  const digest = sha256Hex(source);
  if (code.bridgedSources.has(digest)) return undefined;
  const name = `code-execution-${code.sources + 1}.py`;
  const bytes = new TextEncoder().encode(source);
  const stored = await store(context, {
    kind: "source",
    name,
    bytes,
    contentType: "text/x-python",
    description: "Python source executed by the code interpreter.",
    keyName: `code-source:${digest}`,
  });
  if (typeof stored !== "string") {
    code.sources++;
    code.bridgedSources.add(digest);
  }
  return typeof stored === "string"
    ? stored
    : `${name} (${stored.content.uuid}) — the executed source`;
}

async function storeOutputs(
  code: CodeContainer,
  context: PlatformContext,
  run: CodeRun,
): Promise<string[]> {
  // The wake's container wins over the reply's: a replaced container is the live one.
  const container = code.container ?? run.container;
  if (!container) return [];
  let files: ContainerFile[];
  try {
    files = await code.outputs(container);
  } catch (error) {
    const reason = oneLine(error);
    codeBridgeFailed(context.journal, { stage: "list", reason });
    // The cited files are still known: bridge those rather than nothing.
    files = run.cited.map((file) => ({ id: file.fileId, filename: file.filename, bytes: -1 }));
    if (!files.length) return [`The run's files could not be listed: ${reason}`];
  }
  const lines: string[] = [];
  for (const file of files) {
    if (code.bridgedFiles.has(file.id)) continue;
    if (file.bytes > CODE_FILE_MAX_BYTES) {
      const reason = `${file.bytes} bytes is over the ${CODE_FILE_MAX_BYTES}-byte limit`;
      codeBridgeFailed(context.journal, { stage: "download", name: file.filename, reason });
      lines.push(`${file.filename} was not stored: ${reason}.`);
      continue;
    }
    let bytes: Uint8Array;
    try {
      bytes = await code.download(container, file.id);
    } catch (error) {
      const reason = oneLine(error);
      if (error instanceof ContainerFileTooLargeError) {
        // Marked bridged: a later harvest would only fetch the same cap's worth again.
        code.bridgedFiles.add(file.id);
        codeBridgeFailed(context.journal, { stage: "download", name: file.filename, reason });
        lines.push(`${file.filename} was not stored: ${reason}.`);
        continue;
      }
      // Not marked bridged: a later reply's harvest tries it again.
      codeBridgeFailed(context.journal, { stage: "download", name: file.filename, reason });
      lines.push(`${file.filename} could not be downloaded from the code sandbox: ${reason}`);
      continue;
    }
    const stored = await store(context, {
      kind: "file",
      name: file.filename,
      bytes,
      contentType: contentTypeOf(file.filename, bytes),
      description: "File produced by the code interpreter.",
      keyName: `code-file:${container}/${file.id}`,
    });
    if (typeof stored === "string") {
      lines.push(stored);
      continue;
    }
    code.bridgedFiles.add(file.id);
    lines.push(`${file.filename} (${stored.content.uuid})`);
  }
  return lines;
}

/** What {@link store} uploads. */
interface Artifact {
  readonly kind: "file" | "source";
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly contentType: string;
  readonly description: string;
  readonly keyName: string;
}

/** The keyed upload and its journal line; the asset, or the note line of a failure. */
async function store(context: PlatformContext, artifact: Artifact): Promise<Asset | string> {
  let stored: Asset | string;
  try {
    stored = await uploadGenerated(
      context,
      context.timeline,
      {
        bytes: artifact.bytes,
        filename: artifact.name,
        contentType: artifact.contentType,
        description: artifact.description,
      },
      undefined,
      artifact.keyName,
    );
  } catch (error) {
    stored = oneLine(error);
  }
  if (typeof stored === "string") {
    codeBridgeFailed(context.journal, { stage: "upload", name: artifact.name, reason: stored });
    return `${artifact.name} could not be stored as an asset: ${stored}`;
  }
  codeBridgeStored(context.journal, {
    kind: artifact.kind,
    name: artifact.name,
    asset: stored.content.uuid,
    bytes: artifact.bytes.length,
  });
  return stored;
}

/** The injected turn: the stored artifacts (and failures), and how to share them. */
export function artifactsText(lines: readonly string[]): string {
  return `${ARTIFACTS_LEAD} ${lines.join(", ")}.\n\n` +
    "To share a result, post it with the messages tool and name these assets by uuid; the " +
    "sandbox's /mnt/data paths are not reachable by anyone else.";
}

const TYPES: Readonly<Record<string, string>> = {
  csv: "text/csv",
  json: "application/json",
  md: "text/markdown",
  pdf: "application/pdf",
  py: "text/x-python",
  svg: "image/svg+xml",
  txt: "text/plain",
  html: "text/html",
  zip: "application/zip",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/** The content type the bytes' magic number, else the file's extension, says. */
export function contentTypeOf(filename: string, bytes: Uint8Array): string {
  const sniffed = sniffImage(bytes);
  if (sniffed) return sniffed.type;
  const ext = filename.includes(".") ? filename.split(".").at(-1)!.toLowerCase() : "";
  return TYPES[ext] ?? "application/octet-stream";
}

function oneLine(error: unknown): string {
  return errorMessage(error).replace(/\s+/g, " ").trim();
}
