/**
 * Issue 18: scripts/build.ts is the one place the compile command is written, and it takes the
 * runtime flags from deno.json's `pi` task, so a binary runs like `deno task pi` and the two
 * cannot drift. The last test runs the real `deno compile` for this machine's target with
 * DENORT_BIN naming this `deno` (no download): deno accepts every flag and embeds the whole
 * module graph. That output is not a working pi (a full deno ignores the embedded program); only
 * the release workflow, with the real denort, builds one.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes, assertThrows } from "../support/assert.ts";
import { compileArgs, compileConfig, TARGETS, TASK_ONLY_FLAGS } from "../../scripts/build.ts";
import { parsePiTask, readPiTask } from "../../scripts/release/pi_task.ts";

const REPO = new URL("../../", import.meta.url);
const ROOT = REPO.pathname.replace(/\/$/, "");
const denoJson = JSON.parse(Deno.readTextFileSync(new URL("deno.json", REPO)));

async function build(args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "scripts/build.ts", ...args],
    cwd: ROOT,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

Deno.test("build: the five targets and their asset names (install.sh and pi update download these)", () => {
  assertEquals(TARGETS, {
    "x86_64-unknown-linux-gnu": "pi-linux-x64",
    "aarch64-unknown-linux-gnu": "pi-linux-arm64",
    "x86_64-apple-darwin": "pi-darwin-x64",
    "aarch64-apple-darwin": "pi-darwin-arm64",
    "x86_64-pc-windows-msvc": "pi-windows-x64.exe",
  });
});

Deno.test("build: deno compile gets exactly the flags of deno.json's pi task (but --quiet and lazy imports)", async () => {
  const task = await readPiTask();
  assertEquals(task.command, denoJson.tasks.pi);
  assertEquals(task.entry, "main.ts");
  // The task as it is today; build.ts reads it, this only pins what that means.
  assertEquals(task.flags, [
    "--quiet",
    "--allow-all",
    "--no-prompt",
    "--frozen",
    "--unstable-lazy-dynamic-imports",
    "--unstable-worker-options",
    "--v8-flags=--max-semi-space-size=1",
  ]);
  assertEquals(TASK_ONLY_FLAGS, ["--quiet", "--unstable-lazy-dynamic-imports"]);
  assertEquals(compileArgs(task, "aarch64-apple-darwin", "/out", "/repo", "/repo/deno.compile.json"), [
    "compile",
    "--config",
    "/repo/deno.compile.json",
    "--allow-all",
    "--no-prompt",
    "--frozen",
    "--unstable-worker-options",
    "--v8-flags=--max-semi-space-size=1",
    "--include",
    "/repo/src/extensions/worker_runtime.ts",
    "--target",
    "aarch64-apple-darwin",
    "--output",
    "/out/pi-darwin-arm64",
    "/repo/main.ts",
  ]);
  // The config deno compile reads is deno.json without the lazy imports feature, nothing else.
  const { unstable, ...rest } = compileConfig(denoJson);
  assertEquals(unstable, denoJson.unstable.filter((feature: string) => feature !== "lazy-dynamic-imports"));
  assertEquals(unstable, ["worker-options"]);
  const { unstable: _, ...original } = denoJson;
  assertEquals(rest, original);
});

Deno.test("build: a flag added to the pi task reaches deno compile (no second list to forget)", () => {
  const changed = {
    ...denoJson,
    tasks: {
      ...denoJson.tasks,
      pi: denoJson.tasks.pi.replace(" main.ts", " --unstable-kv --v8-flags=--stack-size=2000 main.ts"),
    },
  };
  const args = compileArgs(parsePiTask(changed), "x86_64-unknown-linux-gnu", "/out", "/repo", "/c.json");
  assertEquals(args.slice(-9, -7), ["--unstable-kv", "--v8-flags=--stack-size=2000"]);
  const removed = { ...denoJson, tasks: { ...denoJson.tasks, pi: "deno run --allow-all main.ts" } };
  assertEquals(
    compileArgs(parsePiTask(removed), "x86_64-unknown-linux-gnu", "/out", "/repo", "/c.json").slice(0, 5),
    ["compile", "--config", "/c.json", "--allow-all", "--include"],
  );
});

Deno.test("build: a pi task that is not `deno run <flags> <entry>` is refused with the reason", () => {
  const withTask = (pi: unknown) => ({ tasks: { pi } });
  assertThrows(
    () => parsePiTask({ tasks: {} }),
    'deno.json: tasks.pi is missing (expected "deno run … main.ts")',
  );
  assertThrows(
    () => parsePiTask(withTask("deno run -A main.ts && echo done")),
    "deno.json: tasks.pi must be plain words without quotes or shell operators: deno run -A main.ts && echo done",
  );
  assertThrows(
    () => parsePiTask(withTask("deno serve -A main.ts")),
    'tasks.pi must be "deno run <flags> <entry>.ts"',
  );
  assertThrows(
    () => parsePiTask(withTask("deno run -A extra main.ts")),
    'deno.json: tasks.pi has "extra" before its entry; only flags may stand there',
  );
  // The object form of a task is read too.
  assertEquals(parsePiTask(withTask({ command: "deno run -A main.ts" })).flags, ["-A"]);
});

Deno.test("build: --dry-run prints one deno compile per target into dist/, runs nothing", async () => {
  const run = await build(["--dry-run"]);
  assertEquals(run.code, 0, run.stderr);
  const task = await readPiTask();
  assertEquals(
    run.stdout,
    Object.keys(TARGETS).map((target) =>
      `deno ${compileArgs(task, target, `${ROOT}/dist`, ROOT, `${ROOT}/deno.compile.json`).join(" ")}\n`
    ).join(""),
  );
  assertStringIncludes(run.stdout, `--output ${ROOT}/dist/pi-windows-x64.exe ${ROOT}/main.ts\n`);
});

Deno.test("build: an unknown target or option exits 2 naming the known ones", async () => {
  const target = await build(["--dry-run", "x86_64-unknown-freebsd"]);
  assertEquals([target.code, target.stdout], [2, ""]);
  assertEquals(
    target.stderr,
    `unknown target: x86_64-unknown-freebsd (known: ${Object.keys(TARGETS).join(", ")})\n`,
  );
  const option = await build(["--fast"]);
  assertEquals([option.code, option.stderr], [
    2,
    "unknown option: --fast (usage: build.ts [--dry-run] [--out-dir DIR] [target...])\n",
  ]);
});

Deno.test("build: deno compile accepts the flags and embeds every module pi imports (DENORT_BIN = this deno)", async () => {
  const out = await Deno.makeTempDir({ prefix: "pi-build-" });
  try {
    const env = { DENORT_BIN: Deno.execPath(), NO_COLOR: "1" };
    const run = await build(["--out-dir", out, "x86_64-unknown-linux-gnu"], env);
    assertEquals(run.code, 0, run.stderr);
    // deno compile lists what it embeds: the modules behind import() too, not main.ts alone.
    const listing = run.stdout + run.stderr;
    const modules = [
      "main_flow.ts",
      "print_mode.ts",
      "rpc_mode.ts",
      "interactive_mode.ts",
      "documentation_bundle.ts",
      // Imported only by an extension's Worker, through a URL: embedded by --include.
      "worker_runtime.ts",
    ];
    for (const module of modules) {
      assertStringIncludes(listing, `── ${module} (`);
    }
    const binary = join(out, "pi-linux-x64");
    const size = (await Deno.stat(binary)).size;
    const runtime = (await Deno.stat(Deno.execPath())).size;
    assert(size > runtime + 50_000_000, `${size} bytes is not the runtime (${runtime}) plus pi's modules`);
    // The config copy is gone again.
    assertEquals(await Deno.stat(join(ROOT, "deno.compile.json")).catch(() => "gone"), "gone");
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
