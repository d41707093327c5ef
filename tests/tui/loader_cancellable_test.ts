/**
 * Conformance of CancellableLoader with pi-tui 1.6.0: the cancel keys (Escape, Ctrl+C) abort the
 * signal and call onAbort; other keys do nothing; dispose stops the timer.
 */
import { withFakeTimers } from "../support/tui_case_helpers.ts";
import { compareWithPiTui, type TuiCase } from "../support/tui_oracle.ts";
function cancellableCases(): TuiCase[] {
  return [
    {
      name: "cancellable/escape-aborts",
      body: withFakeTimers(`
        const l = new T.CancellableLoader({ requestRender() {} }, (s) => s, (s) => s, 'Cancel me');
        let aborts = 0; l.onAbort = () => aborts++;
        const before = [l.aborted, l.signal.aborted];
        l.handleInput('x'); l.handleInput('\\r'); const mid = [l.aborted, aborts];
        l.handleInput('\\x1b'); const after = [l.aborted, l.signal.aborted, aborts];
        l.handleInput('\\x03'); l.dispose();
        return { before, mid, after, aborts, render: l.render(20), cleared: cleared.length };
      `),
    },
    {
      name: "cancellable/ctrl-c-aborts",
      body: withFakeTimers(`
        const l = new T.CancellableLoader({ requestRender() {} }, (s) => s, (s) => s);
        let reason; l.signal.addEventListener('abort', () => { reason = 'abort-event'; });
        l.handleInput('\\x03'); l.dispose(); return [l.aborted, reason, l.render(20)];
      `),
    },
  ];
}

Deno.test("CancellableLoader aborts on the cancel keys like pi-tui 1.6.0", async () => {
  await compareWithPiTui("simple_cancellable", cancellableCases());
});
