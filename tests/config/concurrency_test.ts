import { assertEquals } from "../support/assert.ts";
import { join } from "node:path";

const WRITER = new URL("./concurrent_writer.ts", import.meta.url).pathname;
const COUNT = 200;

Deno.test("AUTH-01 SET-03 two processes updating auth.json and settings.json concurrently lose no update", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "pi-concurrency-" });
  const agentDir = join(cwd, "agent");
  await Deno.mkdir(agentDir);
  // Both files exist up front so every write goes through the lock from the first update on.
  await Deno.writeTextFile(join(agentDir, "settings.json"), '{\n  // shared\n  "theme": "dark"\n}');
  try {
    const spawn = (tag: string, key: string) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-all", "--no-prompt", WRITER, agentDir, cwd, tag, String(COUNT), key],
        stdout: "piped",
        stderr: "piped",
      }).output();
    const [a, b] = await Promise.all([spawn("a", "extensions"), spawn("b", "skills")]);
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    assertEquals({ code: a.code, stderr: decode(a.stderr) }, { code: 0, stderr: "" });
    assertEquals({ code: b.code, stderr: decode(b.stderr) }, { code: 0, stderr: "" });

    const auth = JSON.parse(await Deno.readTextFile(join(agentDir, "auth.json")));
    const expectedProviders = [
      ...["a", "b"].flatMap((t) => Array.from({ length: COUNT }, (_, i) => `${t}-${i}`)),
    ];
    assertEquals(Object.keys(auth).sort(), expectedProviders.sort());
    assertEquals(auth["b-199"], { type: "api_key", key: "key-b-199" });

    const settingsText = await Deno.readTextFile(join(agentDir, "settings.json"));
    const { parseJsonc } = await import("../../src/config/jsonc.ts");
    const settings = parseJsonc(settingsText).value as Record<string, string[]>;
    assertEquals(settings.extensions.length, COUNT);
    assertEquals(settings.skills.length, COUNT);
    assertEquals(settings.theme, "dark");
    assertEquals(settingsText.includes("// shared"), true);
    for (const name of ["auth.json.lock", "settings.json.lock"]) {
      assertEquals(await Deno.stat(join(agentDir, name)).then(() => true, () => false), false);
    }
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});
