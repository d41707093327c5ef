/**
 * PKG: `pi update` for packages with the real npm and git, compared with pi 1.6.0 step by step: an
 * unpinned npm package moves when the local registry gets a newer version, a pinned one never does,
 * a git package follows its branch, a pinned git ref stays; targets that match nothing and flag
 * conflicts are errors. `pi update` for pi itself says how this build is updated.
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { requireReferenceCli, spawnPi } from "../support/spawn_pi.ts";
import { disk, makeSandbox, type Observed, runIn, startFixtureRegistry } from "./packages_fixture.ts";

const CHILD_LINE = /^$|^(added|changed|removed|up to date)\b|^HEAD is now at /;

Deno.test("PKG-04 pi update --extensions / <source> matches pi 1.6.0 (npm range and pin, git branch and ref, errors)", async () => {
  requireReferenceCli();
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-pkg-" }));
  const registry = startFixtureRegistry(base);
  try {
    await registry.publish("pi-fixture", "1.0.0", { "prompts/a.md": "A\n" });
    await registry.publish("pi-pinned", "1.0.0", { "prompts/b.md": "B\n" });
    const ours = await makeSandbox(registry, base, "ours");
    const ref = await makeSandbox(registry, base, "ref");
    const both = async (step: string[]) => {
      // npm's and git's own lines are left out: 1.6.0 runs the npm and git updates at the same time,
      // so where their output falls between pi's lines is a race.
      const own = (o: Observed) => ({
        ...o,
        stdout: o.stdout.split("\n").filter((line) => !CHILD_LINE.test(line)).join("\n"),
      });
      const [a, b] = [own(await runIn(ours, step, false)), own(await runIn(ref, step, true))];
      assertEquals(a, b, `pi ${step.join(" ")}`);
      assertEquals(await disk(ours), await disk(ref), `files after pi ${step.join(" ")}`);
      return a;
    };
    for (
      const step of [
        ["install", "npm:pi-fixture"],
        ["install", "npm:pi-pinned@1.0.0"],
        ["install", "git:example.test/alice/tools"],
        ["update", "--extensions"],
        ["update", "npm:nothing"],
        ["update", "pi-fixture"],
        ["update", "--all", "--models"],
        ["update", "--extension"],
        ["update", "-l"],
      ]
    ) await both(step);
    await registry.publish("pi-fixture", "1.1.0", { "prompts/a.md": "A2\n" });
    await registry.publish("pi-pinned", "1.1.0", { "prompts/b.md": "B2\n" });
    for (const box of [ours, ref]) await box.repo.commit({ "prompts/new.md": "New\n" });
    const updated = await both(["update", "--extensions"]);
    assertEquals(updated.code, 0);
    const lines = updated.stdout.split("\n");
    assertEquals(lines.slice(0, 2), [
      "Updating npm:pi-fixture...",
      "Updating git:example.test/alice/tools...",
    ]);
    assertEquals(lines.slice(2, 4), ["Updated 2 packages:", "  npm:pi-fixture 1.0.0 -> 1.1.0"]);
    assertEquals(lines[4].startsWith("  git:example.test/alice/tools "), true);
    for (const step of [["update", "--extensions"], ["update", "git:example.test/alice/tools"]]) {
      await both(step);
    }
    const pinned = JSON.parse(
      await Deno.readTextFile(join(ours.agentDir, "npm", "node_modules", "pi-pinned", "package.json")),
    );
    assertEquals(pinned.version, "1.0.0");
  } finally {
    await registry.close();
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("PKG-05 pi update for pi itself says how this installation is updated (exit 1), after the package note (--models: update_models_e2e_test.ts)", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-pkg-" }));
  const registry = startFixtureRegistry(base);
  try {
    const box = await makeSandbox(registry, base, "ours");
    const checkout = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
    for (const args of [["update"], ["update", "self"], ["update", "--self"], ["update", "pi"]]) {
      const run = await spawnPi(args, { env: box.env, cwd: box.cwd });
      assertEquals(run.code, 1, args.join(" "));
      assertEquals(
        run.stdout,
        args.length === 1 ? "Extensions are skipped. Run pi update --extensions to update extensions.\n" : "",
      );
      assertEquals(
        run.stderr,
        "error: pi cannot self-update this installation.\n" +
          `This is pi for Deno run from ${checkout}. Update it with \`git -C ${checkout} pull\`, ` +
          "then run `deno task install` there if the pi command should be re-created.\n" +
          "To make `pi update` run your own update command, set PI_SELF_UPDATE_COMMAND or the selfUpdateCommand setting.\n" +
          "Packages are updated with `pi update --extensions`.\n",
      );
    }
  } finally {
    await registry.close();
    await Deno.remove(base, { recursive: true });
  }
});
