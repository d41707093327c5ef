/**
 * Conformance of CancellableLoader with pi-tui 1.6.0: the cancel keys (Escape, Ctrl+C) abort the
 * signal and call onAbort; other keys do nothing; dispose stops the timer; a user's keybindings
 * replace the cancel keys.
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
    {
      // The global keybindings decide: a user's own cancel key replaces Escape and Ctrl+C.
      name: "cancellable/user-cancel-key",
      body: withFakeTimers(`
        T.setKeybindings(new T.KeybindingsManager(T.TUI_KEYBINDINGS, { 'tui.select.cancel': 'ctrl+q' }));
        try {
          const l = new T.CancellableLoader({ requestRender() {} }, (s) => s, (s) => s);
          const seen = [];
          for (const key of ['\\x1b', '\\x03', '\\x11']) { l.handleInput(key); seen.push(l.aborted); }
          l.dispose(); return seen;
        } finally {
          T.setKeybindings(new T.KeybindingsManager(T.TUI_KEYBINDINGS));
        }
      `),
    },
  ];
}

Deno.test("CancellableLoader aborts on the cancel keys like pi-tui 1.6.0", async () => {
  await compareWithPiTui("simple_cancellable", cancellableCases());
});
