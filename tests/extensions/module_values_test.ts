/**
 * Behaviour of the values extensions import from pi's modules (issue 16, export conformance): the
 * cases of tests/fixtures/extensions/module_exports/value_cases.mjs run against what an extension
 * gets from `@earendil-works/pi-ai`, `/models`, `@earendil-works/pi-mcp`,
 * `@earendil-works/pi-agent-core` and `@earendil-works/pi-coding-agent` here must give the
 * results 1.6.0 gives under Node (reference_values.json, captured by capture_reference_values.mjs
 * in that folder; when the reference is installed the test re-captures and compares).
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ModuleNamespace, publishHostImport } from "../../src/extensions/host_modules.ts";
import { assertEquals } from "../support/assert.ts";
import { referenceCheckOutput } from "../support/reference_check.ts";
import { toBase64 } from "../../src/util/bytes.ts";
import { registerModeExtensionExports } from "../../src/modes/extension_exports_setup.ts";

// As the CLI does before loading extensions: the interactive mode's exports (formatReadLineRange …).
registerModeExtensionExports();

const FIXTURES = fileURLToPath(new URL("../fixtures/extensions/module_exports/", import.meta.url));
const EXPECTED_PATH = join(FIXTURES, "reference_values.json");
const CAPTURE = join(FIXTURES, "capture_reference_values.mjs");

type Cases = (
  modules: Record<"ai" | "models" | "mcp" | "agent" | "coding", ModuleNamespace>,
) => Promise<Record<string, unknown>>;

/** What an extension's `import * as m from name` gets. */
async function hostModule(name: string): Promise<ModuleNamespace> {
  const namespace = await publishHostImport({ name, names: "*" });
  if (!namespace) throw new Error(`${name}: no namespace`);
  return namespace;
}

async function ourResults(): Promise<Record<string, Record<string, unknown>>> {
  const { runCases } = await import(join(FIXTURES, "value_cases.mjs")) as { runCases: Cases };
  const results = await runCases({
    ai: await hostModule("@earendil-works/pi-ai"),
    models: await hostModule("@earendil-works/pi-ai/models"),
    mcp: await hostModule("@earendil-works/pi-mcp"),
    agent: await hostModule("@earendil-works/pi-agent-core"),
    coding: await hostModule("@earendil-works/pi-coding-agent"),
  });
  return JSON.parse(JSON.stringify(results));
}

const expected = JSON.parse(Deno.readTextFileSync(EXPECTED_PATH)) as Record<string, Record<string, unknown>>;
const ours = await ourResults();

for (const [module, cases] of Object.entries(expected)) {
  for (const [name, value] of Object.entries(cases)) {
    Deno.test(`EXT-MODULES ${module}: ${name} behaves as in 1.6.0`, () => {
      assertEquals(ours[module]?.[name], value);
    });
  }
}

Deno.test("EXT-MODULES pi-ai/models' ModelsError is the same class as pi-ai's", async () => {
  const ai = await hostModule("@earendil-works/pi-ai");
  const models = await hostModule("@earendil-works/pi-ai/models");
  assertEquals(models.ModelsError === ai.ModelsError, true);
  assertEquals(models.hasApi === ai.hasApi, true);
});

Deno.test("EXT-MODULES pi-ai's detailed User-Agent names pi's version, the platform, Deno and the architecture", async () => {
  const ai = await hostModule("@earendil-works/pi-ai");
  const formatUserAgent = ai.formatUserAgent as (identity?: { version?: string }) => string;
  const platform = Deno.build.os === "windows" ? "win32" : Deno.build.os;
  const arch = ({ x86_64: "x64", aarch64: "arm64" } as Record<string, string>)[Deno.build.arch];
  assertEquals(formatUserAgent(), `pi/1.6.0 (${platform}; deno/${Deno.version.deno}; ${arch})`);
  assertEquals(formatUserAgent({ version: "2.0.0" }).startsWith("pi/2.0.0 ("), true);
});

Deno.test("EXT-MODULES reference_values.json equals what the installed 1.6.0 gives", async () => {
  const live = await referenceCheckOutput(CAPTURE, "reference_values.json");
  if (live !== undefined) assertEquals(live, expected);
});

Deno.test("EXT-MODULES pi-coding-agent's getReadmePath/getDocsPath/getExamplesPath/getPackageDir name the documentation the system prompt names", async () => {
  const coding = await hostModule("@earendil-works/pi-coding-agent");
  const call = (name: string) => (coding[name] as () => string)();
  const { getDocumentationPaths } = await import("../../src/resources/documentation.ts");
  const paths = getDocumentationPaths();
  const root = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");
  assertEquals(
    [call("getReadmePath"), call("getDocsPath"), call("getExamplesPath"), call("getPackageDir")],
    [paths.readme, paths.docs, paths.examples, root],
  );
  // From this checkout they are its own files.
  assertEquals([paths.readme, paths.docs], [join(root, "README.md"), join(root, "docs")]);
  assertEquals(
    Deno.statSync(call("getReadmePath")).isFile && Deno.statSync(call("getDocsPath")).isDirectory,
    true,
  );
});

Deno.test("EXT-MODULES pi-coding-agent's convertToPng gives 1.6.0's PNG bytes (upright), passes a PNG through, null for bad data", async () => {
  const coding = await hostModule("@earendil-works/pi-coding-agent");
  const convertToPng = coding.convertToPng as (
    data: string,
    mimeType: string,
  ) => Promise<{ data: string; mimeType: string } | null>;
  const files = fileURLToPath(new URL("../fixtures/tools/read/files/", import.meta.url));
  const sha = async (text: string) =>
    [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))]
      .map((byte) => byte.toString(16).padStart(2, "0")).join("").slice(0, 16);
  const results: Record<string, string | null> = {};
  for (
    const [name, mimeType] of [["image.bmp", "image/bmp"], ["rotated_small.jpg", "image/jpeg"], [
      "image.jpg",
      "image/jpeg",
    ]]
  ) {
    const converted = await convertToPng(toBase64(Deno.readFileSync(join(files, name))), mimeType);
    results[name] = converted ? `${await sha(converted.data)} ${converted.mimeType}` : null;
  }
  // SHA-256 (first 16 hex digits) of the base64 PNG 1.6.0's convertToPng returns for the same files.
  assertEquals(results, {
    "image.bmp": "9bfbc15f6d0ddbea image/png",
    "rotated_small.jpg": "afab78b515ba6df0 image/png",
    "image.jpg": "c6010a9a38ed178f image/png",
  });
  assertEquals(await convertToPng("iVBORw0KGgo=", "image/png"), {
    data: "iVBORw0KGgo=",
    mimeType: "image/png",
  });
  assertEquals(await convertToPng("AAAA", "image/jpeg"), null);
});

Deno.test("EXT-MODULES pi-coding-agent's resizeImage takes 1.6.0's (bytes, mimeType, options) and gives its results", async () => {
  const coding = await hostModule("@earendil-works/pi-coding-agent");
  const resizeImage = coding.resizeImage as (
    bytes: Uint8Array,
    mimeType: string,
    options?: { maxWidth?: number; maxHeight?: number },
  ) => Promise<Record<string, unknown> | null>;
  const files = fileURLToPath(new URL("../fixtures/tools/read/files/", import.meta.url));
  const summary = async (name: string) => {
    const result = await resizeImage(Deno.readFileSync(join(files, name)), "image/jpeg", {
      maxWidth: 10,
      maxHeight: 10,
    });
    return result && { ...result, data: (result.data as string).length };
  };
  // What 1.6.0's resizeImage returns for the same calls (base64 data as its length).
  assertEquals(await summary("image.jpg"), {
    data: 852,
    mimeType: "image/jpeg",
    originalWidth: 4,
    originalHeight: 3,
    width: 4,
    height: 3,
    wasResized: false,
  });
  assertEquals(await summary("rotated_small.jpg"), {
    data: 340,
    mimeType: "image/png",
    originalWidth: 20,
    originalHeight: 30,
    width: 7,
    height: 10,
    wasResized: true,
  });
});
