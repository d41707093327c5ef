/**
 * MCP configuration, tool names and the `mcp_servers` prompt section against pi 1.6.0's own
 * functions (run under the reference's node by tests/fixtures/mcp/reference_oracle.mjs) for the
 * same inputs: validation messages, project overrides and trust, name sanitising and hash
 * suffixes, section wording, ordering and the 4096-character budget.
 */
import { join } from "node:path";
import { requireReference } from "../../../scripts/reference/locate.ts";
import { assertEquals } from "../../support/assert.ts";
import { loadMcpConfig, type McpStdioServerConfig } from "../../../src/extensions/builtin/mcp/config.ts";
import { createMcpToolName } from "../../../src/extensions/builtin/mcp/naming.ts";
import { renderServersSection, type SectionServer } from "../../../src/extensions/builtin/mcp/section.ts";

const ORACLE = new URL("../../fixtures/mcp/reference_oracle.mjs", import.meta.url).pathname;

async function reference(
  cases: unknown,
): Promise<{ configs: unknown[]; names: string[]; sections: (string | null)[] }> {
  const child = new Deno.Command(requireReference().node, {
    args: [ORACLE],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(cases)));
  await writer.close();
  const out = await child.output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** Config cases: [global mcp.json text, project mcp.json text, trusted]. */
const CONFIG_CASES: [string | undefined, string | undefined, boolean][] = [
  [
    JSON.stringify({ mcpServers: { a: { command: "x", args: ["-y"], env: { K: "${V}" } } } }),
    undefined,
    true,
  ],
  ["{ broken", undefined, true],
  ["\uFEFF" + JSON.stringify({ mcpServers: { a: { url: "https://e.x/mcp" } } }), undefined, true],
  [JSON.stringify([1]), undefined, true],
  [JSON.stringify({ mcpServers: [] }), undefined, true],
  [JSON.stringify({ autoEnableCodemode: "yes", mcpServers: {} }), undefined, true],
  [
    JSON.stringify({
      mcpServers: {
        sse: { type: "sse", url: "http://h/sse" },
        ftp: { url: "ftp://h/x" },
        t: { command: "x", timeout: 0 },
        e: { command: "x", enabled: "no" },
        d: { command: "x", description: 3 },
        args: { command: "x", args: "a b" },
        env: { command: "x", env: { A: 1 } },
        cwd: { command: "x", cwd: 2 },
        hdr: { url: "http://h/mcp", headers: { A: 1 } },
        typed: { type: "stdio", url: "http://h/mcp" },
        "x y": { command: "x" },
        arr: [],
        ex: { command: "x", exposure: "codemode-deferred", toolExposure: { "get_*": "codemode-deferred" } },
        bad: { command: "x", toolExposure: { t: "nope" } },
        auth: { url: "http://example.com/mcp", auth: { provider: "github" } },
        "dup-name": { command: "x" },
        dup_name: { command: "y" },
      },
    }),
    undefined,
    true,
  ],
  [
    JSON.stringify({
      mcpServers: { g: { command: "x", env: { T: "1" } }, h: { url: "http://127.0.0.1/mcp" } },
    }),
    JSON.stringify({
      autoEnableCodemode: false,
      mcpServers: {
        g: { enabled: false, exposure: "direct", toolExposure: { a: "hidden" } },
        h: { headers: { A: "b" } },
        missing: { enabled: true },
        p: { command: "proj" },
        q: { url: "http://127.0.0.1/mcp", auth: { provider: "x" } },
      },
    }),
    true,
  ],
  [
    JSON.stringify({ mcpServers: { g: { command: "x" } } }),
    JSON.stringify({ mcpServers: { p: { command: "y" } } }),
    false,
  ],
  [undefined, JSON.stringify({ mcpServers: { g: { command: "y" } } }), true],
];

const NAME_CASES: [string, string, string[]][] = [
  ["fx", "echo", []],
  ["my-server", "get.file/name", []],
  ["s", "ünïcode tool", []],
  ["long-server-name", "a_tool_with_a_really_long_name_that_goes_past_the_limit_of_64", []],
  ["fx", "a-b", ["mcp__fx__a_b"]],
];

function entry(name: string, config: McpStdioServerConfig) {
  return { name, config, source: "/x/mcp.json", scope: "global" as const };
}

const SECTION_CASES: SectionServer[][] = [
  [],
  [{ entry: entry("direct-only", { command: "x", exposure: "direct" }) }],
  [
    { entry: entry("zeta", { command: "x" }), instructions: "Zeta server.\nMore." },
    {
      entry: entry("alpha-srv", {
        command: "x",
        exposure: "deferred",
        description: "  Alpha tools\nline two",
      }),
    },
    { entry: entry("mixed", { command: "x", exposure: "direct", toolExposure: { "get_*": "deferred" } }) },
    { entry: entry("off", { command: "x", enabled: false }) },
    { entry: entry("hidden", { command: "x", exposure: "hidden" }) },
    { entry: entry("plain", { command: "x" }) },
  ],
  // Long descriptions shrink to fit; past the budget, servers are counted in a closing line.
  Array.from({ length: 30 }, (_, i) => ({
    entry: entry(`server-${String(i).padStart(2, "0")}`, { command: "x", description: "d".repeat(400) }),
  })),
  Array.from({ length: 200 }, (_, i) => ({
    entry: entry(`a-rather-long-server-name-${String(i).padStart(3, "0")}`, {
      command: "x",
      description: "x",
    }),
  })),
];

Deno.test("MCP-09 mcp.json loading, tool names and the mcp_servers section equal pi 1.6.0's functions", async () => {
  const root = await Deno.makeTempDir({ prefix: "pi_mcp_cfg_" });
  try {
    const configs = [];
    for (const [index, [global, project, trusted]] of CONFIG_CASES.entries()) {
      const agentDir = join(root, `c${index}`, "agent");
      const cwd = join(root, `c${index}`, "project");
      await Deno.mkdir(agentDir, { recursive: true });
      await Deno.mkdir(join(cwd, ".pi"), { recursive: true });
      if (global !== undefined) await Deno.writeTextFile(join(agentDir, "mcp.json"), global);
      if (project !== undefined) await Deno.writeTextFile(join(cwd, ".pi", "mcp.json"), project);
      configs.push({ agentDir, cwd, projectTrusted: trusted });
    }
    const ref = await reference({ configs, names: NAME_CASES, sections: SECTION_CASES });
    const ours = {
      configs: configs.map((c) => loadMcpConfig(c)),
      names: await Promise.all(
        NAME_CASES.map(([server, tool, taken]) =>
          createMcpToolName(server, tool, (name) => taken.includes(name))
        ),
      ),
      sections: SECTION_CASES.map((servers) => renderServersSection(servers) ?? null),
    };
    assertEquals(ours.names, ref.names);
    assertEquals(ours.sections, ref.sections);
    for (const [index, config] of ours.configs.entries()) {
      assertEquals(JSON.parse(JSON.stringify(config)), ref.configs[index], `config case ${index}`);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
