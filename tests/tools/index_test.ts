import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import {
  allToolNames,
  createAllTools,
  createCodingTools,
  createReadOnlyTools,
  createTool,
  type ToolName,
} from "../../src/tools/index.ts";

Deno.test("TOOL-01 tool sets contain the reference's tools in the reference's order", () => {
  assertEquals([...allToolNames], ["read", "bash", "edit", "write", "grep", "find", "ls"]);
  assertEquals(createCodingTools("/tmp").map((t) => t.name), ["read", "bash", "edit", "write"]);
  assertEquals(createReadOnlyTools("/tmp").map((t) => t.name), ["read", "grep", "find", "ls"]);
  const all = createAllTools("/tmp");
  assertEquals(Object.keys(all), ["read", "bash", "edit", "write", "grep", "find", "ls"]);
  for (const [name, tool] of Object.entries(all)) {
    assertEquals(tool.name, name);
    assertEquals(typeof tool.promptSnippet, "string");
  }
});

Deno.test("TOOL-01 options reach the right tool and unknown names throw", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, "a.txt"), "needle\n");
    const grep = createTool("grep", dir, { grep: { rgPath: null } });
    const r = await grep.execute("t", { pattern: "needle" });
    assertEquals(r.content, [{ type: "text", text: "a.txt:1: needle" }]);
    const bash = createTool("bash", dir, { bash: { commandPrefix: "X=1" } });
    assertEquals((await bash.execute("t", { command: "echo $X" })).content, [{ type: "text", text: "1\n" }]);
    let message = "";
    try {
      createTool("nope" as ToolName, dir);
    } catch (e) {
      message = (e as Error).message;
    }
    assertEquals(message, "Unknown tool name: nope");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
