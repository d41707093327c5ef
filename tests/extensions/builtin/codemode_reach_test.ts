/**
 * Which MCP servers a codemode script waits for (1.6.0, docs/mcp.md): the servers whose namespace
 * (`mcp__<server>`) a word of the script contains, or every server when the script searches or
 * lists tools (`searchTools`, `describeTool`, `describeNamespace`, `ALL_TOOLS`).
 */
import { assertEquals } from "../../support/assert.ts";
import { reachesNamespace, scriptReach } from "../../../src/extensions/builtin/codemode/tool.ts";

Deno.test("CM-REACH-01 a script reaches the servers it names, or all when it searches or lists tools", () => {
  const named = scriptReach(
    `const r = await tools.mcp__docs__search({ q: "x" });\nreturn tools["mcp__git_hub__" + name];`,
  );
  assertEquals(reachesNamespace(named, "mcp__docs"), true);
  assertEquals(reachesNamespace(named, "mcp__git_hub"), true);
  assertEquals(reachesNamespace(named, "mcp__other"), false);
  const plain = scriptReach(`return await tools.read({ path: "a.txt" });`);
  assertEquals(reachesNamespace(plain, "mcp__docs"), false);
  for (const global of ["searchTools", "describeTool", "describeNamespace", "ALL_TOOLS"]) {
    assertEquals(scriptReach(`return ${global};`), "all", global);
  }
  // A word that merely contains a global's name is not the global.
  assertEquals(scriptReach(`const mySearchTools = 1;`), ["const", "mySearchTools", "1"]);
});
