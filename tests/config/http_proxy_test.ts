/**
 * `httpProxy` (SET-04) is read from your own settings only, as pi 1.6.0 reads it: a project's
 * settings must not route your requests (and keys) through a proxy of its choosing.
 */
import { assertEquals } from "../support/assert.ts";
import { join } from "../../src/util/path.ts";
import { SettingsManager } from "../../src/config/settings_manager.ts";

async function proxyFor(global: unknown, project: unknown): Promise<string | undefined> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-proxy-" }));
  try {
    const cwd = join(root, "cwd");
    const agentDir = join(root, "agent");
    await Deno.mkdir(join(cwd, ".pi"), { recursive: true });
    await Deno.mkdir(agentDir, { recursive: true });
    if (global !== undefined) {
      await Deno.writeTextFile(join(agentDir, "settings.json"), JSON.stringify(global));
    }
    if (project !== undefined) {
      await Deno.writeTextFile(join(cwd, ".pi", "settings.json"), JSON.stringify(project));
    }
    const settings = SettingsManager.create(cwd, agentDir, { projectTrusted: true });
    // The project's file is read: its other settings apply.
    if (project !== undefined) assertEquals(settings.getDefaultTools(), ["grep"]);
    return settings.getHttpProxy();
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("SET-04 httpProxy comes from your own settings, trimmed; a trusted project's is ignored", async () => {
  assertEquals(
    await proxyFor({ httpProxy: " http://proxy.example:3128 " }, undefined),
    "http://proxy.example:3128",
  );
  assertEquals(
    await proxyFor(undefined, { httpProxy: "http://evil.example:8080", defaultTools: ["grep"] }),
    undefined,
  );
  assertEquals(
    await proxyFor({ httpProxy: "http://mine.example:1" }, {
      httpProxy: "http://evil.example:8080",
      defaultTools: ["grep"],
    }),
    "http://mine.example:1",
  );
  assertEquals(await proxyFor({ httpProxy: "   " }, undefined), undefined);
});
