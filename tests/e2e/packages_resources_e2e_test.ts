/**
 * PKG: skills and prompt templates of installed packages reach the model as in pi 1.6.0 — a git
 * package with a `pi` manifest (installed by our `pi install`), a local package with conventional
 * folders narrowed by the object form's filters, and a project package that loads only after
 * project trust. Ours and 1.6.0 run the same prompt in the same folders; the system prompt and the
 * expanded template they send must be the same.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { requireReferenceCli, spawnPi } from "../support/spawn_pi.ts";
import { requireReference } from "../../scripts/reference/locate.ts";
import { createFixtureGitRepo, gitConfigFor, startFixtureRegistry } from "./packages_fixture.ts";

type Json = Record<string, unknown>;

const OUR_ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

/** System prompt and last user text of an OpenAI Chat Completions request. */
function promptOf(body: unknown, root: string): { system: string; user: string } {
  const messages = (body as Json).messages as Json[];
  const last = messages[messages.length - 1];
  const user = typeof last.content === "string"
    ? last.content
    : (last.content as { text?: string }[]).map((part) => part.text ?? "").join("");
  // The documentation paths name each program's own install.
  const mask = (text: string) =>
    text.replaceAll(root, "<root>").replaceAll(requireReference().packageDir, "<docs>").replaceAll(
      OUR_ROOT,
      "<docs>",
    )
      .replace(/\d{4}-\d\d-\d\d/g, "<date>");
  return { system: mask(String(messages[0].content)), user: mask(user) };
}

Deno.test("PKG-03 package skills and prompt templates (manifest, conventional folders, filters, project trust) reach the model as in pi 1.6.0", async () => {
  requireReferenceCli();
  const server = await startFakeProvider([]);
  const env = await createAgentEnv(server.url);
  try {
    await Deno.writeTextFile(join(env.home, ".gitconfig"), gitConfigFor(env.root));
    const repo = await createFixtureGitRepo(env.root, "alice", "tools");
    await repo.commit({
      "package.json": JSON.stringify({
        name: "tools",
        version: "1.0.0",
        pi: { skills: ["./res/skills"], prompts: ["./res/prompts/*.md", "!res/prompts/secret.md"] },
      }),
      "res/skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Deploys the app\n---\nRun deploy.\n",
      "res/prompts/greet.md": "---\ndescription: Greets\n---\nSay hello to $1 from the git package.\n",
      "res/prompts/secret.md": "---\ndescription: hidden by the manifest\n---\nSecret\n",
      "skills/ignored/SKILL.md": "---\nname: ignored\ndescription: not in the manifest\n---\nx\n",
    });
    const local = join(env.root, "localpkg");
    const files: Record<string, string> = {
      "skills/lint/SKILL.md": "---\nname: lint\ndescription: Lints code\n---\nLint.\n",
      "skills/format/SKILL.md": "---\nname: format\ndescription: Formats code\n---\nFormat.\n",
      "prompts/review.md": "---\ndescription: Reviews\n---\nReview $1 please.\n",
    };
    for (const [rel, text] of Object.entries(files)) {
      await Deno.mkdir(join(local, rel, ".."), { recursive: true });
      await Deno.writeTextFile(join(local, rel), text);
    }
    const projectPkg = join(env.root, "projectpkg");
    await Deno.mkdir(join(projectPkg, "skills", "proj"), { recursive: true });
    await Deno.writeTextFile(
      join(projectPkg, "skills", "proj", "SKILL.md"),
      "---\nname: proj\ndescription: Project skill\n---\nP.\n",
    );

    const install = await spawnPi(["install", "git:example.test/alice/tools"], {
      env: env.env,
      cwd: env.cwd,
    });
    assertEquals(install.code, 0, install.stderr);
    const settingsPath = join(env.agentDir, "settings.json");
    const settings = JSON.parse(await Deno.readTextFile(settingsPath));
    settings.packages.push({ source: "../localpkg", skills: ["-skills/format"] });
    await Deno.writeTextFile(settingsPath, JSON.stringify(settings, null, 2));
    await Deno.mkdir(join(env.cwd, ".pi"), { recursive: true });
    await Deno.writeTextFile(
      join(env.cwd, ".pi", "settings.json"),
      JSON.stringify({ packages: ["../../projectpkg"] }),
    );

    const runBoth = async (args: string[]) => {
      const out: { system: string; user: string }[] = [];
      for (const reference of [false, true]) {
        server.push({ content: [{ type: "text", text: "ok" }] });
        const before = server.requests.length;
        const run = await spawnPi(["--provider", "fake-openai", "--model", "test-model", "-p", ...args], {
          env: env.env,
          cwd: env.cwd,
          reference,
        });
        assertEquals(run.code, 0, `${reference ? "reference" : "ours"}: ${run.stderr}`);
        assertEquals(server.requests.length, before + 1);
        out.push(promptOf(server.requests[before].body, env.root));
      }
      assertEquals(out[0], out[1]);
      return out[0];
    };

    // Untrusted project (print mode cannot ask): only the user's packages.
    const greeted = await runBoth(["/greet Bob"]);
    assertEquals(greeted.user, "Say hello to Bob from the git package.");
    for (const name of ["deploy", "lint"]) assert(greeted.system.includes(`<name>${name}</name>`), name);
    for (const name of ["format", "ignored", "proj"]) {
      assert(!greeted.system.includes(`<name>${name}</name>`), name);
    }
    const secret = await runBoth(["/secret"]);
    assertEquals(secret.user, "/secret");

    // Trusted: the project's package loads too.
    const trusted = await runBoth(["-a", "/review main.ts"]);
    assertEquals(trusted.user, "Review main.ts please.");
    assert(trusted.system.includes("<name>proj</name>"));
  } finally {
    await server.close();
    await env.cleanup();
  }
});

Deno.test("PKG-03 a project entry with autoload: false adjusts the user's entry for the same package (its patterns win, the rest as the user has it), as pi 1.6.0", async () => {
  requireReferenceCli();
  const server = await startFakeProvider([]);
  const env = await createAgentEnv(server.url);
  try {
    const local = join(env.root, "localpkg");
    const files: Record<string, string> = {
      "skills/lint/SKILL.md": "---\nname: lint\ndescription: Lints code\n---\nLint.\n",
      "skills/format/SKILL.md": "---\nname: format\ndescription: Formats code\n---\nFormat.\n",
      "skills/test/SKILL.md": "---\nname: test\ndescription: Tests code\n---\nTest.\n",
      "prompts/review.md": "---\ndescription: Reviews\n---\nReview $1 please.\n",
      "prompts/plan.md": "---\ndescription: Plans\n---\nPlan $1.\n",
    };
    for (const [rel, text] of Object.entries(files)) {
      await Deno.mkdir(join(local, rel, ".."), { recursive: true });
      await Deno.writeTextFile(join(local, rel), text);
    }
    // The user turns format and test off; the project's delta turns lint off, format back on and review off,
    // and leaves test as the user has it (an entry that replaced the user's would turn test back on).
    await Deno.writeTextFile(
      join(env.agentDir, "settings.json"),
      JSON.stringify({
        packages: [{ source: local, skills: ["-skills/format/SKILL.md", "-skills/test/SKILL.md"] }],
      }),
    );
    await Deno.mkdir(join(env.cwd, ".pi"), { recursive: true });
    await Deno.writeTextFile(
      join(env.cwd, ".pi", "settings.json"),
      JSON.stringify({
        packages: [{
          source: local,
          autoload: false,
          skills: ["-skills/lint/SKILL.md", "+skills/format/SKILL.md"],
          prompts: ["!prompts/review.md"],
        }],
      }),
    );
    const out: { system: string; user: string }[][] = [];
    for (const reference of [false, true]) {
      const runs: { system: string; user: string }[] = [];
      for (const prompt of ["/review x", "/plan y"]) {
        server.push({ content: [{ type: "text", text: "ok" }] });
        const before = server.requests.length;
        const run = await spawnPi(
          ["--provider", "fake-openai", "--model", "test-model", "-a", "-p", prompt],
          {
            env: env.env,
            cwd: env.cwd,
            reference,
          },
        );
        assertEquals(run.code, 0, `${reference ? "reference" : "ours"}: ${run.stderr}`);
        runs.push(promptOf(server.requests[before].body, env.root));
      }
      out.push(runs);
    }
    assertEquals(out[0], out[1]);
    const [review, plan] = out[0];
    assertEquals(review.user, "/review x");
    assertEquals(plan.user, "Plan y.");
    assert(plan.system.includes("<name>format</name>"), "format is on");
    for (const name of ["lint", "test"]) {
      assert(!plan.system.includes(`<name>${name}</name>`), `${name} is off`);
    }
  } finally {
    await server.close();
    await env.cleanup();
  }
});

Deno.test("PKG-06 configured but missing packages are installed at start-up; one that fails is a warning and pi goes on, as pi 1.6.0", async () => {
  requireReferenceCli();
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-pkg-" }));
  const registry = startFixtureRegistry(base);
  const server = await startFakeProvider([]);
  try {
    await registry.publish("pi-fixture", "1.0.0", {
      "skills/hi/SKILL.md": "---\nname: hi\ndescription: Greets from npm\n---\nx\n",
    });
    const results: unknown[] = [];
    for (const reference of [false, true]) {
      const env = await createAgentEnv(server.url, { tempBase: base });
      await Deno.writeTextFile(join(env.home, ".gitconfig"), gitConfigFor(env.root));
      const repo = await createFixtureGitRepo(env.root, "alice", "tools");
      await repo.commit({ "skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Deploys\n---\nx\n" });
      const packages = ["npm:does-not-exist", "npm:pi-fixture", "git:example.test/alice/tools"];
      await Deno.writeTextFile(join(env.agentDir, "settings.json"), JSON.stringify({ packages }, null, 2));
      server.push({ content: [{ type: "text", text: "ok" }] });
      const before = server.requests.length;
      const run = await spawnPi(["--provider", "fake-openai", "--model", "test-model", "-p", "hi"], {
        env: { ...env.env, NPM_CONFIG_REGISTRY: registry.url, NPM_CONFIG_UPDATE_NOTIFIER: "false" },
        cwd: env.cwd,
        reference,
        timeoutMs: 120_000,
      });
      const system = promptOf(server.requests[before]?.body, env.root).system;
      results.push({
        code: run.code,
        stdout: run.stdout,
        warnings: run.stderr.replaceAll(env.root, "<root>").split("\n").filter((l) =>
          l.startsWith("Warning:")
        ),
        skills: ["hi", "deploy"].filter((name) => system.includes(`<name>${name}</name>`)),
        npm: (await Array.fromAsync(Deno.readDir(join(env.agentDir, "npm", "node_modules"))))
          .map((e) => e.name).filter((n) => !n.startsWith(".")).sort(),
        settings: await Deno.readTextFile(join(env.agentDir, "settings.json")),
      });
    }
    assertEquals(results[0], results[1]);
    assertEquals((results[0] as { skills: string[] }).skills, ["hi", "deploy"]);
    assertEquals((results[0] as { warnings: string[] }).warnings, [
      'Warning: Extension package "npm:does-not-exist": failed to install (npm install does-not-exist --prefix ' +
      '<root>/agent/npm --legacy-peer-deps --no-audit --no-fund failed with code 1). Run "pi remove ' +
      'npm:does-not-exist" to remove it from settings.json.',
    ]);
  } finally {
    await server.close();
    await registry.close();
    await Deno.remove(base, { recursive: true });
  }
});

/** An extension that registers one tool named `name`. */
function toolExtension(name: string): string {
  return `export default function (pi) {
  pi.registerTool({
    name: ${JSON.stringify(name)},
    label: ${JSON.stringify(name)},
    description: "Registered by a package extension",
    parameters: { type: "object", properties: {} },
    execute: async () => ({ content: [{ type: "text", text: ${JSON.stringify(name)} }], details: {} }),
  });
}
`;
}

/** Tool names of an OpenAI Chat Completions request, in the order sent. */
function toolNamesOf(body: unknown): string[] {
  return (((body as Json).tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
}

Deno.test("PKG-09 extensions of installed packages (manifest, extensions/ folder, filters, project trust, --no-extensions) load in pi 1.6.0's order", async () => {
  requireReferenceCli();
  const server = await startFakeProvider([]);
  const env = await createAgentEnv(server.url);
  try {
    await Deno.writeTextFile(join(env.home, ".gitconfig"), gitConfigFor(env.root));
    const repo = await createFixtureGitRepo(env.root, "alice", "exts");
    await repo.commit({
      "package.json": JSON.stringify({
        name: "exts",
        version: "1.0.0",
        pi: { extensions: ["./src/main.ts"] },
      }),
      "src/main.ts": toolExtension("git_pkg_tool"),
      "extensions/not_listed.ts": toolExtension("not_in_manifest"),
    });
    const local = join(env.root, "localpkg");
    await Deno.mkdir(join(local, "extensions", "folder_ext"), { recursive: true });
    await Deno.writeTextFile(join(local, "extensions", "a.ts"), toolExtension("local_a"));
    await Deno.writeTextFile(join(local, "extensions", "b.ts"), toolExtension("local_b_filtered"));
    await Deno.writeTextFile(
      join(local, "extensions", "folder_ext", "index.ts"),
      toolExtension("local_folder"),
    );
    const projectPkg = join(env.root, "projectpkg");
    await Deno.mkdir(join(projectPkg, "extensions"), { recursive: true });
    await Deno.writeTextFile(join(projectPkg, "extensions", "p.ts"), toolExtension("project_pkg_tool"));
    // A settings entry of its own, to show where package extensions go relative to it.
    await Deno.mkdir(join(env.agentDir, "extensions"), { recursive: true });
    await Deno.writeTextFile(join(env.agentDir, "extensions", "own.ts"), toolExtension("own_folder_tool"));

    const install = await spawnPi(["install", "git:example.test/alice/exts"], { env: env.env, cwd: env.cwd });
    assertEquals(install.code, 0, install.stderr);
    const settingsPath = join(env.agentDir, "settings.json");
    const settings = JSON.parse(await Deno.readTextFile(settingsPath));
    settings.packages.push({ source: "../localpkg", extensions: ["-extensions/b.ts"] });
    await Deno.writeTextFile(settingsPath, JSON.stringify(settings, null, 2));
    await Deno.mkdir(join(env.cwd, ".pi"), { recursive: true });
    await Deno.writeTextFile(
      join(env.cwd, ".pi", "settings.json"),
      JSON.stringify({ packages: ["../../projectpkg"] }),
    );

    const toolsBoth = async (args: string[]) => {
      const out: string[][] = [];
      for (const reference of [false, true]) {
        server.push({ content: [{ type: "text", text: "ok" }] });
        const before = server.requests.length;
        const run = await spawnPi(
          ["--provider", "fake-openai", "--model", "test-model", ...args, "-p", "hi"],
          {
            env: env.env,
            cwd: env.cwd,
            reference,
          },
        );
        assertEquals(run.code, 0, `${reference ? "reference" : "ours"}: ${run.stderr}`);
        out.push(toolNamesOf(server.requests[before].body));
      }
      assertEquals(out[0], out[1]);
      return out[0].filter((name) => !["read", "bash", "edit", "write"].includes(name));
    };

    assertEquals(await toolsBoth([]), ["own_folder_tool", "git_pkg_tool", "local_a", "local_folder"]);
    assertEquals(await toolsBoth(["-a"]), [
      "own_folder_tool",
      "project_pkg_tool",
      "git_pkg_tool",
      "local_a",
      "local_folder",
    ]);
    assertEquals(await toolsBoth(["--no-extensions"]), []);
  } finally {
    await server.close();
    await env.cleanup();
  }
});
