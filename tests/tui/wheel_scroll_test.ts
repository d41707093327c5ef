/**
 * WheelScrollAccelerator (pi-tui 1.6.0 dist/wheel-scroll.js, not exported by its index) turns the
 * same event timelines into the same line counts as ours: fixed counts (whole, fractional, zero,
 * non-finite), `"auto"` with and without acceleration, bursts, gestures ending after a pause or a
 * direction change, the carried fractions, and setLines() resetting the gesture.
 */
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";
import { loadInternal } from "./colors_internal_modules.ts";

const IMPORT = loadInternal("W", "wheel-scroll.js", "wheel_scroll.ts");

/** Timelines: [direction, milliseconds] per event. */
const TIMELINES: Record<string, [number, number][]> = {
  isolated: [[1, 0], [1, 300], [1, 700], [-1, 1000]],
  steady100: Array.from({ length: 8 }, (_, i) => [1, i * 100] as [number, number]),
  steady50: Array.from({ length: 8 }, (_, i) => [1, i * 50] as [number, number]),
  steady20: Array.from({ length: 10 }, (_, i) => [-1, i * 20] as [number, number]),
  accelerating: [[1, 0], [1, 120], [1, 200], [1, 260], [1, 300], [1, 330], [1, 350], [1, 362], [1, 370]],
  bursts: [[1, 0], [1, 3], [1, 6], [1, 40], [1, 43], [1, 80], [1, 84]],
  reversal: [[1, 0], [1, 30], [1, 60], [-1, 90], [-1, 120], [1, 150]],
  pause: [[1, 0], [1, 25], [1, 50], [1, 251], [1, 276], [1, 477]],
  uneven: [[-1, 0], [-1, 33], [-1, 70], [-1, 71], [-1, 140], [-1, 141.5], [-1, 199], [-1, 230]],
};

const SETTINGS: [string, string][] = [
  ["auto-accel", "new W.WheelScrollAccelerator('auto', true)"],
  ["auto-plain", "new W.WheelScrollAccelerator('auto', false)"],
  ["fixed3", "new W.WheelScrollAccelerator(3, true)"],
  ["fixed2.7", "new W.WheelScrollAccelerator(2.7)"],
  ["fixed0", "new W.WheelScrollAccelerator(0)"],
  ["fixed-neg", "new W.WheelScrollAccelerator(-4)"],
  ["fixed-inf", "new W.WheelScrollAccelerator(Infinity)"],
  ["fixed-nan", "new W.WheelScrollAccelerator(NaN)"],
];

function cases(): TuiCase[] {
  const out: TuiCase[] = [];
  for (const [setting, make] of SETTINGS) {
    const timelines = setting.startsWith("auto") ? Object.keys(TIMELINES) : ["steady20", "isolated"];
    for (const timeline of timelines) {
      out.push({
        name: `${setting}/${timeline}`,
        body: `${IMPORT}
          const w = ${make};
          return ${js(TIMELINES[timeline])}.map(([d, t]) => w.next(d, t));`,
      });
    }
  }
  out.push({
    name: "setLines-resets",
    body: `${IMPORT}
      const w = new W.WheelScrollAccelerator(1, true);
      const out = [w.next(1, 0), w.next(1, 20)];
      w.setLines('auto');
      out.push(w.next(1, 40), w.next(1, 60), w.next(1, 80));
      w.setLines('auto');
      out.push(w.next(1, 100), w.next(1, 120));
      w.setLines(4);
      out.push(w.next(-1, 140));
      return out;`,
  });
  return out;
}

Deno.test("WheelScrollAccelerator counts like pi-tui 1.6.0 over event timelines", async () => {
  await compareWithPiTui("wheel_scroll", cases());
});
