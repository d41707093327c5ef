import { join } from "node:path";
import { assert_ as assert, assertEquals } from "../support/assert.ts";
import { type BashSessionEnvironment, createBashTool } from "../../src/tools/bash.ts";

interface Case {
  id: string;
  args: { command: string; timeout?: number };
  cwd?: string;
  /** The session the reference's tool context described (PI_* variables). */
  session?: {
    sessionId: string;
    sessionFile?: string;
    provider?: string;
    model?: string;
    thinkingLevel?: string;
  };
  /** Only the final status line is stable (the output before it is timing). */
  statusOnly?: boolean;
  expected: {
    text?: string;
    details?: unknown;
    error?: string;
    isError?: boolean;
    structuredContent?: Record<string, unknown>;
  };
}
const fixture: {
  meta: {
    parameters: unknown;
    description: string;
    promptSnippet: string;
    promptGuidelines: string[] | null;
  };
  cases: Case[];
} = JSON.parse(Deno.readTextFileSync(new URL("../fixtures/tools/bash/expected.json", import.meta.url)));

function normalize(value: unknown, root: string): Case["expected"] {
  let json = JSON.stringify(value ?? null).split(root).join("$ROOT");
  json = json.replace(/\/[^"\s\]]*pi-bash-[0-9a-f]{16}\.log/g, "$TMPFILE");
  json = json.replace(/"wall_time_seconds":[0-9.e-]+/g, '"wall_time_seconds":"$WALL"');
  return JSON.parse(json);
}

function sessionOf(c: Case): (() => BashSessionEnvironment) | undefined {
  const s = c.session;
  if (!s) return undefined;
  return () => ({
    sessionId: s.sessionId,
    sessionFile: s.sessionFile,
    provider: s.provider,
    model: s.model,
    reasoningLevel: s.thinkingLevel,
  });
}

/** The status line, with the shell's exit time (timing) as `$SECS`. */
function lastParagraph(text: string | undefined): string | undefined {
  return text?.split("\n\n").at(-1)?.replace(/ after [0-9.]+ seconds, but/, " after $SECS seconds, but");
}

Deno.test("BASH-01..04 fixture matrix matches reference 1.6.0", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-bash-test-" }));
  await Deno.mkdir(join(root, "repo"));
  try {
    for (const c of fixture.cases) {
      const tool = createBashTool(join(root, c.cwd ?? "repo"), { sessionEnvironment: sessionOf(c) });
      let actual: Case["expected"];
      try {
        const r = await tool.execute("t", c.args);
        const text = r.content.map((p) => (p.type === "text" ? p.text : "")).join("");
        const out: Case["expected"] = { text, details: r.details ?? null };
        if (r.isError !== undefined) out.isError = r.isError;
        if (r.structuredContent !== undefined) {
          out.structuredContent = r.structuredContent as Record<string, unknown>;
        }
        actual = normalize(out, root);
        const full = r.details?.fullOutputPath;
        if (full) {
          // The temp file holds the complete output.
          const all = await Deno.readTextFile(full);
          const expectedAll = new TextDecoder().decode(
            new Deno.Command("bash", { args: ["-c", c.args.command] }).outputSync().stdout,
          );
          assertEquals(all, expectedAll, `${c.id} full output file`);
          // Readable only by the user, as 1.6.0 writes output files.
          assertEquals((await Deno.stat(full)).mode! & 0o777, 0o600, `${c.id} full output file mode`);
          await Deno.remove(full);
        }
      } catch (e) {
        actual = normalize({ error: (e as Error).message }, root);
      }
      if (c.statusOnly) {
        assertEquals(lastParagraph(actual.error), lastParagraph(c.expected.error), c.id);
        continue;
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
  assertEquals(tool.promptGuidelines ?? null, fixture.meta.promptGuidelines);
  const declared = fixture.meta as unknown as { outputSchema: unknown; constrainedSampling: unknown };
  assertEquals(JSON.stringify(tool.outputSchema), JSON.stringify(declared.outputSchema));
  assertEquals(tool.constrainedSampling, declared.constrainedSampling);
  assertEquals(createBashTool("/tmp", { exposeSessionEnvironment: false }).promptGuidelines, undefined);
});

Deno.test("BASH-01 exposeSessionEnvironment false passes no session variables", async () => {
  const command = 'echo "[${PI_SESSION_ID-none}|${PI_MODEL-none}]"';
  const seen: Record<string, string | undefined>[] = [];
  const tool = createBashTool("/tmp", {
    exposeSessionEnvironment: false,
    sessionEnvironment: () => ({ sessionId: "s", provider: "p", model: "m" }),
    spawnHook: (ctx) => {
      seen.push(ctx.env);
      return ctx;
    },
  });
  const r = await tool.execute("t", { command });
  assertEquals(r.content, [{ type: "text", text: "[none|none]\n" }]);
  assertEquals(seen[0].PI_SESSION_ID, undefined);
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

Deno.test("BASH-02 10 MB of output: bounded memory (own process), full temp file, tail shown", async () => {
  // Measured in a process of its own: the test runner's other modules would count otherwise.
  const probe = new URL("./bash_memory_probe.ts", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-prompt", probe],
    cwd: await Deno.makeTempDir({ prefix: "pi-bash-mem-" }),
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  const r: { growth: number; updates: number; tail: string; path: string | null } = JSON.parse(
    new TextDecoder().decode(out.stdout),
  );
  assert(r.path, "full output path");
  try {
    const stat = await Deno.stat(r.path);
    assertEquals(stat.size, 10 * 1024 * 1024);
    assert(
      r.tail.endsWith(`\n\n[Showing lines 163041-163840 of 163840 (50.0KB limit). Full output: ${r.path}]`),
      r.tail,
    );
    assert(r.updates > 1, "streamed updates");
    // The accumulator keeps ~200KB; 10 MB of copies would show far above this bound.
    assert(r.growth < 40 * 1024 * 1024, `rss grew ${r.growth}`);
  } finally {
    await Deno.remove(r.path);
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
