/**
 * The media stems through the command line: `harness resolve` and `harness resolved-config`
 * list the media tools under `tools` when their provider is the one configured, and name why
 * not otherwise (docs/tools.md#media-tools).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/run_cli.ts";

async function json(args: string[], env: Record<string, string> = {}) {
  const result = await runCli(args, { env });
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

type Excluded = { stem: string; reason: string };

Deno.test("harness resolve: the OpenAI media stems resolve under openai, are excluded under xai", async () => {
  const openai = await json(["resolve", "--opt-in", "generate_image,edit_image,hear_audio"]);
  for (const tool of ["generate_image", "edit_image", "listen"]) {
    assert.ok(openai.tools.includes(tool), tool);
  }
  const xai = await json([
    "resolve",
    "--provider",
    "xai",
    "--opt-in",
    "generate_image,grok_generate_image,grok_edit_image,grok_generate_video",
  ]);
  for (const tool of ["grok_generate_image", "grok_edit_image", "grok_generate_video"]) {
    assert.ok(xai.tools.includes(tool), tool);
  }
  assert.ok(!xai.tools.includes("generate_image"));
  const excluded = (xai.excluded_stems as Excluded[]).find((e) => e.stem === "generate_image");
  assert.equal(excluded?.reason, "not relevant to the 'xai' provider");
});

Deno.test("harness resolved-config: an installed generate_image is listed under tools with a key", async () => {
  const dir = await Deno.makeTempDir({ prefix: "media-resolution-" });
  try {
    const env = {
      HOME: dir,
      BASECRADLE_CONFIG_HOME: `${dir}/config`,
      AI_PROVIDER: "openai",
      AI_SDK: "",
      AI_SDK_SURFACE: "",
      AI_MODEL: "",
      AI_API_KEY: "sk-resolution-test",
      HARNESS_PROFILE: "",
      HARNESS_MEMORY_PROVIDER: "",
      HARNESS_HOME: "",
    };
    const installed = await runCli(["install", "--opt-in", "generate_image"], { env });
    assert.equal(installed.code, 0, installed.stderr);
    const keyed = await json(["resolved-config"], env);
    assert.ok(keyed.tools.includes("generate_image"), JSON.stringify(keyed.tools));
    const keyless = await json(["resolved-config"], { ...env, AI_API_KEY: "" });
    assert.ok(!keyless.tools.includes("generate_image"));
    assert.deepEqual(keyless.skipped, ["generate_image"]);
    assert.ok(!JSON.stringify(keyed).includes("sk-resolution-test"));
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
