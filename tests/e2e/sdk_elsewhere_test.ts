/**
 * The SDK and the `pi` command from outside the checkout, as a user's own project uses them:
 * a script in another folder (with its own deno.json) imports mod.ts by path and runs a turn;
 * every module of mod.ts and main.ts resolves without this repo's config (lazy imports too);
 * `deno task install` writes a command that runs from any folder, exact to deno.lock, and that
 * says clearly when the checkout it names is gone.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { VERSION } from "../../src/version.ts";

const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
const decoder = new TextDecoder();

async function run(cmd: string, args: string[], cwd: string, env: Record<string, string>) {
  const out = await new Deno.Command(cmd, {
    args,
    cwd,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

Deno.test("SDK: a script in another project imports mod.ts by path and runs a turn against the fake provider", async () => {
  const server = await startFakeProvider([{ content: [{ type: "text", text: "hello from elsewhere" }] }]);
  const env = await createAgentEnv(server.url);
  try {
    const project = join(env.root, "elsewhere");
    await Deno.mkdir(project);
    // Another project: its own deno.json (an import map of its own), nothing of this repo's.
    await Deno.writeTextFile(join(project, "deno.json"), JSON.stringify({ imports: {} }));
    await Deno.writeTextFile(
      join(project, "main.ts"),
      `import {
  createAgentSession,
  ModelRuntime,
  SessionManager,
  SettingsManager,
} from ${JSON.stringify(`file://${ROOT}/mod.ts`)};

const agentDir = Deno.env.get("PI_CODING_AGENT_DIR")!;
const modelRuntime = await ModelRuntime.create({
  authPath: agentDir + "/auth.json",
  modelsPath: agentDir + "/models.json",
});
const model = modelRuntime.getModel("fake-anthropic", "test-model");
if (!model) throw new Error("no model");
const { session } = await createAgentSession({
  cwd: Deno.cwd(),
  agentDir,
  modelRuntime,
  settingsManager: SettingsManager.create(Deno.cwd(), agentDir),
  sessionManager: SessionManager.inMemory(Deno.cwd()),
  model,
});
let answer = "";
session.subscribe((event) => {
  if (event.type === "message_end" && event.message.role === "assistant") {
    for (const block of event.message.content) if (block.type === "text") answer += block.text;
  }
});
await session.prompt("say hello");
session.dispose();
console.log(answer);
`,
    );
    const result = await run(
      Deno.execPath(),
      ["run", "--allow-all", "--no-prompt", "main.ts"],
      project,
      env.env,
    );
    assertEquals(result.code, 0, result.stderr);
    assertEquals(result.stdout, "hello from elsewhere\n");
    assertEquals(server.requests.length, 1);
    assertStringIncludes(JSON.stringify(server.requests[0].body), "say hello");
  } finally {
    await server.close();
    await env.cleanup();
  }
});

Deno.test("SDK: every module of mod.ts and main.ts resolves without this repo's config, lazy imports included", async () => {
  const elsewhere = await Deno.makeTempDir({ prefix: "pi-sdk-graph-" });
  try {
    for (const entry of ["mod.ts", "main.ts"]) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["info", "--no-config", "--json", `${ROOT}/${entry}`],
        cwd: elsewhere,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      assertEquals(out.code, 0, decoder.decode(out.stderr));
      const graph = JSON.parse(decoder.decode(out.stdout)) as {
        modules: { specifier: string; error?: string; dependencies?: DependencyInfo[] }[];
        npmPackages?: Record<string, unknown>;
      };
      const errors: string[] = [];
      for (const module of graph.modules) {
        if (module.error) errors.push(`${module.specifier}: ${module.error}`);
        for (const dep of module.dependencies ?? []) {
          const error = dep.code?.error ?? dep.type?.error;
          if (error) errors.push(`${module.specifier.replace(`file://${ROOT}/`, "")}: ${error}`);
        }
      }
      assertEquals(errors, [], `${entry}: imports that need this repo's import map`);
      assert(graph.modules.length > 50, `${entry}: ${graph.modules.length} modules`);
      // The test-only packages (and what they pull in) stay out of what the command and SDK load.
      const packages = Object.keys(graph.npmPackages ?? {}).map((p) => p.replace(/@[^@]+$/, ""));
      for (const name of ["@anthropic-ai/sdk", "openai", "@google/genai", "partial-json", "protobufjs"]) {
        assert(!packages.includes(name), `${entry} pulls ${name}: ${packages.join(", ")}`);
      }
    }
  } finally {
    await Deno.remove(elsewhere, { recursive: true });
  }
});

interface DependencyInfo {
  specifier: string;
  code?: { error?: string };
  type?: { error?: string };
}

Deno.test("install: deno task install writes a pi command that runs from any folder, exact to deno.lock", async () => {
  const server = await startFakeProvider([{ content: [{ type: "text", text: "installed hello" }] }]);
  const env = await createAgentEnv(server.url);
  try {
    const root = join(env.root, "deno-root");
    const install = await run(
      Deno.execPath(),
      ["run", "--allow-all", `${ROOT}/scripts/install.ts`, "--root", root],
      env.cwd,
      env.env,
    );
    assertEquals(install.code, 0, install.stderr);
    assertEquals(install.stdout.split("\n")[0], `installed ${root}/bin/pi (runs ${ROOT}/main.ts)`);
    assertEquals(install.stderr, "", "no warnings (no ignored build scripts, no downloads)");
    const shim = await Deno.readTextFile(join(root, "bin", "pi"));
    assertStringIncludes(shim, "--frozen");

    // `deno` by name, as the user's PATH has it.
    const denoBin = join(env.root, "deno-bin");
    await Deno.mkdir(denoBin);
    await Deno.symlink(Deno.execPath(), join(denoBin, "deno"));
    const userEnv = { ...env.env, PATH: `${root}/bin:${denoBin}:${env.env.PATH}` };
    const version = await run("pi", ["--version"], env.cwd, userEnv);
    assertEquals(version, { code: 0, stdout: `${VERSION} (deno source)\n`, stderr: "" });
    const turn = await run(
      "pi",
      ["--provider", "fake-openai", "--model", "test-model", "-p", "hi"],
      env.cwd,
      userEnv,
    );
    assertEquals(turn, { code: 0, stdout: "installed hello\n", stderr: "" });

    // A shim naming a checkout that is gone says so (the limitation: re-run the install there).
    const gone = join(env.root, "moved-away");
    await Deno.writeTextFile(join(root, "bin", "pi"), shim.replace(/^repo=.*$/m, `repo='${gone}'`));
    const moved = await run("pi", ["--version"], env.cwd, userEnv);
    assertEquals(moved, {
      code: 1,
      stdout: "",
      stderr:
        `pi: the checkout at ${gone} is gone (moved or deleted): run 'deno task install' in its new place\n`,
    });
  } finally {
    await server.close();
    await env.cleanup();
  }
});
