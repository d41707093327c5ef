import { assertEquals } from "../support/assert.ts";
import { join } from "node:path";
import {
  expandTildePath,
  getAgentDir,
  getAuthPath,
  getModelsPath,
  getSettingsPath,
  isTruthyEnvFlag,
  resolveSessionDir,
} from "../../src/config/paths.ts";
import type { EnvSource } from "../../src/util/os.ts";

const test = Deno.test;

/** An environment holding exactly `vars` (the process environment is never changed). */
function envOf(vars: Record<string, string>): EnvSource {
  return { get: (name) => vars[name] };
}

const HOME = "/home/user";

test("CLI-26 agent dir defaults to ~/.pi/agent and honours PI_CODING_AGENT_DIR with ~ expansion", () => {
  assertEquals(getAgentDir(envOf({ HOME })), join(HOME, ".pi", "agent"));
  const env = envOf({ HOME, PI_CODING_AGENT_DIR: "~/custom-agent" });
  assertEquals(getAgentDir(env), join(HOME, "custom-agent"));
  assertEquals(getAuthPath(env), join(HOME, "custom-agent", "auth.json"));
  assertEquals(getModelsPath(env), join(HOME, "custom-agent", "models.json"));
  assertEquals(getSettingsPath(env), join(HOME, "custom-agent", "settings.json"));
  assertEquals(getAgentDir(envOf({ HOME, PI_CODING_AGENT_DIR: "/abs/agent" })), "/abs/agent");
  assertEquals(expandTildePath("~", env), HOME);
  assertEquals(expandTildePath("/abs/~/x", env), "/abs/~/x");
});

test("CLI-26 without an explicit environment the process's HOME and PI_CODING_AGENT_DIR are read", () => {
  const processEnv = envOf(Deno.env.toObject());
  assertEquals(getAgentDir(), getAgentDir(processEnv));
  assertEquals(expandTildePath("~/x"), expandTildePath("~/x", processEnv));
});

test("CLI-25 session dir precedence: --session-dir > PI_CODING_AGENT_SESSION_DIR > settings", () => {
  const env = envOf({ HOME, PI_CODING_AGENT_SESSION_DIR: "~/env-sessions" });
  assertEquals(resolveSessionDir("/cli", "/settings", env), "/cli");
  assertEquals(resolveSessionDir(undefined, "/settings", env), join(HOME, "env-sessions"));
  assertEquals(resolveSessionDir(undefined, "/settings", envOf({ HOME })), "/settings");
  assertEquals(resolveSessionDir(undefined, undefined, envOf({ HOME })), undefined);
});

test("CLI-26 PI_OFFLINE and other flags accept 1/true/yes in any case", () => {
  for (
    const [value, expected] of [["1", true], ["TRUE", true], ["yes", true], ["0", false], [
      "",
      false,
    ]] as const
  ) {
    assertEquals(isTruthyEnvFlag(value || undefined), expected, value);
  }
});
