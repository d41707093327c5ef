import { join } from "node:path";
import { assert_ as assert, assertEquals } from "../support/assert.ts";
import { createBashTool } from "../../src/tools/bash.ts";

interface Case {
  id: string;
  args: { command: string; timeout?: number };
  cwd?: string;
  expected: { text?: string; details?: Record<string, unknown> | null; error?: string };
}
const fixture: {
  meta: { parameters: unknown; description: string; promptSnippet: string };
  cases: Case[];
} = JSON.parse(Deno.readTextFileSync(new URL("../fixtures/tools/bash/expected.json", import.meta.url)));

function normalize(value: unknown, root: string): Case["expected"] {
  let json = JSON.stringify(value ?? null).split(root).join("$ROOT");
  json = json.replace(/\/[^"\s\]]*pi-bash-[0-9a-f]{16}\.log/g, "$TMPFILE");
  return JSON.parse(json);
}

Deno.test("BASH-01..04 fixture matrix matches reference 0.73.1", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-bash-test-" }));
  await Deno.mkdir(join(root, "repo"));
  try {
    for (const c of fixture.cases) {
      const tool = createBashTool(join(root, c.cwd ?? "repo"));
      let actual: Case["expected"];
      try {
        const r = await tool.execute("t", c.args);
        const text = r.content.map((p) => (p.type === "text" ? p.text : "")).join("");
        actual = normalize({ text, details: r.details ?? null }, root);
        const full = r.details?.fullOutputPath;
        if (full) {
          // The temp file holds the complete output.
          const all = await Deno.readTextFile(full);
          const expectedAll = new TextDecoder().decode(
            new Deno.Command("bash", { args: ["-c", c.args.command] }).outputSync().stdout,
          );
          assertEquals(all, expectedAll, `${c.id} full output file`);
          await Deno.remove(full);
        }
      } catch (e) {
        actual = normalize({ error: (e as Error).message }, root);
      }
      assertEquals(actual, c.expected, c.id);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("BASH-01 schema, description and prompt snippet equal the reference", () => {
  const tool = createBashTool("/tmp");
  assertEquals(JSON.stringify(tool.parameters), JSON.stringify(fixture.meta.parameters));
  assertEquals(tool.description, fixture.meta.description);
  assertEquals(tool.promptSnippet, fixture.meta.promptSnippet);
});

function liveProcesses(marker: string): string[] {
  const out = new TextDecoder().decode(
    new Deno.Command("ps", { args: ["-eo", "pid,stat,args"] }).outputSync().stdout,
  );
  return out.split("\n").filter((l) => l.includes(marker) && !/^\s*\d+\s+Z/.test(l) && !l.includes("ps -eo"));
}

async function waitGone(marker: string): Promise<string[]> {
  for (let i = 0; i < 40; i++) {
    const live = liveProcesses(marker);
    if (live.length === 0) return live;
    await new Promise((r) => setTimeout(r, 50));
  }
  return liveProcesses(marker);
}

Deno.test("BASH-04 timeout kills the whole tree, grandchildren included", async () => {
  const marker = `${Math.floor(Math.random() * 1e6) + 7000000}`;
  const tool = createBashTool("/tmp");
  let message = "";
  try {
    // A subshell (child) that starts a sleeping grandchild, plus a background grandchild.
    await tool.execute("t", {
      command: `(sleep ${marker} & wait) & sleep ${marker}.5; echo never`,
      timeout: 0.5,
    });
  } catch (e) {
    message = (e as Error).message;
  }
  assertEquals(message, "Command timed out after 0.5 seconds");
  assertEquals(await waitGone(marker), []);
});

Deno.test("BASH-04 abort kills the whole tree and reports output so far", async () => {
  const marker = `${Math.floor(Math.random() * 1e6) + 8000000}`;
  const tool = createBashTool("/tmp");
  const controller = new AbortController();
  const pending = tool.execute("t", {
    command: `echo started; (sleep ${marker} & wait) & sleep ${marker}.5`,
  }, controller.signal);
  await new Promise((r) => setTimeout(r, 300));
  assert(liveProcesses(marker).length >= 2, "grandchildren should be running before abort");
  controller.abort();
  let message = "";
  try {
    await pending;
  } catch (e) {
    message = (e as Error).message;
  }
  assertEquals(message, "started\n\n\nCommand aborted");
  assertEquals(await waitGone(marker), []);
});

Deno.test("BASH-02 10 MB of output: bounded memory, full temp file, tail shown", async () => {
  const tool = createBashTool("/tmp");
  const before = Deno.memoryUsage().rss;
  let updates = 0;
  // 10 MiB: 163840 lines of 63 chars + newline.
  const r = await tool.execute(
    "t",
    { command: "yes 'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz01234567890' | head -n 163840" },
    undefined,
    () => updates++,
  );
  const growth = Deno.memoryUsage().rss - before;
  const path = r.details?.fullOutputPath;
  assert(path, "full output path");
  try {
    const stat = await Deno.stat(path);
    assertEquals(stat.size, 10 * 1024 * 1024);
    const text = (r.content[0] as { text: string }).text;
    assert(
      text.endsWith(`\n\n[Showing lines 163041-163841 of 163841 (50.0KB limit). Full output: ${path}]`),
      text.slice(-120),
    );
    assert(updates > 1, "streamed updates");
    // Generous bound: the accumulator keeps ~200KB; the rest is runtime noise, far below 10MB copies.
    assert(growth < 40 * 1024 * 1024, `rss grew ${growth}`);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("BASH-01 commandPrefix, spawnHook, custom shell path and PI_CODING_AGENT", async () => {
  const tool = createBashTool("/tmp", {
    commandPrefix: "GREETING=hi",
    spawnHook: (ctx) => ({ ...ctx, env: { ...ctx.env, EXTRA: "x" } }),
  });
  const r = await tool.execute("t", { command: 'echo "$GREETING $EXTRA $PI_CODING_AGENT"' });
  assertEquals(r.content, [{ type: "text", text: "hi x true\n" }]);
  let message = "";
  try {
    await createBashTool("/tmp", { shellPath: "/nope/bash" }).execute("t", { command: "true" });
  } catch (e) {
    message = (e as Error).message;
  }
  assertEquals(message, "Custom shell path not found: /nope/bash");
});
