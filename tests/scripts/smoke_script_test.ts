/**
 * Issue 18: the release smoke test (scripts/smoke/smoke.ts) runs on every release runner against
 * the compiled binary, which cannot be built here. So the script itself is verified here: with the
 * source form (the pi task's command line) it passes all its checks, and pointed at a stand-in
 * "binary" that gets one thing wrong it fails, naming the check.
 */
import { join } from "node:path";
import { assertEquals, assertStringIncludes } from "../support/assert.ts";
import { denoDir } from "../support/agent_env.ts";
import { VERSION } from "../../src/version.ts";

const REPO = new URL("../../", import.meta.url);
const ROOT = REPO.pathname.replace(/\/$/, "");

async function smoke(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "scripts/smoke/smoke.ts", ...args],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

Deno.test("release smoke: the source form passes --version, the extension next to it, the image read, -p", async () => {
  const run = await smoke(["--source"]);
  assertEquals(run.stderr, "");
  assertEquals(run.code, 0);
  assertEquals(run.stdout.split("\n"), [
    "smoke: source form (deno run main.ts)",
    `smoke: ok   --version: ${VERSION} (deno source)`,
    "smoke: ok   extension: ./hello_ext.ts next to the binary registered smoke_hello, which answered",
    "smoke: ok   image read: smoke.png 2400x16 resized (photon) and sent as 2000x13",
    'smoke: ok   -p: printed "smoke ok", exit 0',
    "",
  ]);
});

/**
 * A shell script standing in for a binary: `--version` prints `version`; anything else runs
 * main.ts, after running `before` (shell commands).
 */
async function standIn(dir: string, version: string, before = ""): Promise<string> {
  const path = join(dir, "pi-linux-x64");
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\nif [ "$1" = "--version" ]; then echo '${version}'; exit 0; fi\n${before}\n` +
      `DENO_DIR='${denoDir()}' exec '${Deno.execPath()}' run -A --config '${ROOT}/deno.json' '${ROOT}/main.ts' "$@"\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

Deno.test("release smoke: a binary that says the wrong form or version fails the --version check (exit 1)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pi-smoke-" });
  try {
    const run = await smoke(["--binary", await standIn(dir, `${VERSION} (deno source)`)]);
    assertEquals(run.code, 1);
    assertStringIncludes(run.stdout, "smoke: binary ");
    assertEquals(
      run.stderr,
      `smoke: FAILED --version: expected "${VERSION} (binary)"\n  exit code: 0\n` +
        `  stdout: "${VERSION} (deno source)\\n"\n  stderr: ""\n`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("release smoke: a binary whose image read sends no image fails the image check (exit 1)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pi-smoke-" });
  try {
    // Stands for a binary without photon: the images.blockImages setting keeps images out, so the
    // read tool's result has none.
    const binary = await standIn(
      dir,
      `${VERSION} (binary)`,
      `echo '{"images":{"blockImages":true}}' > "$PI_CODING_AGENT_DIR/settings.json"`,
    );
    const run = await smoke(["--binary", binary]);
    assertEquals(run.code, 1);
    assertStringIncludes(run.stdout, `smoke: ok   --version: ${VERSION} (binary)\n`);
    assertStringIncludes(
      run.stdout,
      "smoke: ok   extension: ./hello_ext.ts next to the binary registered smoke_hello",
    );
    assertStringIncludes(run.stderr, "smoke: FAILED image read: the read tool's result carries no image\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
