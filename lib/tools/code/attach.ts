/**
 * `code_attach`: the code bridge's way in (docs/tools.md#code_execution-run-code-in-the-vendors-sandbox). It downloads a timeline
 * asset and uploads it into this wake's code container at `/mnt/data/<name>`, creating the
 * container when the wake has none yet — the next request then names it, so the model's next
 * code run can read the file. Every failure is a sentence the model can read.
 */
import * as z from "../../base/zod.ts";
import { errorMessage } from "../../base/error_text.ts";
import type { JsonSchema, ToolContext } from "../../core/types/tool.ts";
import { codeAttachStaged } from "../../journal/catalogue_engine.ts";
import { NotFoundError } from "../../platform/mod.ts";
import type { PlatformContext } from "../shared/platform_context.ts";
import { PlatformTool } from "../shared/platform_tool.ts";
import { baseName, CODE_FILE_MAX_BYTES, type CodeContainer } from "./container.ts";

const Args = z.object({ asset_uuid: z.string().trim().min(1) });

const PARAMETERS: JsonSchema = {
  type: "object",
  properties: {
    asset_uuid: {
      type: "string",
      description: "The uuid of the BaseCradle asset to put into the code sandbox.",
    },
  },
  required: ["asset_uuid"],
  additionalProperties: false,
};

/** Stages a timeline asset into the code container. */
export class CodeAttachTool extends PlatformTool<z.infer<typeof Args>> {
  /** The name the model calls it by. */
  readonly name = "code_attach";
  /** What it does, for the model. */
  readonly description: string =
    "Put a BaseCradle asset (by uuid) into your code-execution sandbox as an input file, so " +
    "your next code run can read it from /mnt/data/<filename>. Files your code writes come " +
    "back as assets by themselves; you never need this to export.";
  /** JSON Schema of the arguments. */
  override readonly parameters: JsonSchema = PARAMETERS;
  protected readonly schema = Args;
  readonly #code?: CodeContainer;

  /** `code` is the wake's code container; without one the tool says code execution is off. */
  constructor(code: CodeContainer | undefined, context?: PlatformContext) {
    super(context);
    this.#code = code;
  }

  protected async act(
    context: PlatformContext,
    args: z.infer<typeof Args>,
    call: ToolContext | undefined,
  ): Promise<string> {
    const uuid = args.asset_uuid;
    const code = this.#code;
    if (!code) {
      call?.reportOutcome?.("refused");
      return "Error: code execution is not active for this agent (it needs the code_execution " +
        "opt-in on OpenAI's responses surface), so there is no sandbox to attach a file to.";
    }
    let bytes: Uint8Array;
    let filename: string;
    try {
      const asset = await context.client.assets.get(uuid, { signal: call?.signal });
      const file = asset.content.file;
      if (!file) return `Error: asset ${uuid} has no file attached.`;
      if (file.byte_size > CODE_FILE_MAX_BYTES) {
        return `Error: asset ${uuid} is ${file.byte_size} bytes, over the ` +
          `${CODE_FILE_MAX_BYTES}-byte limit for the code sandbox.`;
      }
      filename = baseName(file.filename, `${uuid}.bin`);
      ({ bytes } = await context.client.assets.download(asset, {
        signal: call?.signal,
        maxBytes: CODE_FILE_MAX_BYTES,
      }));
    } catch (error) {
      if (error instanceof NotFoundError) {
        return `Error: no asset ${uuid} is visible to you; check the uuid.`;
      }
      return `Couldn't read asset ${uuid}: ${oneLine(error)}`;
    }
    let container: string;
    let path: string;
    try {
      container = await code.ensureContainer();
      try {
        path = await code.upload(container, bytes, filename);
      } catch (error) {
        if (!await code.isNotFound(error)) throw error;
        // The container expired between runs: a new one, and the next request names it.
        container = await code.replaceContainer();
        path = await code.upload(container, bytes, filename);
      }
    } catch (error) {
      return `Couldn't put asset ${uuid} into the code sandbox: ${oneLine(error)}`;
    }
    codeAttachStaged(context.journal, {
      asset: uuid,
      name: filename,
      container,
      bytes: bytes.length,
    });
    return `Attached asset ${uuid} to the code sandbox as ${path} (${bytes.length} bytes). ` +
      "Read it from that path in your next code run.";
  }
}

function oneLine(error: unknown): string {
  return errorMessage(error).replace(/\s+/g, " ").trim();
}
