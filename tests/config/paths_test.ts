import { assertEquals } from "../support/assert.ts";
import { homedir } from "node:os";
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
import { isolatedTest } from "./isolation.ts";

/** Registered only inside the isolated subprocess (see isolation.ts). */
const test = isolatedTest(import.meta.url);

function withEnv(vars: Record<string, string | undefined>, fn: () => void): void {
  const saved: Record<string, string | undefined> = {};
  for (const key of Object.keys(vars)) saved[key] = Deno.env.get(key);
  const apply = (values: Record<string, string | undefined>) => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) Deno.env.delete(key);
      else Deno.env.set(key, value);
    }
  };
  apply(vars);
  try {
    fn();
  } finally {
    apply(saved);
  }
}

test("CLI-26 agent dir defaults to ~/.pi/agent and honours PI_CODING_AGENT_DIR with ~ expansion", () => {
  withEnv({ PI_CODING_AGENT_DIR: undefined }, () => {
    assertEquals(getAgentDir(), join(homedir(), ".pi", "agent"));
  });
  withEnv({ PI_CODING_AGENT_DIR: "~/custom-agent" }, () => {
    assertEquals(getAgentDir(), join(homedir(), "custom-agent"));
    assertEquals(getAuthPath(), join(homedir(), "custom-agent", "auth.json"));
    assertEquals(getModelsPath(), join(homedir(), "custom-agent", "models.json"));
    assertEquals(getSettingsPath(), join(homedir(), "custom-agent", "settings.json"));
  });
  assertEquals(expandTildePath("~"), homedir());
  assertEquals(expandTildePath("/abs/~/x"), "/abs/~/x");
});

test("CLI-25 session dir precedence: --session-dir > PI_CODING_AGENT_SESSION_DIR > settings", () => {
  withEnv({ PI_CODING_AGENT_SESSION_DIR: "~/env-sessions" }, () => {
    assertEquals(resolveSessionDir("/cli", "/settings"), "/cli");
    assertEquals(resolveSessionDir(undefined, "/settings"), join(homedir(), "env-sessions"));
  });
  withEnv({ PI_CODING_AGENT_SESSION_DIR: undefined }, () => {
    assertEquals(resolveSessionDir(undefined, "/settings"), "/settings");
    assertEquals(resolveSessionDir(undefined, undefined), undefined);
  });
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
