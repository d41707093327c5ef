/**
 * Scripted interactive sessions for comparing our `pi` with pi 1.6.0: steps (what to type, what
 * the screen must show before it is taken), a runner that collects the normalised screens, and a
 * line-by-line difference of two screens.
 *
 * @module
 */
import { readSessionLines } from "./agent_env.ts";
import type { InteractiveScenario } from "./interactive_scenario.ts";

/** One step of a script: what to type, then what the screen must show before it is taken. */
export interface ScriptStep {
  name: string;
  act: (s: InteractiveScenario) => Promise<void>;
  ready: (screen: string) => boolean;
}

/**
 * Runs `steps` in the started pi of `s` and returns the normalised screen after each, once the
 * screen has settled (streaming and spinners done). The first step waits `startTimeout`.
 */
export async function collectScreens(
  s: InteractiveScenario,
  steps: readonly ScriptStep[],
  timeouts: { start: number; step: number },
  onFirst?: () => void,
): Promise<string[]> {
  const screens: string[] = [];
  for (const step of steps) {
    await step.act(s);
    await s.pane.waitFor(step.ready, screens.length === 0 ? timeouts.start : timeouts.step, step.name);
    if (screens.length === 0) onFirst?.();
    screens.push(s.normalized(await s.pane.settle(500, 5_000)));
  }
  return screens;
}

/** Screen lines that differ, as `step: line N: ours | reference`. */
export function screenDifferences(step: string, ours: string, reference: string): string[] {
  const a = ours.split("\n");
  const b = reference.split("\n");
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if ((a[i] ?? "") !== (b[i] ?? "")) {
      out.push(`${step}: line ${i + 1}: ${JSON.stringify(a[i] ?? "")} | ${JSON.stringify(b[i] ?? "")}`);
    }
  }
  return out;
}

/**
 * Starts pi in the pane of `s`, runs `steps`, quits with /quit and returns the screens and the
 * parsed lines of the session file written.
 */
export async function runScriptedSession(
  s: InteractiveScenario,
  steps: readonly ScriptStep[],
  timeouts: { start: number; step: number },
): Promise<{ screens: string[]; sessionLines: Record<string, unknown>[] }> {
  await s.pane.command(`clear; ${s.piCommand()}`);
  const screens = await collectScreens(s, steps, timeouts);
  await s.pane.command("/quit");
  await s.pane.waitFor((t) => /\$ ?$/.test(t), timeouts.step, "the shell after exit");
  const [file] = await s.agent.sessionFiles();
  if (!file) throw new Error("no session file was written");
  return { screens, sessionLines: await readSessionLines(file) };
}

/** Throws, listing the differing lines (and printing our screens), unless the screens are equal. */
export function assertSameScreens(steps: readonly ScriptStep[], ours: string[], reference: string[]): void {
  const found = steps.flatMap((step, i) => screenDifferences(step.name, ours[i], reference[i]));
  if (found.length === 0) return;
  console.log(ours.join("\n=====\n"));
  throw new Error(`screens differ from pi 1.6.0's:\n${found.join("\n")}`);
}
