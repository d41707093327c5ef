/**
 * Run by bash_test.ts (BASH-02) in a process of its own, so no other test's memory counts: runs
 * 10 MiB of output through the bash tool and prints what the test checks as one JSON line.
 */
import { createBashTool } from "../../src/tools/bash.ts";

const tool = createBashTool(Deno.cwd());
const before = Deno.memoryUsage().rss;
let updates = 0;
// 10 MiB: 163840 lines of 63 characters and a newline.
const r = await tool.execute(
  "t",
  { command: "yes 'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz01234567890' | head -n 163840" },
  undefined,
  () => updates++,
);
const growth = Deno.memoryUsage().rss - before;
const text = (r.content[0] as { text: string }).text;
console.log(
  JSON.stringify({ growth, updates, tail: text.slice(-200), path: r.details?.fullOutputPath ?? null }),
);
