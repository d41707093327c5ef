/**
 * Project trust (security.md of pi 1.6.0): which folders need a decision, trust.json reads and writes, and
 * the decision order, compared with the captures in tests/fixtures/config/settings_reference.json (`trust`).
 */
import { assertEquals, assertRejects } from "../support/assert.ts";
import { join } from "../../src/util/path.ts";
import {
  hasTrustRequiringProjectResources,
  ProjectTrustStore,
  resolveProjectTrust,
} from "../../src/config/project_trust.ts";

const reference = JSON.parse(
  Deno.readTextFileSync(new URL("../fixtures/config/settings_reference.json", import.meta.url)),
).trust;

/** The folders of the capture: name → entries (a trailing `/` makes a folder). */
const PROJECTS: Record<string, [string, string[]]> = {
  bare: ["bare", [".pi/"]],
  settings: ["settings", [".pi/settings.json"]],
  sessionsOnly: ["sessions-only", [".pi/sessions/"]],
  agentsSkills: ["agents-skills", [".agents/skills/"]],
  nestedUnderAgents: ["agents-skills/sub/deeper", []],
  extensions: ["extensions", [".pi/extensions/"]],
  systemMd: ["system-md", [".pi/SYSTEM.md"]],
  mcp: ["mcp", [".pi/mcp.json"]],
  agentsMd: ["agents-md", ["AGENTS.md", ".pi/keybindings.json"]],
};

async function withProjects(
  fn: (root: string, base: string, dirs: Record<string, string>, home: string) => Promise<void>,
): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-trust-" }));
  try {
    const base = join(root, "projects");
    const home = join(root, "home");
    Deno.mkdirSync(home, { recursive: true });
    const dirs: Record<string, string> = {};
    for (const [key, [name, entries]] of Object.entries(PROJECTS)) {
      const dir = join(base, name);
      Deno.mkdirSync(dir, { recursive: true });
      for (const entry of entries) {
        const path = join(dir, entry);
        if (entry.endsWith("/")) Deno.mkdirSync(path, { recursive: true });
        else {
          Deno.mkdirSync(join(path, ".."), { recursive: true });
          Deno.writeTextFileSync(path, "{}");
        }
      }
      dirs[key] = dir;
    }
    await fn(root, base, dirs, home);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("TRUST-01 which folders need a trust decision matches 1.6.0", async () => {
  await withProjects((_root, _base, dirs, home) => {
    const actual = Object.fromEntries(
      Object.entries(dirs).map(([key, dir]) => [key, hasTrustRequiringProjectResources(dir, home)]),
    );
    assertEquals(actual, reference.requiresTrust);
    // The user's own ~/.agents/skills is not a project resource, even with HOME as the cwd.
    Deno.mkdirSync(join(home, ".agents", "skills"), { recursive: true });
    assertEquals(hasTrustRequiringProjectResources(home, home), false);
    return Promise.resolve();
  });
});

Deno.test("TRUST-02 trust.json: canonical keys, sorted, nearest ancestor applies, null removes", async () => {
  await withProjects((root, base, dirs) => {
    const agentDir = join(root, "agent");
    const store = new ProjectTrustStore(agentDir);
    store.set(join(base, "settings"), true);
    store.set(join(base, "extensions"), false);
    store.set(base, true);
    store.set(join(base, "extensions"), false);
    store.setMany([{ path: join(base, "mcp"), decision: false }, {
      path: join(base, "mcp"),
      decision: null,
    }]);
    const text = Deno.readTextFileSync(join(agentDir, "trust.json"));
    const expectedText = (reference.file as string).replace(/<ROOT>\/trust-projects/g, base);
    assertEquals(text, expectedText);
    assertEquals([...Deno.readDirSync(agentDir)].map((e) => e.name).sort(), reference.agentDirFiles);
    const actual = Object.fromEntries(Object.entries(dirs).map(([key, dir]) => [key, store.get(dir)]));
    assertEquals(actual, reference.get);
    assertEquals(store.get(root), reference.getOutside);
    // A symlinked path resolves to the same canonical key.
    Deno.symlinkSync(join(base, "extensions"), join(root, "link"));
    assertEquals(store.get(join(root, "link")), false);
    return Promise.resolve();
  });
});

Deno.test("TRUST-03 decision order: flag, no protected files, saved, defaultProjectTrust (non-interactive)", async () => {
  await withProjects(async (root, base, dirs, home) => {
    const saved = join(root, "saved-agent");
    const store = new ProjectTrustStore(saved);
    store.set(join(base, "settings"), true);
    store.set(join(base, "extensions"), false);
    store.set(base, true);
    const actual = [];
    for (const c of reference.decisions as { project: string; options: Record<string, unknown> }[]) {
      const o = c.options as { override?: boolean; default?: "ask" | "always" | "never"; agentDir?: string };
      const trusted = await resolveProjectTrust({
        cwd: dirs[c.project],
        agentDir: o.agentDir ? saved : join(root, `empty-${actual.length}`),
        flag: o.override,
        defaultProjectTrust: o.default,
        interactive: false,
        home,
      });
      actual.push({ project: c.project, options: c.options, trusted });
    }
    assertEquals(actual, reference.decisions);
    const savedFalse = join(root, "saved-false");
    new ProjectTrustStore(savedFalse).set(dirs.bare, false);
    assertEquals(
      await resolveProjectTrust({ cwd: dirs.bare, agentDir: savedFalse, interactive: false, home }),
      reference.bareSavedFalse,
    );
  });
});

Deno.test("TRUST-03 ask: interactive callers are asked and their choice saved; never without a person", async () => {
  await withProjects(async (root, _base, dirs, home) => {
    const agentDir = join(root, "agent");
    const asked: string[] = [];
    const trusted = await resolveProjectTrust({
      cwd: dirs.settings,
      agentDir,
      interactive: true,
      home,
      ask: (cwd) => {
        asked.push(cwd);
        return Promise.resolve({ trusted: true, save: [{ path: cwd, decision: true }] });
      },
    });
    assertEquals({ trusted, asked }, { trusted: true, asked: [dirs.settings] });
    assertEquals(new ProjectTrustStore(agentDir).get(dirs.settings), true);
    const other = join(root, "agent2");
    let called = false;
    const headless = await resolveProjectTrust({
      cwd: dirs.settings,
      agentDir: other,
      interactive: false,
      home,
      ask: () => {
        called = true;
        return Promise.resolve({ trusted: true });
      },
    });
    assertEquals({ headless, called }, { headless: false, called: false });
  });
});

Deno.test("TRUST-02 a broken trust.json is an error naming the file, not a silent decision", async () => {
  await withProjects(async (root, _base, dirs, home) => {
    const texts = reference.broken.map((c: { input: string }) => c.input) as string[];
    const expected = [
      // 1.6.0 repeats V8's message (which can quote the file); ours gives line and column.
      "Cannot read the trust store <AGENT>/trust.json: line 1, column 13: Expected double-quoted property name",
      reference.broken[1].error,
      reference.broken[2].error,
    ];
    for (const [index, text] of texts.entries()) {
      const agentDir = join(root, `broken-${index}`);
      Deno.mkdirSync(agentDir, { recursive: true });
      Deno.writeTextFileSync(join(agentDir, "trust.json"), text);
      const error = await assertRejects(
        () => resolveProjectTrust({ cwd: dirs.settings, agentDir, interactive: false, home }),
      );
      assertEquals(error.message, expected[index].replace("<AGENT>", agentDir));
      assertEquals(Deno.readTextFileSync(join(agentDir, "trust.json")), text);
    }
  });
});
