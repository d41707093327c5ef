/**
 * TOOL-01 the committed tool fixtures are what the live reference (1.6.0) produces today: both
 * capture scripts run under the reference's node into a temp folder and every fixture file must
 * equal the committed one, up to what is timing (the order of a parallel search, the output of a
 * background loop before a timeout). Without the reference installed the other tool tests use the
 * stored captures, and this test says so in one loud line.
 */
import { dirname, join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { useReferenceFixtures } from "../support/spawn_pi.ts";
import { requireReference } from "../../scripts/reference/locate.ts";

const REPO = new URL("../../", import.meta.url).pathname;
const FIXTURES = join(REPO, "tests/fixtures/tools");
const TOOLS = ["read", "write", "edit", "bash", "grep", "find", "ls", "validation"];

type Json = Record<string, unknown>;

/** A case with what is timing replaced by what is not. */
function canonicalCase(c: Json): Json {
  const expected = c.expected as { text?: string; error?: string } | undefined;
  if (!expected) return c;
  if (c.ordered === false && expected.text !== undefined) {
    return { ...c, expected: { ...expected, text: expected.text.split("\n").sort() } };
  }
  if (c.anyOrderSubset && expected.text !== undefined) {
    const [list, notice] = expected.text.split("\n\n");
    return { ...c, expected: { ...expected, text: [list.split("\n").length, notice] } };
  }
  if (c.statusOnly && expected.error !== undefined) {
    return { ...c, expected: { error: expected.error.split("\n\n").at(-1) } };
  }
  return c;
}

function canonical(file: Json): Json {
  return { ...file, cases: (file.cases as Json[]).map(canonicalCase) };
}

async function capture(script: string, out: string, node: string, referenceDir: string): Promise<void> {
  const result = await new Deno.Command(node, {
    args: [join(REPO, "scripts/capture", script)],
    cwd: REPO,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: out,
      TMPDIR: Deno.env.get("TMPDIR") ?? "/tmp",
      PI_REFERENCE_DIR: referenceDir,
      PI_TOOLS_FIXTURE_OUT: out,
    },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!result.success) throw new Error(`${script} failed:\n${new TextDecoder().decode(result.stderr)}`);
}

Deno.test("TOOL-01 the tool fixtures equal a fresh capture from the live reference 1.6.0", async () => {
  if (useReferenceFixtures()) return;
  const ref = requireReference();
  const out = await Deno.makeTempDir({ prefix: "pi-tool-capture-" });
  try {
    const referenceDir = dirname(ref.nodeModules);
    await capture("tools_reference.mjs", out, ref.node, referenceDir);
    await capture("tools_b_reference.mjs", out, ref.node, referenceDir);
    for (const tool of TOOLS) {
      const fresh = JSON.parse(await Deno.readTextFile(join(out, tool, "expected.json")));
      const committed = JSON.parse(await Deno.readTextFile(join(FIXTURES, tool, "expected.json")));
      assertEquals(canonical(fresh), canonical(committed), `${tool}: re-run scripts/capture and commit`);
    }
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
