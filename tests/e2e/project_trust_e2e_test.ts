/**
 * TRUST-05 CLI-28 project trust end to end: for a project with `.pi/settings.json` (naming a skill folder),
 * `.pi/skills`, `.pi/prompts`, `.pi/SYSTEM.md`, `.pi/APPEND_SYSTEM.md`, `.agents/skills` and AGENTS.md,
 * `pi -p "/p arg"` sends the same system prompt and the same (expanded or not) user message as pi 1.6.0
 * with no trust decision, `--approve`, `-a`, `--no-approve`, `-na`, a saved decision in trust.json (for the
 * folder or a parent) and `defaultProjectTrust` `always` / `never`; print mode never asks and never writes
 * trust.json. Live against the installed reference; without it, against the stored capture
 * (tests/fixtures/resources/project_trust_e2e.json, rewritten by `deno run -A` on this file).
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { spawnPi, useReferenceFixtures } from "../support/spawn_pi.ts";

const FIXTURE = new URL("../fixtures/resources/project_trust_e2e.json", import.meta.url).pathname;

/** One run: flags, a saved trust.json (keys relative to the env root, "" = the root), global settings. */
interface TrustCase {
  args?: string[];
  saved?: Record<string, boolean>;
  settings?: Record<string, unknown>;
  /** "full": every protected resource in the project; "agentsOnly": only `.agents/skills` in the parent. */
  layout?: "full" | "agentsOnly";
  /** Whether the project's resources should load (checked on top of the comparison with 1.6.0). */
  trusted: boolean;
}

const CASES: Record<string, TrustCase> = {
  noDecision: { trusted: false },
  approve: { args: ["--approve"], trusted: true },
  approveShort: { args: ["-a"], trusted: true },
  noApprove: { args: ["--no-approve"], trusted: false },
  noApproveShort: { args: ["-na"], trusted: false },
  savedTrue: { saved: { project: true }, trusted: true },
  savedFalse: { saved: { project: false }, trusted: false },
  savedParentTrue: { saved: { "": true }, trusted: true },
  savedNearestWins: { saved: { "": true, project: false }, trusted: false },
  savedFalseApprove: { saved: { project: false }, args: ["--approve"], trusted: true },
  always: { settings: { defaultProjectTrust: "always" }, trusted: true },
  alwaysNoApprove: { settings: { defaultProjectTrust: "always" }, args: ["--no-approve"], trusted: false },
  never: { settings: { defaultProjectTrust: "never" }, trusted: false },
  ancestorAgentsSkills: { layout: "agentsOnly", trusted: false },
  ancestorAgentsSkillsApproved: { layout: "agentsOnly", args: ["--approve"], trusted: true },
};

const SKILL = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nbody\n`;

/** What one run sent and left behind, folders normalised. */
interface Observed {
  code: number;
  stderr: string;
  system: string;
  user: unknown;
  trustFile: string | null;
}

async function observe(c: TrustCase, reference: boolean): Promise<Observed> {
  const server = await startFakeProvider([{ content: [{ type: "text", text: "ok" }] }]);
  const env = await createAgentEnv(server.url, { settings: c.settings });
  try {
    env.env.PI_OFFLINE = "1";
    const write = async (path: string, text: string) => {
      await Deno.mkdir(join(path, ".."), { recursive: true });
      await Deno.writeTextFile(path, text);
    };
    const project = (rel: string) => join(env.cwd, rel);
    await write(project("AGENTS.md"), "Project agents file.\n");
    await write(join(env.agentDir, "SYSTEM.md"), "USER SYSTEM PROMPT\n");
    await write(join(env.agentDir, "prompts/other.md"), "User template\n");
    if ((c.layout ?? "full") === "full") {
      await write(project(".pi/settings.json"), JSON.stringify({ skills: ["../extra"] }));
      await write(project(".pi/skills/x/SKILL.md"), SKILL("x", "Project skill x"));
      await write(project("extra/z/SKILL.md"), SKILL("z", "Skill z named by project settings"));
      await write(project(".agents/skills/y/SKILL.md"), SKILL("y", "Project agents skill y"));
      await write(project(".pi/prompts/p.md"), "---\ndescription: a prompt\n---\nExpanded template $1\n");
      await write(project(".pi/SYSTEM.md"), "PROJECT SYSTEM PROMPT\n");
      await write(project(".pi/APPEND_SYSTEM.md"), "PROJECT APPEND\n");
    } else {
      await write(join(env.root, ".agents/skills/w/SKILL.md"), SKILL("w", "Ancestor agents skill w"));
    }
    if (c.saved) {
      const saved = Object.fromEntries(
        Object.entries(c.saved).map(([rel, value]) => [rel ? join(env.root, rel) : env.root, value]),
      );
      await Deno.writeTextFile(join(env.agentDir, "trust.json"), JSON.stringify(saved));
    }
    const r = await spawnPi(["--model", "fake-openai/test-model", ...(c.args ?? []), "-p", "/p arg"], {
      env: env.env,
      cwd: env.cwd,
      reference,
    });
    const body = server.requests.at(-1)?.body as
      | { messages: { role: string; content: unknown }[] }
      | undefined;
    const norm = (text: string) => text.split(env.root).join("<ROOT>");
    const trustFile = await Deno.readTextFile(join(env.agentDir, "trust.json")).catch(() => null);
    return {
      code: r.code,
      stderr: norm(r.stderr),
      system: norm(String(body?.messages[0]?.content ?? "")),
      user: body?.messages[1]?.content ?? null,
      trustFile: trustFile === null ? null : norm(trustFile),
    };
  } finally {
    await server.close();
    await env.cleanup();
  }
}

/** The project's resources are all in, or all out, as the case says. */
function checkTrust(name: string, c: TrustCase, o: Observed): void {
  assertEquals([o.code, o.stderr], [0, ""], name);
  assert(o.system.includes("Project agents file."), `${name}: AGENTS.md loads whatever the trust`);
  const text = JSON.stringify(o.user);
  if ((c.layout ?? "full") === "full") {
    assertEquals(o.system.startsWith("PROJECT SYSTEM PROMPT"), c.trusted, `${name}: .pi/SYSTEM.md`);
    assertEquals(o.system.includes("PROJECT APPEND"), c.trusted, `${name}: .pi/APPEND_SYSTEM.md`);
    for (const skill of ["<name>x</name>", "<name>y</name>", "<name>z</name>"]) {
      assertEquals(o.system.includes(skill), c.trusted, `${name}: skill ${skill}`);
    }
    assertEquals(text.includes("Expanded template arg"), c.trusted, `${name}: .pi/prompts/p.md`);
  } else {
    assertEquals(o.system.includes("<name>w</name>"), c.trusted, `${name}: ancestor .agents/skills`);
  }
}

for (const [name, c] of Object.entries(CASES)) {
  Deno.test(`TRUST-05 CLI-28 e2e: pi -p loads a project's protected resources as 1.6.0 does (${name})`, async () => {
    const ours = await observe(c, false);
    checkTrust(name, c, ours);
    const stored = JSON.parse(await Deno.readTextFile(FIXTURE))[name];
    if (useReferenceFixtures()) {
      assertEquals(ours, stored);
      return;
    }
    const reference = await observe(c, true);
    assertEquals(ours, reference);
    assertEquals(stored, reference, "stored capture is current (re-run this file with deno run to refresh)");
  });
}

Deno.test("TRUST-05 e2e: a broken trust.json stops pi with the file, line and column, and is left as it was", async () => {
  const server = await startFakeProvider([{ content: [{ type: "text", text: "ok" }] }]);
  const env = await createAgentEnv(server.url);
  try {
    env.env.PI_OFFLINE = "1";
    await Deno.mkdir(join(env.cwd, ".pi/skills"), { recursive: true });
    const trustPath = join(env.agentDir, "trust.json");
    await Deno.writeTextFile(trustPath, '{\n  "/somewhere": true,\n  nope\n}\n');
    const r = await spawnPi(["--model", "fake-openai/test-model", "-p", "hi"], {
      env: env.env,
      cwd: env.cwd,
    });
    assertEquals([r.code, r.stdout, r.stderr.split(env.root).join("<ROOT>")], [
      1,
      "",
      "Error: Cannot read the trust store <ROOT>/agent/trust.json: line 3, column 3: Expected double-quoted property name\n",
    ]);
    assertEquals(server.requests.length, 0, "nothing is sent");
    assertEquals(await Deno.readTextFile(trustPath), '{\n  "/somewhere": true,\n  nope\n}\n');
    // A flag decides without reading the store (as in 1.6.0), so the run can still go ahead.
    const approved = await spawnPi(["--model", "fake-openai/test-model", "-a", "-p", "hi"], {
      env: env.env,
      cwd: env.cwd,
    });
    assertEquals([approved.code, approved.stdout, approved.stderr], [0, "ok\n", ""]);
  } finally {
    await server.close();
    await env.cleanup();
  }
});

if (import.meta.main) {
  const out: Record<string, Observed> = {};
  for (const [name, c] of Object.entries(CASES)) out[name] = await observe(c, true);
  await Deno.writeTextFile(FIXTURE, JSON.stringify(out, null, 2) + "\n");
  console.log(`wrote ${FIXTURE}`);
}
