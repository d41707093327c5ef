/**
 * Benchmark: grep tool over a generated tree of 50,000 files, against calling `rg` directly,
 * plus the built-in walker backend. Usage: deno run --allow-all scripts/bench/grep.ts [files]
 *
 * @module
 */
import { join } from "node:path";
import { createGrepTool } from "../../src/tools/grep.ts";
import { findSearchBinary } from "../../src/tools/search_binaries.ts";

async function makeTree(root: string, files: number): Promise<void> {
  const perDir = 100;
  const body = "const value = 42;\nfunction f() { return value; }\n// filler line for realism\n".repeat(5);
  for (let i = 0; i < files; i++) {
    const dir = join(root, `d${Math.floor(i / perDir) % 50}`, `s${Math.floor(i / perDir)}`);
    if (i % perDir === 0) await Deno.mkdir(dir, { recursive: true });
    const extra = i % 1000 === 0 ? "// NEEDLE_MARKER here\n" : "";
    await Deno.writeTextFile(join(dir, `f${i}.ts`), body + extra);
  }
}

async function time(fn: () => Promise<unknown>, runs = 5): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

if (import.meta.main) {
  const files = Number(Deno.args[0] ?? 50_000);
  const root = await Deno.makeTempDir({ prefix: "pi-grep-bench-" });
  try {
    await makeTree(root, files);
    const rg = findSearchBinary("rg");
    if (!rg) throw new Error("rg not found; the comparison needs ripgrep");
    const pattern = "NEEDLE_MARKER";
    const runDirect = async () => {
      // What the tool runs for a folder outside a git work tree (see src/tools/grep.ts).
      const out = await new Deno.Command(rg, {
        args: [
          "--no-config",
          "--json",
          "--line-number",
          "--color=never",
          "--hidden",
          "--no-require-git",
          "--",
          pattern,
          ".",
        ],
        cwd: root,
        stdout: "piped",
        stderr: "piped",
      }).output();
      if (!out.success) throw new Error("rg failed");
    };
    const viaRg = createGrepTool(root, { rgPath: rg });
    const viaWalker = createGrepTool(root, { rgPath: null });
    let expected = "";
    const runTool = async () => {
      const r = await viaRg.execute("b", { pattern });
      expected = (r.content[0] as { text: string }).text;
    };
    // Interleave the two so machine noise (other processes, page cache) hits both alike.
    const directSamples: number[] = [];
    const toolSamples: number[] = [];
    await runDirect();
    await runTool();
    for (let i = 0; i < 9; i++) {
      directSamples.push(await time(runDirect, 1));
      toolSamples.push(await time(runTool, 1));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const direct = median(directSamples);
    const tool = median(toolSamples);
    let walkerText = "";
    const walker = await time(async () => {
      const r = await viaWalker.execute("b", { pattern });
      walkerText = (r.content[0] as { text: string }).text;
    }, 3);
    const same = expected.split("\n").sort().join("\n") === walkerText.split("\n").sort().join("\n");
    console.log(`files: ${files}`);
    console.log(`rg direct:        ${direct.toFixed(1)} ms`);
    console.log(
      `grep tool (rg):   ${tool.toFixed(1)} ms  (ratio ${(tool / direct).toFixed(2)}x, target <= 1.5x)`,
    );
    console.log(`grep tool walker: ${walker.toFixed(1)} ms  (same matches as rg: ${same})`);
    if (tool / direct > 1.5) Deno.exitCode = 1;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
