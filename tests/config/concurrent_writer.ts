/**
 * Subprocess used by concurrency_test.ts: performs `count` updates to auth.json (one new provider each) and
 * to settings.json (a growing list under a key this process owns), interleaving with a sibling process.
 * Usage: deno run -A concurrent_writer.ts <agentDir> <cwd> <tag> <count> <extensions|skills>
 */
import { join } from "node:path";
import { AuthStorage } from "../../src/config/auth_storage.ts";
import { SettingsManager } from "../../src/config/settings_manager.ts";

const [agentDir, cwd, tag, countText, settingsKey] = Deno.args;
const count = Number(countText);
const auth = AuthStorage.create(join(agentDir, "auth.json"));
const settings = SettingsManager.create(cwd, agentDir);
for (let i = 0; i < count; i++) {
  auth.set(`${tag}-${i}`, { type: "api_key", key: `key-${tag}-${i}` });
  const list = Array.from({ length: i + 1 }, (_, j) => `${tag}/${j}`);
  if (settingsKey === "extensions") settings.setExtensionPaths(list);
  else settings.setSkillPaths(list);
  // Flush every update so each one is a separate locked read-modify-write of the file.
  await settings.flush();
}
const errors = [...auth.drainErrors(), ...settings.drainErrors().map((e) => e.error)];
if (errors.length > 0) {
  console.error(errors.map((e) => e.message).join("\n"));
  Deno.exit(1);
}
