/**
 * Settings as pi 1.6.0 has them (tests/fixtures/config/settings_reference.json, captured by
 * scripts/capture/config_reference.mjs): every getter's default, how getters normalise or reject values,
 * the recursive global/project merge with `defaultTools` modifiers, project trust gating, migrations,
 * writes, and broken files (whose messages name the file and differ from 1.6.0's on purpose).
 */
import { assert, assertEquals } from "../support/assert.ts";
import { join } from "../../src/util/path.ts";
import { SettingsManager } from "../../src/config/settings_manager.ts";
import type { Settings } from "../../src/config/settings_types.ts";
import { isolatedTest } from "./isolation.ts";

/** Registered only inside the isolated subprocess (no PI_* or EDITOR variables leak in). */
const test = isolatedTest(import.meta.url);

const reference = JSON.parse(
  Deno.readTextFileSync(new URL("../fixtures/config/settings_reference.json", import.meta.url)),
);

async function withDirs(fn: (cwd: string, agentDir: string) => Promise<void>): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-settings-" }));
  try {
    const cwd = join(root, "cwd");
    Deno.mkdirSync(cwd);
    await fn(cwd, join(root, "agent"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function get(fn: () => unknown): unknown {
  try {
    return fn() ?? null;
  } catch (error) {
    return { thrown: (error as Error).message };
  }
}

test("SET-04 every 1.6.0 getter exists here with 1.6.0's default", () => {
  const sm = SettingsManager.inMemory();
  const record = sm as unknown as Record<string, () => unknown>;
  const actual: Record<string, unknown> = {};
  for (const name of Object.keys(reference.defaults)) {
    assert(typeof record[name] === "function", `missing getter ${name}`);
    actual[name] = get(() => record[name]());
  }
  assertEquals(JSON.parse(JSON.stringify(actual)), reference.defaults);
});

test("SET-04 getters normalise or reject values as 1.6.0 does", () => {
  const opus = { provider: "anthropic", id: "claude-opus-5-5" };
  const actual = reference.values.map((c: { input: Settings }) => {
    const m = SettingsManager.inMemory(c.input);
    const key = Object.keys(c.input)[0];
    const pick: Record<string, () => unknown> = {
      quietStartup: () => m.getQuietStartup(),
      defaultThinkingLevel: () => m.getDefaultThinkingLevel(),
      tuiMode: () => m.getTuiMode(),
      outputPad: () => m.getOutputPad(),
      cacheWarming: () => m.getCacheWarmingMode(),
      defaultProjectTrust: () => m.getDefaultProjectTrust(),
      fullscreenWheelScrollLines: () => m.getFullscreenWheelScrollLines(),
      fullscreenScrollbar: () => m.getFullscreenScrollbar(),
      markdown: () => m.getMermaidRenderingMode(),
      httpIdleTimeoutMs: () => m.getHttpIdleTimeoutMs(),
      websocketConnectTimeoutMs: () => m.getWebSocketConnectTimeoutMs(),
      retry: () => m.getRetrySettings(),
      compaction: () => ({
        plain: get(() => m.getCompactionSettings()),
        opus: get(() => m.getCompactionSettings(opus)),
      }),
      defaultTools: () => m.getDefaultTools(),
      terminal: () => ({ caps: m.getTerminalCapabilityOverrides(), width: m.getImageWidthCells() }),
      sessionShareDestination: () => m.getSessionShareDestination(),
      modelThinkingLevels: () => m.getModelThinkingLevel("anthropic", "claude-opus-5-5"),
      imageWidthCells: () => m.getImageWidthCells(),
      treeFilterMode: () => m.getTreeFilterMode(),
      theme: () => ({ theme: m.getTheme(), setting: m.getThemeSetting() }),
    };
    return { input: c.input, result: JSON.parse(JSON.stringify(get(pick[key]))) };
  });
  assertEquals(actual, reference.values);
});

test("SET-01 global and project merge recursively; defaultTools modifiers stack; untrusted projects are skipped", async () => {
  await withDirs(async (cwd, agentDir) => {
    const expected = reference.merge;
    Deno.mkdirSync(agentDir, { recursive: true });
    Deno.mkdirSync(join(cwd, ".pi"));
    Deno.writeTextFileSync(join(agentDir, "settings.json"), JSON.stringify(expected.global));
    Deno.writeTextFileSync(join(cwd, ".pi/settings.json"), JSON.stringify(expected.project));
    const sm = SettingsManager.create(cwd, agentDir);
    assertEquals(sm.getSettings(), expected.effective);
    assertEquals(sm.getDefaultTools(), expected.defaultTools);

    const untrusted = SettingsManager.create(cwd, agentDir, { projectTrusted: false });
    let writeError: string | null = null;
    try {
      untrusted.setProjectSkillPaths(["x"]);
    } catch (error) {
      writeError = (error as Error).message;
    }
    assertEquals({
      effective: untrusted.getSettings(),
      projectSettings: untrusted.getProjectSettings(),
      writeError,
      projectFile: Deno.readTextFileSync(join(cwd, ".pi/settings.json")),
    }, expected.untrusted);
    // Trusting later loads the project layer.
    untrusted.setProjectTrusted(true);
    assertEquals(untrusted.getSettings(), expected.effective);

    sm.setProjectSkillPaths(["p2"]);
    await sm.flush();
    assertEquals(Deno.readTextFileSync(join(cwd, ".pi/settings.json")), expected.projectAfter);
  });
});

test("SET-05 old keys migrate; azure-openai-responses is left as written (1.6.0 does not migrate it)", async () => {
  await withDirs(async (cwd, agentDir) => {
    const expected = reference.migration;
    Deno.mkdirSync(agentDir, { recursive: true });
    Deno.writeTextFileSync(join(agentDir, "settings.json"), expected.input);
    const sm = SettingsManager.create(cwd, agentDir);
    assertEquals(
      Deno.readTextFileSync(join(agentDir, "settings.json")) === expected.input,
      expected.untouchedOnLoad,
    );
    sm.setTheme("t");
    await sm.flush();
    assertEquals(sm.getGlobalSettings(), expected.global);
    assertEquals(Deno.readTextFileSync(join(agentDir, "settings.json")), expected.after);
  });
});

test("SET-03 1.6.0 setters write only what they change, with 1.6.0's clamping", async () => {
  await withDirs(async (cwd, agentDir) => {
    Deno.mkdirSync(agentDir, { recursive: true });
    const path = join(agentDir, "settings.json");
    Deno.writeTextFileSync(
      path,
      JSON.stringify({ theme: "dark", compaction: { reserveTokens: 1 }, other: true }),
    );
    const sm = SettingsManager.create(cwd, agentDir);
    Deno.writeTextFileSync(
      path,
      JSON.stringify({ theme: "dark", compaction: { reserveTokens: 1, keepRecentTokens: 7 }, other: true }),
    );
    sm.setCompactionEnabled(false);
    sm.setDefaultModelAndProvider("anthropic", "claude-opus-5-5");
    sm.setEditorPaddingX(9);
    sm.setAutocompleteMaxVisible(1);
    sm.setDefaultThinkingLevel("max");
    sm.setModelThinkingLevel("openai", "gpt-6.2-sol", "max");
    sm.setQuietStartup("header");
    sm.setTuiMode("regular");
    sm.setOutputPad(0);
    sm.setMermaidRenderingMode("off");
    sm.setCacheWarmingMode("off");
    sm.setDefaultProjectTrust("never");
    sm.setFullscreenWheelScrollLines(0);
    await sm.flush();
    assertEquals(
      { after: Deno.readTextFileSync(path), errors: sm.drainErrors().map((e) => e.error.message) },
      reference.writes,
    );
  });
});

test("SET-02 broken settings files name the file and the line, keep their values out, and are never overwritten", async () => {
  await withDirs(async (cwd, agentDir) => {
    // Ours where it differs from 1.6.0: no quoted text from V8, line and column first; an array is an error
    // (1.6.0 writes it back as {"0": …}); comments are accepted (JSONC), as in 0.73.1-compatible files.
    const ours: Record<string, string[]> = {
      '{"theme": "dark",, }': ["line 1, column 18: Expected double-quoted property name"],
      '{"theme": ': ["Unexpected end of JSON input"],
      "[1, 2]": ["expected an object of settings"],
      '\uFEFF{"theme": "bom"}': [],
      '{"theme": "dark" /* comment */}': [],
    };
    for (const c of reference.broken as { scope: "global" | "project"; input: string; theme: string }[]) {
      const dir = c.scope === "global" ? agentDir : join(cwd, ".pi");
      Deno.mkdirSync(dir, { recursive: true });
      const file = join(dir, "settings.json");
      Deno.writeTextFileSync(file, c.input);
      const sm = SettingsManager.create(cwd, agentDir);
      sm.setTheme("light");
      await sm.flush();
      const errors = sm.drainErrors();
      assertEquals(
        errors.map((e) => ({ scope: e.scope, path: e.path, message: e.error.message })),
        ours[c.input].map((detail) => ({
          scope: c.scope,
          path: file,
          message: `Invalid settings file ${file}: ${detail}`,
        })),
        c.input,
      );
      assertEquals(sm.getTheme(), c.theme);
      if (ours[c.input].length > 0) assertEquals(Deno.readTextFileSync(file), c.input, c.input);
      Deno.removeSync(file);
    }
  });
});

test("SET-03 a first write creates the global file; the project folder is not created", async () => {
  await withDirs(async (cwd, agentDir) => {
    const sm = SettingsManager.create(cwd, agentDir);
    const existsBefore = (() => {
      try {
        Deno.statSync(agentDir);
        return true;
      } catch {
        return false;
      }
    })();
    sm.setShowImages(false);
    await sm.flush();
    let projectExists = true;
    try {
      Deno.statSync(join(cwd, ".pi"));
    } catch {
      projectExists = false;
    }
    assertEquals(
      { existsBefore, after: Deno.readTextFileSync(join(agentDir, "settings.json")), projectExists },
      reference.createOnWrite,
    );
  });
});
