/**
 * PKG: `pi install`, `pi remove`/`uninstall` and `pi list` with the real npm and git, against
 * local fixtures only (an npm registry on 127.0.0.1 serving `npm pack`ed packages, bare git repos
 * reached through a `url.insteadOf` rule in the test's HOME). The same command sequence runs
 * against pi 1.6.0 and ours in two identical environments; what each prints, its exit code, the
 * settings files and the install folders must be the same.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { requireReferenceCli, spawnPi } from "../support/spawn_pi.ts";
import { disk, listing, makeSandbox, readOrNull, runIn, startFixtureRegistry } from "./packages_fixture.ts";

const STEPS: string[][] = [
  ["list"],
  ["install", "npm:pi-fixture@1.0.0"],
  ["install", "git:example.test/alice/tools@v1"],
  ["install", "../localpkg"],
  ["list"],
  ["install", "npm:pi-fixture@1.1.0"],
  ["install", "git:example.test/alice/tools@v2"],
  ["install", "npm:does-not-exist"],
  ["install", "git:example.test/alice/other@v1"],
  ["install", "./missing-folder"],
  ["install"],
  ["install", "-x", "npm:a"],
  ["list", "extra"],
  ["list", "-l"],
  ["remove", "npm:nothing"],
  ["remove", "npm:pi-fixture"],
  ["uninstall", "git:example.test/alice/tools"],
  ["list"],
  ["remove", "../localpkg"],
  ["install", "-l", "../localpkg"],
  ["list"],
  ["install", "-l", "npm:pi-fixture@1.0.0", "-na"],
  ["remove", "-l", "../localpkg", "-a"],
];

Deno.test("PKG-01 install, remove and list of npm, git and local packages match pi 1.6.0 (output, exit codes, settings, folders)", async () => {
  requireReferenceCli();
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-pkg-" }));
  const registry = startFixtureRegistry(base);
  try {
    await registry.publish("pi-fixture", "1.0.0", {
      "skills/hi/SKILL.md": "---\nname: hi\ndescription: hi\n---\nx\n",
    });
    await registry.publish("pi-fixture", "1.1.0", {
      "skills/hi/SKILL.md": "---\nname: hi\ndescription: hi 2\n---\nx\n",
    });
    const ours = await makeSandbox(registry, base, "ours");
    const ref = await makeSandbox(registry, base, "ref");
    for (const step of STEPS) {
      const [a, b] = [await runIn(ours, step, false), await runIn(ref, step, true)];
      assertEquals(a, b, `pi ${step.join(" ")}`);
      const [da, db] = [await disk(ours), await disk(ref)];
      assertEquals(da, db, `files after pi ${step.join(" ")}`);
    }
    // The sequence really did something: the last state has the local package gone from the project.
    assertEquals(await readOrNull(join(ours.cwd, ".pi", "settings.json")), '{\n  "packages": []\n}');
  } finally {
    await registry.close();
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("PKG-02 a broken settings.json stops install and remove with an error naming the file; nothing is installed or lost", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-pkg-" }));
  const registry = startFixtureRegistry(base);
  try {
    await registry.publish("pi-fixture", "1.0.0", { "prompts/a.md": "A\n" });
    const box = await makeSandbox(registry, base, "ours");
    const broken = '{"packages": ["npm:kept"],';
    const settingsPath = join(box.agentDir, "settings.json");
    await Deno.writeTextFile(settingsPath, broken);
    for (const args of [["install", "npm:pi-fixture@1.0.0"], ["remove", "npm:kept"]]) {
      const run = await spawnPi(args, { env: box.env, cwd: box.cwd });
      assertEquals(run.code, 1, args.join(" "));
      assertEquals(run.stdout, "");
      const lines = run.stderr.trimEnd().split("\n");
      assert(lines[0].startsWith("Warning (package command, global settings): "), run.stderr);
      assertEquals(
        lines[1].startsWith(`Error: ${settingsPath} could not be read (`) &&
          lines[1].endsWith("); fix it first, nothing was changed"),
        true,
        run.stderr,
      );
      assertEquals(await Deno.readTextFile(settingsPath), broken);
      assertEquals(await listing(join(box.agentDir, "npm")), ["<missing>"]);
    }
    // list still works and says what it could not read.
    const list = await spawnPi(["list"], { env: box.env, cwd: box.cwd });
    assertEquals(list.code, 0);
    assertEquals(list.stdout, "No packages installed.\n");
  } finally {
    await registry.close();
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("PKG-02 an unreachable npm registry: install is a clear error with exit 1, settings and folders unchanged, as pi 1.6.0", async () => {
  requireReferenceCli();
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-pkg-" }));
  const registry = startFixtureRegistry(base);
  // A port nothing listens on: the connection is refused at once.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const deadPort = (listener.addr as Deno.NetAddr).port;
  listener.close();
  try {
    const results = [];
    for (const [name, reference] of [["ours", false], ["ref", true]] as const) {
      const box = await makeSandbox(registry, base, name);
      const settingsPath = join(box.agentDir, "settings.json");
      const before = '{\n  "packages": [\n    "npm:kept"\n  ]\n}\n';
      await Deno.writeTextFile(settingsPath, before);
      box.env.NPM_CONFIG_REGISTRY = `http://127.0.0.1:${deadPort}/`;
      box.env.NPM_CONFIG_FETCH_RETRIES = "0";
      const run = await runIn(box, ["install", "npm:pi-fixture@1.0.0"], reference);
      assertEquals(await Deno.readTextFile(settingsPath), before, `${name}: settings unchanged`);
      results.push({ ...run, disk: await disk(box) });
    }
    assertEquals(results[0], results[1]);
    assertEquals(results[0].code, 1);
    assert(results[0].stderr.some((line) => line.startsWith("Error")), JSON.stringify(results[0]));
  } finally {
    await registry.close();
    await Deno.remove(base, { recursive: true });
  }
});
