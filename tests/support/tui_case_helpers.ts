/**
 * Helpers for TUI conformance suites: splitting a large run by width, fake interval timers.
 *
 * @module
 */
import { compareWithPiTui, type TuiCase } from "./tui_oracle.ts";

/**
 * Runs the cases as one suite per width group (`<prefix>_w1`, `_w20`, `_w80`, `_w200`, `_other`,
 * from a `/wN` segment of the case name): each case runner's output stays well under 64 KiB, the
 * pipe size past which Node's `process.exit` right after a large stdout write can cut it short.
 * All groups run; the failures are reported together.
 */
export async function compareByWidth(prefix: string, cases: TuiCase[]): Promise<void> {
  const groups = new Map<string, TuiCase[]>();
  for (const c of cases) {
    const width = c.name.match(/\/w(\d+)(\/|$)/)?.[1];
    const key = width && ["1", "20", "80", "200"].includes(width) ? `w${width}` : "other";
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const failures: string[] = [];
  for (const [key, group] of groups) {
    await compareWithPiTui(`${prefix}_${key}`, group).catch((e: Error) => failures.push(e.message));
  }
  if (failures.length > 0) throw new Error(failures.join("\n\n"));
}

/**
 * Wraps a case body so that it runs with setInterval/clearInterval replaced by recorders: `tick()` calls the
 * newest timer (unless cleared), so a loader advances its frames deterministically on both sides.
 */
export function withFakeTimers(body: string): string {
  return `
    const realSet = globalThis.setInterval, realClear = globalThis.clearInterval;
    const timers = []; let nextId = 1; const cleared = [];
    globalThis.setInterval = (fn, ms) => { timers.push({ fn, ms, id: nextId }); return nextId++; };
    globalThis.clearInterval = (id) => { cleared.push(id); };
    const tick = () => { const t = timers[timers.length - 1]; if (t && !cleared.includes(t.id)) t.fn(); };
    try { ${body} } finally { globalThis.setInterval = realSet; globalThis.clearInterval = realClear; }
  `;
}
