import { assert, assertEquals } from "../support/assert.ts";
import { join } from "node:path";
import { SettingsManager } from "../../src/config/settings_manager.ts";
import { isolatedTest } from "./isolation.ts";

/** Registered only inside the isolated subprocess (see isolation.ts). */
const test = isolatedTest(import.meta.url);

/**
 * 0.73.1 captures: files written by 0.73.1 still load, migrate and merge the same way. 1.6.0's behaviour is
 * tested in settings_reference_test.ts.
 */
const reference = JSON.parse(
  Deno.readTextFileSync(new URL("../fixtures/config/settings_reference_0.73.1.json", import.meta.url)),
);

async function withDirs(fn: (cwd: string, agentDir: string) => Promise<void>): Promise<void> {
  const cwd = await Deno.makeTempDir({ prefix: "pi-settings-" });
  try {
    await fn(cwd, join(cwd, "agent"));
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
}

test("SET-03 setters persist only modified keys merged into the current file, with clamping", async () => {
  await withDirs(async (cwd, agentDir) => {
    await Deno.mkdir(agentDir);
    const path = join(agentDir, "settings.json");
    await Deno.writeTextFile(path, '{"theme":"dark","compaction":{"reserveTokens":1},"custom":{"x":1}}');
    const sm = SettingsManager.create(cwd, agentDir);
    // Another process rewrites the file after we loaded it; its keys must survive our write.
    await Deno.writeTextFile(
      path,
      '{"theme":"dark","compaction":{"reserveTokens":1,"keepRecentTokens":7},"other":true}',
    );
    sm.setCompactionEnabled(false);
    sm.setDefaultModelAndProvider("anthropic", "claude-opus-4-7");
    sm.setEditorPaddingX(9);
    sm.setAutocompleteMaxVisible(1);
    await sm.flush();
    assertEquals(await Deno.readTextFile(path), reference.writes.after);
    assertEquals(sm.drainErrors().length, reference.writes.errors);
  });
});

test("SET-05 migrations of old keys on load and on write", async () => {
  await withDirs(async (cwd, agentDir) => {
    const expected = reference.migration;
    await Deno.mkdir(agentDir);
    await Deno.writeTextFile(join(agentDir, "settings.json"), expected.input);
    const sm = SettingsManager.create(cwd, agentDir);
    assertEquals(sm.getGlobalSettings(), expected.global);
    sm.setTheme("t");
    await sm.flush();
    assertEquals(await Deno.readTextFile(join(agentDir, "settings.json")), expected.after);
  });
});

test("SET-01 0.73.1 files: project settings merge over global; project writes keep other keys", async () => {
  await withDirs(async (cwd, agentDir) => {
    const expected = reference.merge;
    await Deno.mkdir(agentDir);
    await Deno.mkdir(join(cwd, ".pi"));
    await Deno.writeTextFile(join(agentDir, "settings.json"), JSON.stringify(expected.global));
    await Deno.writeTextFile(join(cwd, ".pi", "settings.json"), JSON.stringify(expected.project));
    const sm = SettingsManager.create(cwd, agentDir);
    sm.setProjectSkillPaths(["p2"]);
    await sm.flush();
    assertEquals(sm.getCompactionSettings(), expected.compaction);
    assertEquals(sm.getSkillPaths(), expected.skills);
    assertEquals(sm.getTheme(), expected.theme);
    assertEquals(sm.getDefaultModel(), expected.defaultModel);
    assertEquals(await Deno.readTextFile(join(cwd, ".pi", "settings.json")), expected.projectAfter);
  });
});

test("SET-03 first write creates the global file; the project dir is not created", async () => {
  await withDirs(async (cwd, agentDir) => {
    const sm = SettingsManager.create(cwd, agentDir);
    sm.setShowImages(false);
    await sm.flush();
    assertEquals(await Deno.readTextFile(join(agentDir, "settings.json")), reference.createOnWrite.after);
    const projectExists = await Deno.stat(join(cwd, ".pi")).then(() => true, () => false);
    assertEquals(projectExists, reference.createOnWrite.projectExists);
  });
});

test("SET-01 settings.json with comments is accepted and keeps its comments after a write", async () => {
  await withDirs(async (cwd, agentDir) => {
    await Deno.mkdir(agentDir);
    const path = join(agentDir, "settings.json");
    const original = [
      "{",
      "  // my favourite theme",
      '  "theme": "dark",',
      "  /* compaction tuning */",
      '  "compaction": {',
      '    "reserveTokens": 1000, // keep room',
      "  },",
      "}",
    ].join("\n");
    await Deno.writeTextFile(path, original);
    const sm = SettingsManager.create(cwd, agentDir);
    assertEquals(sm.drainErrors(), []);
    assertEquals(sm.getTheme(), "dark");
    assertEquals(sm.getCompactionReserveTokens(), 1000);
    sm.setTheme("light");
    sm.setCompactionEnabled(false);
    sm.setQuietStartup(true);
    await sm.flush();
    const after = await Deno.readTextFile(path);
    for (const comment of ["// my favourite theme", "/* compaction tuning */", "// keep room"]) {
      assert(after.includes(comment), `lost comment ${comment}:\n${after}`);
    }
    const reloaded = SettingsManager.create(cwd, agentDir);
    assertEquals(reloaded.getTheme(), "light");
    assertEquals(reloaded.getCompactionSettings(), {
      enabled: false,
      reserveTokens: 1000,
      keepRecentTokens: 20000,
    });
    assertEquals(reloaded.getQuietStartup(), true);
  });
});

test("SET-04 sessionDir expands ~ and overrides are not persisted", async () => {
  await withDirs(async (cwd, agentDir) => {
    const sm = SettingsManager.inMemory({ sessionDir: "~/sessions" });
    assertEquals(sm.getSessionDir(), join(Deno.env.get("HOME") ?? "", "sessions"));
    const file = SettingsManager.create(cwd, agentDir);
    file.applyOverrides({ theme: "x" });
    assertEquals(file.getTheme(), "x");
    await file.flush();
    const exists = await Deno.stat(join(agentDir, "settings.json")).then(() => true, () => false);
    assertEquals(exists, false);
  });
});
