/**
 * DIST-01 everything pi needs at run time is inside it. The closest thing to the compiled binary
 * this machine can build is `deno task bundle`'s one file: it is copied alone into an empty folder
 * (no node_modules, no deno.json, no source tree) and run with `--no-config`, the `pi` task's flags,
 * a fresh DENO_DIR and every registry and proxy pointing at a closed port — so a module left
 * outside the bundle, or a file read from the source tree, fails loudly here. It must:
 *
 * - print its version and run a `-p` turn against the fake provider;
 * - list the built-in model catalog (`--list-models`);
 * - name documentation in the system prompt that exists: the embedded docs, extracted under the
 *   agent dir (the test reads the files the prompt names);
 * - parse a skill's YAML front matter and match a `--models` glob (lazily loaded yaml, picomatch);
 * - resize a large PNG with photon's embedded WebAssembly, and show an edit's diff (lazy `diff`);
 * - load an extension from a file next to it, importing pi's modules, typebox and pi-tui (marked);
 * - call an MCP server's tool directly and from a codemode script (the MCP SDK; a confined Worker);
 * - export a session to HTML (the embedded template, byte for byte what the source checkout writes)
 *   and in a theme's colours (RPC `export_html` with the `light` theme);
 * - download nothing: the fresh DENO_DIR holds no npm package afterwards.
 *
 * What only the compiled form can show (run by the release workflow, not here): that `deno compile`
 * embeds the same modules, and the binary's own start-up (no `deno` on PATH).
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { createAgentEnv, denoDir, machineEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { spawnPi } from "../support/spawn_pi.ts";
import { readImageSize } from "../../src/tools/image_dimensions.ts";
import { fromBase64 } from "../../src/util/bytes.ts";
import { VERSION } from "../../src/version.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const FIXTURES = `${ROOT}tests/fixtures/`;
const MCP_TEST_SERVER = `${FIXTURES}mcp/test_server.ts`;
const decoder = new TextDecoder();

/** `deno task bundle`'s command with its output moved to `out` (one source for the build). */
function bundleArgs(out: string): string[] {
  const config = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`));
  const words = String(config.tasks.bundle).split(/\s+/);
  assertEquals(words.slice(0, 2), ["deno", "bundle"], "the bundle task runs deno bundle");
  const at = words.indexOf("--output");
  assert(at > 0, "the bundle task names its --output");
  words[at + 1] = out;
  return words.slice(1);
}

/** The `pi` task's `deno run` flags (everything between `run` and `main.ts`). */
function piTaskFlags(): string[] {
  const config = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`));
  const words = String(config.tasks.pi).split(/\s+/);
  assertEquals(words.slice(0, 2), ["deno", "run"], "the pi task runs deno run");
  assertEquals(words.at(-1), "main.ts", "the pi task ends with main.ts");
  return words.slice(2, -1);
}

/** A port nothing listens on: a registry or proxy there refuses every connection at once. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** The result of one run of the bundle. */
interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the bundle copy `bundle` with the pi task's flags and `--no-config`, nothing inherited. */
async function runBundle(
  bundle: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; stdin?: string },
): Promise<Run> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-config", ...piTaskFlags(), bundle, ...args],
    cwd: options.cwd,
    env: options.env,
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  // Generous: the first run with a fresh DENO_DIR analyses the 7 MB file (8 s here, more under a
  // full parallel suite on two cores).
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* already ended */ }
  }, 120_000);
  try {
    const out = await child.output();
    return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
  } finally {
    clearTimeout(timer);
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const body = new Uint8Array([...new TextEncoder().encode(type), ...data]);
  let crc = 0xffffffff;
  for (const b of body) crc = crcTable[(crc ^ b) & 255] ^ (crc >>> 8);
  const out = new Uint8Array(body.length + 8);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(body, 4);
  view.setUint32(body.length + 4, (crc ^ 0xffffffff) >>> 0);
  return out;
}

/** A grayscale PNG of `width`×`height` with a gradient (zlib via CompressionStream). */
async function grayPng(width: number, height: number): Promise<Uint8Array> {
  const raw = new Uint8Array((width + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw[y * (width + 1) + 1 + x] = (x * 7 + y * 13) & 255;
  }
  const deflated = new Uint8Array(
    await new Response(new Blob([raw]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer(),
  );
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflated),
    pngChunk("IEND", new Uint8Array()),
  ];
  return new Uint8Array(parts.flatMap((p) => [...p]));
}

/** An extension next to the bundle: pi's modules, typebox and pi-tui (which loads marked). */
const EXTENSION = `
import { Type } from "typebox";
import { StringEnum } from "@earendil-works/pi-ai";
import { defineTool, type ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Markdown } from "@earendil-works/pi-tui";

const shout = defineTool({
  name: "shout",
  label: "Shout",
  description: "Shouts a word",
  parameters: Type.Object({ word: Type.String(), tone: StringEnum(["loud", "quiet"]) }),
  async execute(_id, params) {
    const text = params.word.toUpperCase() + " (" + params.tone + ", markdown: " + typeof Markdown + ")";
    return { content: [{ type: "text", text }], details: {} };
  },
});

export default function (pi: ExtensionAPI) {
  pi.registerTool(shout);
}
`;

/** A skill in the agent dir: its YAML front matter names it in the system prompt. */
const SKILL = `---
name: bundle-check
description: "Checks bundles: a description quoted in YAML"
---
Run the checks.
`;

function jsonLines(text: string): Record<string, unknown>[] {
  return text.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
}

function toolResults(stdout: string): Record<string, unknown>[] {
  return jsonLines(stdout).filter((e) => e.type === "tool_execution_end");
}

/**
 * Every `import()` in src/ whose module is not a literal (the bundler cannot see those), as
 * `file: argument`; an import written inside a template string (a Worker's boot script) is
 * left to that script's own test.
 */
function computedImports(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) walk(path);
      else if (entry.name.endsWith(".ts")) {
        for (const line of Deno.readTextFileSync(path).split("\n")) {
          const trimmed = line.trim();
          if (trimmed.startsWith("*") || trimmed.startsWith("//")) continue;
          for (const m of line.matchAll(/\bimport\(\s*([^"'`)\s][^)]*)\)/g)) {
            if (line.slice(0, m.index).includes("`")) continue;
            out.push(`${path.slice(ROOT.length)}: ${m[1]}`);
          }
        }
      }
    }
  };
  walk(`${ROOT}src`);
  return out.sort();
}

/**
 * An `mcpServers` entry for the fixture MCP server (tests/fixtures/mcp/test_server.ts). It is test
 * equipment, not pi: it runs from the source tree with this machine's Deno cache and registry, so
 * `env` unsets the variables that cut the bundle off before starting it.
 */
function mcpFixtureServer(): { command: string; args: string[] } {
  const cutOff = ["NPM_CONFIG_REGISTRY", "DENO_NPM_REGISTRY", "JSR_URL", "HTTP_PROXY", "HTTPS_PROXY"];
  const restore = cutOff.flatMap((name) => {
    const value = Deno.env.get(name);
    return value ? [`${name}=${value}`] : [];
  });
  return {
    command: "env",
    args: [
      ...cutOff.flatMap((name) => ["-u", name]),
      ...restore,
      ...Object.entries(machineEnv()).map(([name, value]) => `${name}=${value}`),
      `DENO_DIR=${denoDir()}`,
      Deno.execPath(),
      ...["run", "-A", "--no-config", "--quiet", MCP_TEST_SERVER],
    ],
  };
}

function rootBlock(html: string): string {
  const match = /\n( *):root \{\n[\s\S]*?\n\1\}/.exec(html);
  if (!match) throw new Error("no :root block in the page");
  return match[0].slice(1);
}

Deno.test("DIST-01 every import() in src names its module literally (so the bundle holds it), but an extension's own", () => {
  // An extension is the user's file, built into <agent dir>/cache/extensions and imported from
  // there by file URL (`…entryUrl`, in the loader and in an extension's Worker): the only module
  // meant to come from outside pi.
  const computed = computedImports();
  assertEquals(computed.filter((c) => !/\.entryUrl$/.test(c)), []);
  assert(computed.includes("src/extensions/loader.ts: built.entryUrl"), computed.join("\n"));
});

Deno.test("DIST-01 the bundle copied alone, run with --no-config, a fresh DENO_DIR and no registry, does everything pi needs at run time", async (t) => {
  const work = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-bundle-alone-" }));
  const binDir = join(work, "bin");
  const freshDenoDir = join(work, "deno-dir");
  await Deno.mkdir(binDir);
  await Deno.mkdir(freshDenoDir);
  const server = await startFakeProvider();
  const env = await createAgentEnv(server.url, { tempBase: work });
  const closed = `http://127.0.0.1:${closedPort()}/`;
  const isolated: Record<string, string> = {
    ...env.env,
    ...machineEnv(),
    DENO_DIR: freshDenoDir,
    NPM_CONFIG_REGISTRY: closed,
    DENO_NPM_REGISTRY: closed,
    JSR_URL: closed,
    HTTP_PROXY: closed,
    HTTPS_PROXY: closed,
    NO_PROXY: "127.0.0.1,localhost",
  };
  const bundle = join(binDir, "pi.js");
  try {
    await t.step("the bundle builds with the bundle task's command", async () => {
      const built = join(work, "build", "pi.js");
      const out = await new Deno.Command(Deno.execPath(), {
        args: bundleArgs(built),
        cwd: ROOT,
        env: {
          ...machineEnv(),
          DENO_DIR: denoDir(),
          PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
          NO_COLOR: "1",
        },
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
      assertEquals(out.code, 0, decoder.decode(out.stderr));
      await Deno.copyFile(built, bundle);
      assertEquals([...Deno.readDirSync(binDir)].map((e) => e.name), ["pi.js"]);
    });

    await t.step("nothing outside it: no npm:, jsr: or remote module is left to fetch", async () => {
      const text = await Deno.readTextFile(bundle);
      const external = [
        ...text.matchAll(/(?:\bfrom|\bimport\s*\(?)\s*["'`]((?:npm|jsr|https?):[^"'`]*)["'`]/g),
      ]
        .map((m) => m[1]);
      assertEquals(external, []);
    });

    await t.step("--version", async () => {
      const r = await runBundle(bundle, ["--version"], { cwd: env.cwd, env: isolated });
      assertEquals(r.code, 0, r.stderr);
      assertEquals(r.stdout.split("\n")[0].startsWith(VERSION), true, r.stdout);
    });

    await t.step("--list-models shows the built-in catalog", async () => {
      const r = await runBundle(bundle, ["--list-models", "anthropic"], {
        cwd: env.cwd,
        env: { ...isolated, ANTHROPIC_API_KEY: "sk-ant-test" },
      });
      assertEquals(r.code, 0, r.stderr);
      const catalog = JSON.parse(await Deno.readTextFile(`${ROOT}src/ai/models/anthropic.json`));
      const listed = r.stdout.split("\n").slice(1).filter((l) => l.startsWith("anthropic "))
        .map((l) => l.split(/\s+/)[1]).sort();
      assertEquals(listed, Object.keys(catalog).sort());
    });

    await t.step(
      "a -p turn; the prompt's documentation exists; a skill's YAML; a --models glob",
      async () => {
        await Deno.mkdir(join(env.agentDir, "skills", "bundle-check"), { recursive: true });
        await Deno.writeTextFile(join(env.agentDir, "skills", "bundle-check", "SKILL.md"), SKILL);
        server.push({ content: [{ type: "text", text: "bundled hello" }] });
        const r = await runBundle(
          bundle,
          [
            "--provider",
            "fake-anthropic",
            "--model",
            "test-model",
            "--models",
            "fake-anth*",
            "-p",
            "hi there",
          ],
          { cwd: env.cwd, env: isolated },
        );
        assertEquals([r.code, r.stdout], [0, "bundled hello\n"], r.stderr);
        const body = server.requests.at(-1)!.body as { system: { text: string }[] };
        const system = body.system.map((b) => b.text).join("\n");
        assertStringIncludes(system, "<name>bundle-check</name>");
        assertStringIncludes(
          system,
          "<description>Checks bundles: a description quoted in YAML</description>",
        );
        const readme = /- Main documentation: (\S+)/.exec(system)?.[1];
        const docs = /- Additional docs: (\S+)/.exec(system)?.[1];
        const examples = /- Examples: (\S+)/.exec(system)?.[1];
        assert(readme && docs && examples, system);
        assert(readme.startsWith(join(env.agentDir, "pi-docs")), `extracted under the agent dir: ${readme}`);
        assertEquals(await Deno.readTextFile(readme), await Deno.readTextFile(`${ROOT}README.md`));
        for (const doc of ["extensions.md", "skills.md", "themes.md"]) {
          assertEquals(
            await Deno.readTextFile(join(docs, doc)),
            await Deno.readTextFile(`${ROOT}docs/${doc}`),
          );
        }
        assertEquals(
          await Deno.readTextFile(join(examples, "README.md")),
          await Deno.readTextFile(`${ROOT}examples/README.md`),
        );
      },
    );

    await t.step("photon's embedded WebAssembly resizes a large PNG; the edit tool's diff", async () => {
      await Deno.writeFile(join(env.cwd, "wide.png"), await grayPng(2400, 60));
      await Deno.writeTextFile(join(env.cwd, "notes.txt"), "alpha\nbeta\ngamma\n");
      server.push(
        { content: [{ type: "toolCall", id: "call_read", name: "read", arguments: { path: "wide.png" } }] },
        {
          content: [{
            type: "toolCall",
            id: "call_edit",
            name: "edit",
            arguments: { path: "notes.txt", edits: [{ oldText: "beta", newText: "BETA" }] },
          }],
        },
        { content: [{ type: "text", text: "done" }] },
      );
      const before = server.requests.length;
      const r = await runBundle(
        bundle,
        ["--mode", "json", "--provider", "fake-anthropic", "--model", "test-model", "-p", "look and edit"],
        { cwd: env.cwd, env: isolated },
      );
      assertEquals(r.code, 0, r.stderr);
      const [read, edit] = toolResults(r.stdout) as {
        isError: boolean;
        result: {
          content: { type: string; text?: string; data?: string; mimeType?: string }[];
          details?: { diff?: string };
        };
      }[];
      assertEquals(read.isError, false, JSON.stringify(read));
      assertEquals(read.result.content.map((c) => c.type), ["text", "image"]);
      assertStringIncludes(
        read.result.content[0].text!,
        "[Image: original 2400x60, displayed at 2000x50. Multiply coordinates by 1.20 to map to original image.]",
      );
      // The provider received the resized image (photon chose the smaller encoding), 2000×50.
      const image = read.result.content[1] as { data: string; mimeType: string };
      assertEquals(readImageSize(fromBase64(image.data), image.mimeType), { width: 2000, height: 50 });
      assertStringIncludes(JSON.stringify(server.requests[before + 1].body), image.data);
      assertEquals(edit.isError, false, JSON.stringify(edit));
      assertStringIncludes(edit.result.details?.diff ?? "", "-2 beta");
      assertStringIncludes(edit.result.details?.diff ?? "", "+2 BETA");
      assertEquals(await Deno.readTextFile(join(env.cwd, "notes.txt")), "alpha\nBETA\ngamma\n");
    });

    await t.step(
      "an extension in a file next to the bundle (-e ./ext.ts) with pi's modules, typebox and pi-tui",
      async () => {
        await Deno.writeTextFile(join(binDir, "ext.ts"), EXTENSION);
        server.push(
          {
            content: [{
              type: "toolCall",
              id: "call_shout",
              name: "shout",
              arguments: { word: "bundle", tone: "loud" },
            }],
          },
          { content: [{ type: "text", text: "shouted" }] },
        );
        const r = await runBundle(
          bundle,
          ["--mode", "json", "--provider", "fake-openai", "--model", "test-model", "-e", "./ext.ts", "shout"],
          { cwd: binDir, env: isolated },
        );
        assertEquals(r.code, 0, r.stderr);
        const results = toolResults(r.stdout).map((e) => (e.result as { content: unknown }).content);
        assertEquals(results, [[{ type: "text", text: "BUNDLE (loud, markdown: function)" }]]);
      },
    );

    await t.step(
      "MCP: a server's tool called directly, and from a codemode script (a confined Worker)",
      async () => {
        await Deno.writeTextFile(
          join(env.agentDir, "mcp.json"),
          JSON.stringify({
            mcpServers: { fx: { ...mcpFixtureServer(), exposure: "direct" }, cm: mcpFixtureServer() },
          }),
        );
        const code = 'const r = await tools.mcp__cm__echo({ text: "scripted" });\nreturn r.content[0].text;';
        server.push(
          { content: [{ type: "toolCall", id: "c1", name: "mcp__fx__echo", arguments: { text: "direct" } }] },
          { content: [{ type: "toolCall", id: "c2", name: "codemode", arguments: { code } }] },
          { content: [{ type: "text", text: "done" }] },
        );
        const r = await runBundle(
          bundle,
          ["--mode", "json", "--provider", "fake-anthropic", "--model", "test-model", "-p", "use mcp"],
          { cwd: env.cwd, env: isolated },
        );
        await Deno.remove(join(env.agentDir, "mcp.json"));
        assertEquals(r.code, 0, r.stderr);
        const [direct, scripted] = toolResults(r.stdout) as {
          toolName: string;
          isError: boolean;
          result: { content: { type: string; text: string }[] };
        }[];
        assertEquals([direct.toolName, direct.isError, direct.result.content], [
          "mcp__fx__echo",
          false,
          [{ type: "text", text: "echo: direct" }],
        ]);
        // The script's wall time varies: only its line's start is fixed.
        const [summary, value] = scripted.result.content;
        assertEquals([scripted.toolName, scripted.isError, value], [
          "codemode",
          false,
          { type: "text", text: "echo: scripted" },
        ]);
        assertEquals(
          summary.text.replace(/Wall time [\d.]+ seconds/, "Wall time <t> seconds"),
          "Script completed\nWall time <t> seconds\nOutput:\n",
        );
      },
    );

    await t.step(
      "--export writes the embedded template's page, as the source checkout does; RPC export_html in the light theme",
      async () => {
        const session = join(work, "rich.jsonl");
        await Deno.writeTextFile(
          session,
          (await Deno.readTextFile(`${FIXTURES}export/rich.jsonl`)).split("/home/user/project").join(env.cwd),
        );
        const fromBundle = await runBundle(bundle, ["--export", session, join(work, "bundle.html")], {
          cwd: env.cwd,
          env: isolated,
        });
        assertEquals(fromBundle.code, 0, fromBundle.stderr);
        const fromSource = await spawnPi(["--export", session, join(work, "source.html")], {
          cwd: env.cwd,
          env: env.env,
        });
        assertEquals(fromSource.code, 0, fromSource.stderr);
        const page = await Deno.readTextFile(join(work, "bundle.html"));
        assertEquals(page === await Deno.readTextFile(join(work, "source.html")), true, "the same page");
        assertStringIncludes(page, '<script id="session-data" type="application/json">');
        assertEquals(page.match(/<script[^>]*\ssrc=|<link\s/gi), null, "self-contained");

        await Deno.writeTextFile(join(env.agentDir, "settings.json"), JSON.stringify({ theme: "light" }));
        const stdin = JSON.stringify({ id: "x", type: "export_html", outputPath: join(work, "light.html") }) +
          "\n";
        const rpc = await runBundle(bundle, ["--mode", "rpc", "--session", session], {
          cwd: env.cwd,
          env: isolated,
          stdin,
        });
        const response = jsonLines(rpc.stdout).find((l) => l.id === "x");
        assertEquals(
          [response?.success, response?.data],
          [true, { path: join(work, "light.html") }],
          rpc.stderr,
        );
        const expected = JSON.parse(await Deno.readTextFile(`${FIXTURES}export/themes/themes.expected.json`));
        assertEquals(rootBlock(await Deno.readTextFile(join(work, "light.html"))), expected["rpc:light"]);
      },
    );

    await t.step("nothing was downloaded: the fresh DENO_DIR holds no npm package", async () => {
      const npm: string[] = [];
      try {
        for await (const entry of Deno.readDir(join(freshDenoDir, "npm"))) npm.push(entry.name);
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
      assertEquals(npm, []);
    });
  } finally {
    await server.close();
    await env.cleanup();
    await Deno.remove(work, { recursive: true });
  }
});
