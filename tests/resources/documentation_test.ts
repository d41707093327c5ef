/**
 * Every path the system prompt names (README, docs, examples and each topic file) exists: in a
 * source checkout, and in the copy a bundle or compiled binary writes into the agent dir.
 */
import { assertEquals } from "../support/assert.ts";
import { dirname, join } from "node:path";
import { existsSync } from "node:fs";
import { getDocumentationPaths, materializeDocumentation } from "../../src/resources/documentation.ts";
import { buildSystemPrompt, DOCUMENTATION_TOPICS } from "../../src/resources/system_prompt.ts";
import { DOCUMENTATION_FILES } from "../../src/resources/documentation_bundle.ts";
import { DOCUMENTATION_HASH } from "../../src/resources/documentation_hash.ts";
import { collectDocumentationFiles, contentHash } from "../../scripts/gen_docs.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";

/** The paths the prompt's docs section names, as absolute paths. */
function namedPaths(prompt: string): string[] {
  const value = (label: string) => prompt.match(new RegExp(`^- ${label}: (\\S+)`, "m"))?.[1] ?? "";
  const readme = value("Main documentation");
  const docs = value("Additional docs");
  const examples = value("Examples");
  const root = dirname(docs);
  return [readme, docs, examples, ...DOCUMENTATION_TOPICS.map((t) => join(root, t))];
}

Deno.test("SYS-DOCS the prompt names exactly the topic files DOCUMENTATION_TOPICS lists", () => {
  const prompt = buildSystemPrompt({ cwd: "/p", documentation: getDocumentationPaths() });
  const listed = [...prompt.matchAll(/\((docs\/[a-z-]+\.md)(?:, (examples\/[a-z]+)\/)?\)/g)]
    .flatMap((m) => m.slice(1).filter(Boolean));
  assertEquals(listed, [...DOCUMENTATION_TOPICS]);
});

Deno.test("SYS-DOCS from a source checkout every named path exists in the repository", () => {
  const paths = namedPaths(buildSystemPrompt({ cwd: "/p", documentation: getDocumentationPaths() }));
  const root = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
  assertEquals(paths[0], join(root, "README.md"));
  for (const path of paths) assertEquals(existsSync(path), true, `missing: ${path}`);
});

Deno.test("SYS-DOCS the bundled copy is consistent and holds every named file", async () => {
  assertEquals(DOCUMENTATION_HASH, await contentHash(DOCUMENTATION_FILES));
  const names = Object.keys(DOCUMENTATION_FILES);
  for (const topic of ["README.md", ...DOCUMENTATION_TOPICS]) {
    assertEquals(names.some((n) => n === topic || n.startsWith(`${topic}/`)), true, `not bundled: ${topic}`);
  }
});

Deno.test("SYS-DOCS the committed bundle equals one generated now from README.md, docs/ and examples/", async () => {
  const fresh = collectDocumentationFiles();
  const hint = "the docs bundle is stale: run deno run -A scripts/gen_docs.ts";
  const names = (files: Record<string, string>) => Object.keys(files).sort();
  assertEquals(names(DOCUMENTATION_FILES), names(fresh), hint);
  for (const [path, text] of Object.entries(fresh)) {
    assertEquals(DOCUMENTATION_FILES[path], text, `${hint} (${path})`);
  }
  assertEquals(DOCUMENTATION_HASH, await contentHash(fresh), hint);
});

Deno.test("SYS-DOCS without a source tree the docs are written once into the agent dir", async () => {
  const agentDir = await Deno.makeTempDir({ prefix: "pi-docs-" });
  try {
    const root = await materializeDocumentation(agentDir);
    assertEquals(root, join(agentDir, "pi-docs", DOCUMENTATION_HASH));
    for (const [path, text] of Object.entries(DOCUMENTATION_FILES)) {
      assertEquals(await Deno.readTextFile(join(root, path)), text, path);
    }
    const paths = {
      readme: join(root, "README.md"),
      docs: join(root, "docs"),
      examples: join(root, "examples"),
    };
    for (const path of namedPaths(buildSystemPrompt({ cwd: "/p", documentation: paths }))) {
      assertEquals(existsSync(path), true, `missing: ${path}`);
    }
  } finally {
    await Deno.remove(agentDir, { recursive: true });
  }
});

Deno.test("SYS-DOCS e2e: a bundle run far from the repository names docs that exist", async () => {
  const outDir = await Deno.makeTempDir({ prefix: "pi-bundle-docs-" });
  const server = await startFakeProvider([{ content: [{ type: "text", text: "ok" }] }]);
  const env = await createAgentEnv(server.url);
  try {
    const out = join(outDir, "pi.js");
    const main = new URL("../../main.ts", import.meta.url).pathname;
    const build = await new Deno.Command(Deno.execPath(), {
      args: ["bundle", "--output", out, main],
      cwd: dirname(main),
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(build.code, 0, new TextDecoder().decode(build.stderr));
    const run = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-config",
        "--allow-all",
        "--no-prompt",
        out,
        "--model",
        "fake-anthropic/test-model",
        "-p",
        "hi",
      ],
      cwd: env.cwd,
      env: env.env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(run.code, 0, new TextDecoder().decode(run.stderr));
    const body = server.requests[0].body as { system?: { text: string }[] | string };
    const prompt = typeof body.system === "string"
      ? body.system
      : (body.system ?? []).map((b) => b.text).join("");
    const paths = namedPaths(prompt);
    assertEquals(paths[0], join(env.agentDir, "pi-docs", DOCUMENTATION_HASH, "README.md"));
    for (const path of paths) assertEquals(existsSync(path), true, `missing: ${path}`);
  } finally {
    await server.close();
    await env.cleanup();
    await Deno.remove(outDir, { recursive: true });
  }
});
