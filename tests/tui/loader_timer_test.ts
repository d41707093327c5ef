/**
 * Loader with real timers: the animation advances on its own and asks the TUI for a render per
 * frame, and stop()/dispose() end the timer (the conformance suites drive frames with fake timers).
 */
import { assert, assertEquals } from "../support/assert.ts";
import { waitFor } from "../support/wait_for.ts";
import { CancellableLoader, Loader, type TUI } from "../../src/tui/mod.ts";

/** A stand-in for the TUI: the loader only calls requestRender. */
function countingUi(): { ui: TUI; renders: () => number } {
  let renders = 0;
  const ui = { requestRender: () => renders++ } as unknown as TUI;
  return { ui, renders: () => renders };
}

Deno.test("Loader animates on a real timer and stops with stop()", async () => {
  const { ui, renders } = countingUi();
  const loader = new Loader(ui, (s) => s, (s) => s, "Busy", { frames: ["a", "b", "c"], intervalMs: 5 });
  try {
    assertEquals(loader.render(10), ["", " a Busy   "]);
    await waitFor(() => renders() >= 4, 5_000, "four frames");
    assert(["a", "b", "c"].includes(loader.render(10)[1][1]));
  } finally {
    loader.stop();
  }
  const after = renders();
  await new Promise((resolve) => setTimeout(resolve, 30));
  assertEquals(renders(), after, "no frame after stop()");
});

Deno.test("A single frame starts no timer; CancellableLoader.dispose() stops the animation", async () => {
  const single = countingUi();
  const still = new Loader(single.ui, (s) => s, (s) => s, "Still", { frames: ["*"], intervalMs: 1 });
  await new Promise((resolve) => setTimeout(resolve, 20));
  assertEquals(single.renders(), 1, "only the first draw");
  assertEquals(still.render(9), ["", " * Still "]);

  const moving = countingUi();
  const loader = new CancellableLoader(moving.ui, (s) => s, (s) => s, "Go", {
    frames: ["1", "2"],
    intervalMs: 5,
  });
  await waitFor(() => moving.renders() >= 3, 5_000, "three frames");
  loader.dispose();
  const after = moving.renders();
  await new Promise((resolve) => setTimeout(resolve, 30));
  assertEquals(moving.renders(), after, "no frame after dispose()");
});
