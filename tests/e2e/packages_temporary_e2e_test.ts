/**
 * PKG-10: `-e npm:…` and `-e git:…` one-off packages, and `builtin:` extensions, against pi 1.6.0.
 * Each program runs in its own agent dir against one local npm registry and one bare git repo; the
 * tools both send, their warnings, the temporary cache they leave and the settings (untouched) must
 * be the same.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { type AgentEnv, createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { requireReferenceCli, spawnPi } from "../support/spawn_pi.ts";
import { createFixtureGitRepo, gitConfigFor, readOrNull, startFixtureRegistry } from "./packages_fixture.ts";
import { runMcp, stdioServer } from "./mcp_harness.ts";

type Json = Record<string, unknown>;

/** An extension that registers one tool named `name`. */
function toolExtension(name: string): string {
  return `export default function (pi) {
  pi.registerTool({
    name: ${JSON.stringify(name)},
    label: ${JSON.stringify(name)},
    description: "Registered by a one-off package",
    parameters: { type: "object", properties: {} },
    execute: async () => ({ content: [{ type: "text", text: "ok" }], details: {} }),
  });
}
`;
}

/** Tool names of an OpenAI Chat Completions request, in the order sent, without the built-in four. */
function extraToolsOf(body: unknown): string[] {
  return (((body as Json).tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name)
    .filter((name) => !["read", "bash", "edit", "write"].includes(name));
}

/** Files and folders under `dir`, relative, sorted; `.git` and packages' insides left out. */
async function tree(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const entry of Deno.readDir(join(dir, prefix))) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      out.push(rel);
      const skip = entry.name === ".git" || prefix.endsWith("node_modules");
      if (entry.isDirectory && !skip) out.push(...await tree(dir, rel));
    }
  } catch {
    return ["<missing>"];
  }
  return out.sort();
}

Deno.test("PKG-10 -e npm:/git: one-off packages install into pi 1.6.0's temporary cache, load, are reused offline, refresh, and report a failed install as 1.6.0 does", async () => {
  requireReferenceCli();
  const server = await startFakeProvider([]);
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-pkgtmp-" }));
  const registry = startFixtureRegistry(join(base, "registry"));
  const envs: AgentEnv[] = [];
  try {
    await registry.publish("pi-ext-one", "1.0.0", { "extensions/one.ts": toolExtension("npm_tool_v1") });
    const repo = await createFixtureGitRepo(base, "alice", "exts");
    await repo.commit({ "extensions/g.ts": toolExtension("git_tool_v1") });
    for (let i = 0; i < 2; i++) {
      const env = await createAgentEnv(server.url);
      await Deno.writeTextFile(join(env.home, ".gitconfig"), gitConfigFor(base));
      env.env.NPM_CONFIG_REGISTRY = registry.url;
      env.env.NPM_CONFIG_UPDATE_NOTIFIER = "false";
      env.env.PI_SKIP_VERSION_CHECK = "1";
      envs.push(env);
    }
    const both = async (args: string[], extraEnv: Record<string, string> = {}) => {
      const out: { code: number; tools: string[]; warnings: string[] }[] = [];
      for (const [i, reference] of [false, true].entries()) {
        const env = envs[i];
        server.push({ content: [{ type: "text", text: "ok" }] });
        const before = server.requests.length;
        const run = await spawnPi(
          ["--provider", "fake-openai", "--model", "test-model", ...args, "-p", "hi"],
          {
            env: { ...env.env, ...extraEnv },
            cwd: env.cwd,
            reference,
            timeoutMs: 120_000,
          },
        );
        out.push({
          code: run.code,
          tools: server.requests.length > before
            ? extraToolsOf(server.requests[before].body)
            : ["<no request>"],
          warnings: run.stderr.replaceAll(env.root, "<root>").split("\n").filter((line) =>
            /^(Warning|Error)/.test(line)
          ),
        });
      }
      assertEquals(out[0], out[1]);
      return out[0];
    };
    const npmGit = ["-e", "npm:pi-ext-one", "-e", "git:example.test/alice/exts"];

    // First run: both installed into the temporary cache, loaded in -e order.
    assertEquals(await both(npmGit), { code: 0, tools: ["npm_tool_v1", "git_tool_v1"], warnings: [] });
    const layouts = await Promise.all(envs.map((env) => tree(join(env.agentDir, "tmp", "extensions"))));
    assertEquals(layouts[0], layouts[1]);
    assert(
      layouts[0].some((p) => /^npm\/[0-9a-f]{8}\/node_modules\/pi-ext-one$/.test(p)),
      layouts[0].join("\n"),
    );
    assert(
      layouts[0].some((p) => /^git-example\.test\/[0-9a-f]{8}\/alice\/exts\/extensions\/g\.ts$/.test(p)),
      layouts[0].join("\n"),
    );
    // Nothing is written to the settings.
    for (const env of envs) assertEquals(await readOrNull(join(env.agentDir, "settings.json")), null);

    // Offline: the cache is reused as it is; a package that is not cached is skipped without a word.
    assertEquals(await both([...npmGit, "-e", "npm:pi-ext-never"], { PI_OFFLINE: "1" }), {
      code: 0,
      tools: ["npm_tool_v1", "git_tool_v1"],
      warnings: [],
    });

    // Online again with newer versions upstream: unpinned one-off packages are refreshed on load.
    await registry.publish("pi-ext-one", "1.1.0", { "extensions/one.ts": toolExtension("npm_tool_v2") });
    await repo.commit({ "extensions/g.ts": toolExtension("git_tool_v2") });
    assertEquals(await both(npmGit), { code: 0, tools: ["npm_tool_v2", "git_tool_v2"], warnings: [] });

    // A pinned version is installed as asked.
    assertEquals(await both(["-e", "npm:pi-ext-one@1.0.0"]), {
      code: 0,
      tools: ["npm_tool_v1"],
      warnings: [],
    });

    // A failing install is a warning; the run goes on without it.
    const failed = await both(["-e", "npm:does-not-exist"]);
    assertEquals(failed.code, 0);
    assertEquals(failed.tools, []);
    assertEquals(failed.warnings.length, 1);
    assert(
      failed.warnings[0].startsWith(
        'Warning: Extension package "npm:does-not-exist": failed to install (npm install',
      ),
      failed.warnings[0],
    );
    assert(failed.warnings[0].endsWith("). Check the source and try again."), failed.warnings[0]);
  } finally {
    await server.close();
    await registry.close();
    for (const env of envs) await env.cleanup();
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("PKG-10 an -e npm: one-off package's skills and prompt templates load too (also with --no-skills / --no-prompt-templates), as in pi 1.6.0", async () => {
  requireReferenceCli();
  const server = await startFakeProvider([]);
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-pkgtmp-" }));
  const registry = startFixtureRegistry(join(base, "registry"));
  const envs: AgentEnv[] = [];
  try {
    await registry.publish("pi-res-pack", "1.0.0", {
      "skills/audit/SKILL.md": "---\nname: audit\ndescription: Audits dependencies\n---\nAudit.\n",
      "prompts/hello.md": "---\ndescription: Says hello\n---\nSay hello to $1 from the one-off package.\n",
    });
    for (let i = 0; i < 2; i++) {
      const env = await createAgentEnv(server.url);
      env.env.NPM_CONFIG_REGISTRY = registry.url;
      env.env.NPM_CONFIG_UPDATE_NOTIFIER = "false";
      env.env.PI_SKIP_VERSION_CHECK = "1";
      envs.push(env);
    }
    const both = async (args: string[]) => {
      const out: { code: number; skill: boolean; user: string }[] = [];
      for (const [i, reference] of [false, true].entries()) {
        const env = envs[i];
        server.push({ content: [{ type: "text", text: "ok" }] });
        const before = server.requests.length;
        const run = await spawnPi(
          ["--provider", "fake-openai", "--model", "test-model", "-e", "npm:pi-res-pack", ...args],
          { env: env.env, cwd: env.cwd, reference, timeoutMs: 120_000 },
        );
        const messages = (server.requests[before]?.body as Json | undefined)?.messages as Json[] | undefined;
        const last = messages?.[messages.length - 1];
        out.push({
          code: run.code,
          skill: String(messages?.[0]?.content ?? "").includes("<name>audit</name>"),
          user: typeof last?.content === "string"
            ? last.content
            : ((last?.content ?? []) as { text?: string }[]).map((part) => part.text ?? "").join(""),
        });
      }
      assertEquals(out[0], out[1]);
      return out[0];
    };
    assertEquals(await both(["-p", "/hello Ann"]), {
      code: 0,
      skill: true,
      user: "Say hello to Ann from the one-off package.",
    });
    assertEquals(await both(["--no-skills", "--no-prompt-templates", "-p", "/hello Bo"]), {
      code: 0,
      skill: true,
      user: "Say hello to Bo from the one-off package.",
    });
  } finally {
    await server.close();
    await registry.close();
    for (const env of envs) await env.cleanup();
    await Deno.remove(base, { recursive: true });
  }
});

const MCP_CONFIG = { mcpServers: { fx: stdioServer({ exposure: "direct" }) } };
const DONE = { content: [{ type: "text" as const, text: "done" }] };

/** The MCP tool names of the first request of a run, ours and 1.6.0's (asserted equal). */
async function mcpToolsBoth(
  options: { user?: string[]; project?: string[]; args?: string[] },
): Promise<string[]> {
  const out: string[][] = [];
  for (const reference of [false, true]) {
    const run = await runMcp({
      globalConfig: MCP_CONFIG,
      turns: [DONE],
      reference,
      args: options.args,
      prepare: async (cwd) => {
        if (options.user) {
          await Deno.writeTextFile(
            join(cwd, "..", "agent", "settings.json"),
            JSON.stringify({ extensions: options.user }),
          );
        }
        if (options.project) {
          await Deno.mkdir(join(cwd, ".pi"), { recursive: true });
          await Deno.writeTextFile(
            join(cwd, ".pi", "settings.json"),
            JSON.stringify({ extensions: options.project }),
          );
        }
      },
    });
    assertEquals(run.result.code, 0, `${reference ? "reference" : "ours"}: ${run.result.stderr}`);
    const tools = ((run.requests[0]?.body.tools ?? []) as { name: string }[]).map((t) => t.name);
    out.push(tools.filter((name) => name.startsWith("mcp")));
  }
  assertEquals(out[0], out[1]);
  return out[0];
}

Deno.test("PKG-11 builtin:mcp is on by default; -builtin:mcp in the user settings turns it off, a trusted project's +builtin:mcp back on; --no-extensions drops it unless -e builtin:mcp, as in pi 1.6.0", async () => {
  requireReferenceCli();
  const fx = await mcpToolsBoth({});
  assert(fx.includes("mcp__fx__echo"), fx.join(","));
  assertEquals(await mcpToolsBoth({ user: ["-builtin:mcp"] }), []);
  assertEquals(await mcpToolsBoth({ user: ["!builtin:mcp"] }), []);
  assertEquals(await mcpToolsBoth({ user: ["-builtin:mcp"], project: ["+builtin:mcp"], args: ["-a"] }), fx);
  assertEquals(await mcpToolsBoth({ project: ["-builtin:mcp"], args: ["-a"] }), []);
  assertEquals(await mcpToolsBoth({ args: ["--no-extensions"] }), []);
  assertEquals(await mcpToolsBoth({ args: ["--no-extensions", "-e", "builtin:mcp"] }), fx);
});

Deno.test("PKG-11 -e builtin:<name>: 1.6.0's error for an unknown name; tool-search, codemode and llama.cpp load without a word, as in 1.6.0", async () => {
  requireReferenceCli();
  const server = await startFakeProvider([]);
  const env = await createAgentEnv(server.url);
  try {
    const stderrOf = async (name: string, reference: boolean) => {
      server.push(DONE);
      const run = await spawnPi([
        "--provider",
        "fake-openai",
        "--model",
        "test-model",
        "-e",
        name,
        "-p",
        "hi",
      ], {
        env: { ...env.env, PI_OFFLINE: "1" },
        cwd: env.cwd,
        reference,
      });
      return run.stderr.split("\n").filter((line) => line.includes(name));
    };
    const unknown = await stderrOf("builtin:nope", false);
    assertEquals(unknown, await stderrOf("builtin:nope", true));
    assertEquals(unknown, [
      'Error: Failed to load extension "builtin:nope": Unknown built-in extension: builtin:nope',
    ]);
    // builtin:tool-search and builtin:codemode exist here (issue 14): no error, as in 1.6.0.
    assertEquals(await stderrOf("builtin:tool-search", false), []);
    assertEquals(await stderrOf("builtin:codemode", false), []);
    // builtin:llama.cpp too now: no error here, and none from 1.6.0.
    const llama = await stderrOf("builtin:llama.cpp", false);
    assertEquals(llama, []);
    assertEquals(llama, await stderrOf("builtin:llama.cpp", true));
  } finally {
    await server.close();
    await env.cleanup();
  }
});
