/**
 * The terminal UI kit (src/tui) costs nothing where it is not drawn: `pi --version`, `-p`, JSON
 * and RPC modes load none of it.
 *
 * Two views of "load":
 * - statically, from `deno info --json main.ts`: no module reached from the entry points of those
 *   modes through static imports (the ones that load with their importer) is in src/tui;
 * - dynamically, from real runs: V8 logs every script it compiles (`--log-function-events` writes
 *   a `script-details` line with the URL of each), so the set of modules a run actually loaded
 *   is read from that log. A control run of a script importing src/tui/mod.ts shows the method
 *   sees src/tui modules when they do load.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { createAgentEnv, denoDir, machineEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { moduleGraph, staticClosure } from "../support/module_graph.ts";

const REPO = new URL("../../", import.meta.url);
const MAIN_TS = new URL("main.ts", REPO);
const TUI_DIR = new URL("src/tui/", REPO).href;

Deno.test("no static import chain from the entry of --version, -p, JSON or RPC mode reaches src/tui", async () => {
  const graph = await moduleGraph();
  // main.ts handles --version itself; the CLI, its flow, print mode (also JSON mode, whose
  // serialiser it imports) and RPC mode are the modules those runs import on demand.
  const entries = [
    "main.ts",
    "src/cli/run.ts",
    "src/cli/main_flow.ts",
    "src/modes/print_mode.ts",
    "src/modes/json_event.ts",
    "src/modes/rpc/rpc_mode.ts",
  ];
  for (const entry of entries) {
    const root = new URL(entry, REPO).href;
    assert(graph.has(root), `${entry} is not in the module graph of main.ts (moved? update this list)`);
    const closure = staticClosure(graph, root);
    assertEquals([...closure].filter((s) => s.startsWith(TUI_DIR)), [], `static imports of ${entry}`);
  }
});

/** Runs `deno run … script args` with V8's script log on; the file: URLs of the scripts V8 compiled. */
async function loadedModules(
  script: string,
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; stdin?: string } = {},
): Promise<{ urls: Set<string>; code: number; stdout: string; stderr: string }> {
  const dir = await Deno.makeTempDir({ prefix: "pi_lazy_load_" });
  const log = join(dir, "v8.log");
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-all",
        "--no-prompt",
        "--config",
        new URL("deno.json", REPO).pathname,
        `--v8-flags=--log-function-events,--logfile=${log},--no-logfile-per-isolate`,
        script,
        ...args,
      ],
      cwd: options.cwd ?? REPO.pathname,
      env: { ...machineEnv(), DENO_DIR: denoDir(), ...options.env },
      clearEnv: true,
      stdin: options.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    if (options.stdin !== undefined) {
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(options.stdin));
      await writer.close();
    }
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    const out = await child.output().finally(() => clearTimeout(timer));
    const urls = new Set<string>();
    for (const m of (await Deno.readTextFile(log)).matchAll(/^script-details,\d+,(file:\/\/[^,]*),/gm)) {
      urls.add(m[1]);
    }
    const decoder = new TextDecoder();
    return { urls, code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function tuiModules(urls: Set<string>): string[] {
  return [...urls].filter((u) => u.startsWith(TUI_DIR)).map((u) => u.slice(TUI_DIR.length));
}

Deno.test("the V8 script log sees src/tui modules when a script does load them (control)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pi_lazy_load_ctl_" });
  try {
    const script = join(dir, "uses_tui.ts");
    await Deno.writeTextFile(
      script,
      `import { Text } from ${JSON.stringify(new URL("mod.ts", TUI_DIR).href)};\n` +
        `console.log(new Text("ok", 0, 0).render(4).join("|"));\n`,
    );
    const run = await loadedModules(script, []);
    assertEquals(run.stdout, "ok  \n");
    const loaded = tuiModules(run.urls);
    assert(loaded.includes("mod.ts") && loaded.includes("components/text.ts"), loaded.join(", "));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pi --version loads no module of src/tui", async () => {
  const run = await loadedModules(MAIN_TS.pathname, ["--version"]);
  assertEquals(run.stdout, "1.6.0 (deno source)\n");
  assert(run.urls.has(MAIN_TS.href), "the log names main.ts");
  assertEquals(tuiModules(run.urls), []);
});

Deno.test("pi -p, --mode json and --mode rpc load no module of src/tui", async () => {
  const text = { content: [{ type: "text" as const, text: "Hello from the fake model." }] };
  const server = await startFakeProvider([text, text]);
  const agent = await createAgentEnv(server.url);
  try {
    const model = ["--provider", "fake-anthropic", "--model", "test-model"];
    const print = await loadedModules(MAIN_TS.pathname, [...model, "-p", "hi"], agent);
    assertEquals([print.code, print.stdout], [0, "Hello from the fake model.\n"], print.stderr);
    assert(print.urls.has(new URL("src/modes/print_mode.ts", REPO).href), "the log names print_mode.ts");
    assertEquals(tuiModules(print.urls), [], "-p");

    const json = await loadedModules(MAIN_TS.pathname, [...model, "--mode", "json", "hi"], agent);
    assertEquals(json.code, 0, json.stderr);
    assert(json.stdout.includes('"type":"agent_end"'), json.stdout);
    assert(json.urls.has(new URL("src/modes/json_event.ts", REPO).href), "the log names json_event.ts");
    assertEquals(tuiModules(json.urls), [], "--mode json");

    const rpc = await loadedModules(MAIN_TS.pathname, [...model, "--mode", "rpc"], {
      ...agent,
      stdin: JSON.stringify({ id: "1", type: "get_state" }) + "\n",
    });
    assert(rpc.stdout.includes('"id":"1"'), rpc.stdout + rpc.stderr);
    assert(rpc.urls.has(new URL("src/modes/rpc/rpc_mode.ts", REPO).href), "the log names rpc_mode.ts");
    assertEquals(tuiModules(rpc.urls), [], "--mode rpc");
  } finally {
    await agent.cleanup();
    await server.close();
  }
});
