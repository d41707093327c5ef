/**
 * `pi --version` start-up: ours (`deno run main.ts`) against the reference (`node dist/cli.js`),
 * alternated, compared by medians.
 *
 * Usage: deno run -A scripts/bench/startup.ts [rounds]
 *
 * @module
 */
import { alternate, median, referenceCommand, timeCommand } from "./common.ts";

const rounds = Number(Deno.args[0] ?? 15);
const main = new URL("../../main.ts", import.meta.url).pathname;
const ours = () => timeCommand([Deno.execPath(), "run", "--allow-all", "--no-prompt", main, "--version"]);
const ref = () => timeCommand([...referenceCommand(), "--version"]);

const { a, b } = await alternate(ours, ref, rounds);
if (a.some((s) => s.code !== 0) || b.some((s) => s.code !== 0)) {
  console.error("a command failed; is the reference installed? (deno task reference)");
  Deno.exit(1);
}
const oursMs = median(a.map((s) => s.ms));
const refMs = median(b.map((s) => s.ms));
console.log(`rounds: ${rounds}`);
console.log(
  `ours --version median: ${oursMs.toFixed(1)} ms (rss ${median(a.map((s) => s.maxRssKb ?? 0))} KB)`,
);
console.log(
  `ref  --version median: ${refMs.toFixed(1)} ms (rss ${median(b.map((s) => s.maxRssKb ?? 0))} KB)`,
);
console.log(`speed-up: ${(refMs / oursMs).toFixed(1)}x`);
