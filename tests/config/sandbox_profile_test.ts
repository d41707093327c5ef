/**
 * Sandbox profiles as Deno permission plans (issue 15): the built-in provider host list matches
 * the model catalogue, each profile grants what docs/security.md says, and bad settings are errors
 * naming the file.
 *
 * @module
 */
import { assertEquals, assertThrows } from "../support/assert.ts";
import { BUILTIN_PROVIDER_HOSTS } from "../../src/config/sandbox_hosts.ts";
import {
  parseSandboxSetting,
  sandboxDenoFlags,
  type SandboxPlaces,
  sandboxPlan,
} from "../../src/config/sandbox_profile.ts";

Deno.test("sandbox hosts: the list is the catalogue's base-URL hosts (placeholders left out)", async () => {
  const dir = new URL("../../src/ai/models/", import.meta.url);
  const hosts = new Set<string>();
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.name.endsWith(".json") || entry.name.startsWith("_")) continue;
    const models = JSON.parse(await Deno.readTextFile(new URL(entry.name, dir))) as Record<
      string,
      { baseUrl: string }
    >;
    for (const model of Object.values(models)) {
      if (!model.baseUrl || model.baseUrl.includes("{")) continue;
      hosts.add(new URL(model.baseUrl).host);
    }
  }
  assertEquals([...BUILTIN_PROVIDER_HOSTS], [...hosts].sort());
});

const PLACES: SandboxPlaces = {
  projectDir: "/w/proj",
  agentDir: "/h/.pi/agent",
  sessionDir: "/h/.pi/agent/sessions",
  tempDir: "/tmp",
  codeDirs: ["/opt/pi"],
  providerHosts: ["api.anthropic.com", "127.0.0.1:4000"],
  bwrap: "/usr/bin/bwrap",
};
const SETTING = { allowNet: ["example.com"], allowRead: ["/data"], allowWrite: ["/out"] };
const LOCKS = [
  "/h/.pi/agent/settings.json.lock",
  "/h/.pi/agent/auth.json.lock",
  "/h/.pi/agent/trust.json.lock",
  "/w/proj/.pi/settings.json.lock",
];

Deno.test("sandbox read-only: reads project, agent dir, code and temp; writes sessions, cache and locks; runs nothing", () => {
  const plan = sandboxPlan("read-only", PLACES, SETTING, (p) => p);
  assertEquals(plan.read, ["/w/proj", "/h/.pi/agent", "/h/.pi/agent/sessions", "/tmp", "/opt/pi", "/data"]);
  assertEquals(plan.write, ["/h/.pi/agent/sessions", "/h/.pi/agent/cache", ...LOCKS]);
  assertEquals(plan.net, ["api.anthropic.com", "127.0.0.1:4000", "example.com"]);
  assertEquals(plan.run, []);
  assertEquals(sandboxDenoFlags(plan), [
    "--no-prompt",
    "--allow-env",
    "--allow-sys",
    "--allow-read=/w/proj,/h/.pi/agent,/h/.pi/agent/sessions,/tmp,/opt/pi,/data",
    `--allow-write=/h/.pi/agent/sessions,/h/.pi/agent/cache,${LOCKS.join(",")}`,
    "--allow-net=api.anthropic.com,127.0.0.1:4000,example.com",
    // The installed launcher's cached plans (src/cli/sandbox_plan_cache.ts): never writable.
    "--deny-write=/h/.pi/agent/sandbox-plans",
  ]);
});

Deno.test("sandbox project: also writes the project, temp and allowWrite; runs only bubblewrap", () => {
  const plan = sandboxPlan("project", PLACES, SETTING, (p) => p);
  assertEquals(plan.write, [
    "/w/proj",
    "/tmp",
    "/h/.pi/agent/sessions",
    "/h/.pi/agent/cache",
    ...LOCKS,
    "/out",
  ]);
  assertEquals(plan.run, ["/usr/bin/bwrap"]);
  assertEquals(plan.denyWrite, ["/h/.pi/agent/sandbox-plans"]);
  assertEquals(sandboxPlan("project", { ...PLACES, bwrap: undefined }, SETTING, (p) => p).run, []);
});

Deno.test("sandbox flags: a path with a comma cannot be confined and says so", () => {
  const plan = sandboxPlan("read-only", { ...PLACES, projectDir: "/w/a,b" }, SETTING, (p) => p);
  assertThrows(
    () => sandboxDenoFlags(plan),
    'cannot confine pi with the path or host "/w/a,b": it contains a comma',
  );
});

Deno.test("sandbox setting: a name, an object, or an error naming the file", () => {
  assertEquals(parseSandboxSetting(undefined, "s.json"), { allowNet: [], allowRead: [], allowWrite: [] });
  assertEquals(parseSandboxSetting("project", "s.json").profile, "project");
  assertEquals(parseSandboxSetting({ profile: "read-only", allowNet: ["h"] }, "s.json"), {
    profile: "read-only",
    allowNet: ["h"],
    allowRead: [],
    allowWrite: [],
  });
  assertThrows(
    () => parseSandboxSetting("tight", "s.json"),
    's.json: "sandbox" profile must be one of read-only, project, full (got "tight")',
  );
  assertThrows(
    () => parseSandboxSetting({ allowNet: "h" }, "s.json"),
    's.json: "sandbox" allowNet must be a list of non-empty strings',
  );
  assertThrows(
    () => parseSandboxSetting({ profil: "full" }, "s.json"),
    's.json: "sandbox" has an unknown key "profil"',
  );
  assertThrows(
    () => parseSandboxSetting(3, "s.json"),
    's.json: "sandbox" must be a profile name or an object',
  );
});
