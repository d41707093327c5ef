/**
 * Conformance of TuiBase's behaviour with pi-tui 1.6.0, through TuiMainScreen on a recording
 * terminal: who has keyboard focus through sequences of overlay operations (show, hide, setHidden,
 * focus, unfocus with and without a target, non-capturing overlays, visible() turning false) and
 * input (which returns focus to an overlay clicked away from); input listeners; key releases;
 * terminal colour queries and colour scheme reports; cell size replies; render scheduling.
 */
import { compareWithPiTui, type TuiCase } from "../support/tui_oracle.ts";

const PRELUDE = `
const writes = [];
const term = {
  columns: 40, rows: 10, kittyProtocolActive: false,
  start(onInput) { this.onInput = onInput; }, stop() {}, drainInput: async () => {},
  write(d) { writes.push(d); }, moveBy() {}, hideCursor() { writes.push('<hide>'); }, showCursor() { writes.push('<show>'); },
  clearLine() {}, clearFromCursor() {}, clearScreen() {}, setTitle() {}, setProgress() {}, setProgramStatus() {},
};
const got = [];
class C { constructor(name) { this.name = name; this.focused = false; }
  render() { return [this.name + (this.focused ? '*' : '')]; } handleInput(d) { got.push(this.name + ':' + JSON.stringify(d)); } invalidate() {} }
const tui = new T.TuiMainScreen(term);
const base = new C('base'); const other = new C('other');
tui.addChild(base); tui.addChild(other);
tui.start();
const state = () => {
  const f = [base, other, ...extra].filter((c) => c.focused).map((c) => c.name);
  return f.join(',') + '|' + tui.hasOverlay();
};
const extra = [];
const mk = (name) => { const c = new C(name); extra.push(c); return c; };
const log = [];
const key = (d) => { term.onInput(d); log.push('key ' + JSON.stringify(d) + ' -> ' + state()); };
const at = (label) => log.push(label + ' -> ' + state());
`;

const END = `tui.stop(); return { log, got };`;

interface FocusCase {
  name: string;
  code: string;
}

const focusCases: FocusCase[] = [
  {
    name: "focus/show-hide",
    code: `tui.setFocus(base); at('base');
      const a = mk('a'); const h = tui.showOverlay(a); at('show a');
      key('x');
      h.hide(); at('hide a'); key('y');
      h.hide(); at('hide again');`,
  },
  {
    name: "focus/stack",
    code: `tui.setFocus(base);
      const a = mk('a'); const b = mk('b');
      const ha = tui.showOverlay(a); const hb = tui.showOverlay(b); at('a,b');
      ha.focus(); at('focus a'); key('1');
      tui.hideOverlay(); at('hideOverlay (b, topmost in stack)'); key('2');
      tui.hideOverlay(); at('hideOverlay a'); key('3');`,
  },
  {
    name: "focus/set-hidden",
    code: `tui.setFocus(base);
      const a = mk('a'); const h = tui.showOverlay(a);
      h.setHidden(true); at('hidden'); chunk = h.isHidden(); log.push(String(chunk));
      key('k');
      h.setHidden(false); at('shown'); key('m');
      h.setHidden(false); at('shown again');`,
  },
  {
    name: "focus/non-capturing",
    code: `tui.setFocus(base);
      const a = mk('a'); const h = tui.showOverlay(a, { nonCapturing: true }); at('nc shown');
      key('z'); h.focus(); at('focus nc'); key('w');
      h.unfocus(); at('unfocus nc'); key('v');`,
  },
  {
    name: "focus/click-away-and-back",
    code: `tui.setFocus(base);
      const a = mk('a'); const h = tui.showOverlay(a); at('a');
      tui.setFocus(other); at('other (blocks the overlay)');
      key('o');
      tui.setFocus(null); at('null (resume to overlay)');
      key('p');`,
  },
  {
    name: "focus/restore-on-input",
    code: `tui.setFocus(base);
      const a = mk('a'); const h = tui.showOverlay(a);
      tui.setFocus(other); at('other');
      tui.setFocus(base); at('base (blocked by other moved?)');
      key('q');`,
  },
  {
    name: "focus/unfocus-target",
    code: `tui.setFocus(base);
      const a = mk('a'); const h = tui.showOverlay(a);
      h.unfocus({ target: other }); at('unfocus to other'); key('r');
      h.focus(); at('focus again');
      h.unfocus({ target: null }); at('unfocus to null'); key('s');
      chunk = [h.isFocused(), JSON.stringify(h.getBounds())]; log.push(String(chunk));`,
  },
  {
    name: "focus/unfocus-while-blocked",
    code: `tui.setFocus(base);
      const a = mk('a'); const h = tui.showOverlay(a);
      tui.setFocus(other); at('blocked by other');
      h.unfocus({ target: base }); at('unfocus with target while blocked');
      key('t');
      tui.setFocus(null); at('null');`,
  },
  {
    name: "focus/unfocus-plain-while-blocked",
    code: `tui.setFocus(base);
      const a = mk('a'); const h = tui.showOverlay(a);
      tui.setFocus(other); h.unfocus(); at('unfocus while blocked');
      key('u'); tui.setFocus(null); at('null');`,
  },
  {
    name: "focus/visible-callback",
    code: `tui.setFocus(base);
      const a = mk('a'); let vis = true; const h = tui.showOverlay(a, { visible: () => vis }); at('visible');
      vis = false; at('invisible'); key('i');
      vis = true; at('visible again'); key('j');`,
  },
  {
    name: "focus/show-invisible",
    code: `tui.setFocus(base);
      const a = mk('a'); const h = tui.showOverlay(a, { visible: () => false }); at('never visible'); key('n');
      chunk = [JSON.stringify(h.getBounds())]; log.push(String(chunk));`,
  },
  {
    name: "focus/nested-overlay-prefocus",
    code: `tui.setFocus(base);
      const a = mk('a'); const b = mk('b');
      const ha = tui.showOverlay(a); const hb = tui.showOverlay(b);
      ha.hide(); at('hide lower a');
      hb.hide(); at('hide b -> a.preFocus');
      key('e');`,
  },
  {
    name: "focus/overlay-removed-from-tree",
    code: `tui.setFocus(base);
      const a = mk('a'); const h = tui.showOverlay(a);
      const temp = mk('temp'); tui.addChild(temp); tui.setFocus(temp); at('temp');
      tui.removeChild(temp); tui.setFocus(other); at('other after temp unmounted');
      key('g');`,
  },
  {
    name: "input/listeners",
    code: `tui.setFocus(base);
      const r1 = tui.addInputListener((d) => d === 'a' ? { consume: true } : undefined);
      tui.addInputListener((d) => d === 'b' ? { data: 'B' } : d === 'c' ? { data: '' } : undefined);
      key('a'); key('b'); key('c'); key('d');
      r1(); key('a');
      tui.removeInputListener(r1); key('\\x1b[97;1:3u'); key('\\x1b[97;1:1u');
      base.wantsKeyRelease = true; key('\\x1b[97;1:3u');`,
  },
  {
    name: "input/debug-key",
    code: `tui.setFocus(base); key('\\x1b[100;6u');
      tui.onDebug = () => log.push('debug'); key('\\x1b[100;6u'); key('\\x04');`,
  },
  {
    name: "input/cell-size",
    code: `tui.setFocus(base); key('\\x1b[6;18;9t'); key('\\x1b[6;0;9t'); key('\\x1b[6;x;9t');`,
  },
  {
    name: "colors/scheme",
    code: `tui.setFocus(base);
      const off = tui.onTerminalColorSchemeChange((s) => log.push('scheme ' + s));
      tui.setTerminalColorSchemeNotifications(true); tui.setTerminalColorSchemeNotifications(true);
      key('\\x1b[?997;1n'); key('\\x1b[?997;2n'); off(); key('\\x1b[?997;1n');
      tui.setTerminalColorSchemeNotifications(false);`,
  },
  {
    name: "colors/query-complete",
    code: `tui.setFocus(base);
      const p = tui.queryTerminalColors({ timeoutMs: 1000 });
      key('\\x1b]10;rgb:ffff/0000/8080\\x07'); key('\\x1b]11;rgb:00/00/00\\x1b\\\\');
      for (let i = 0; i < 16; i++) key('\\x1b]4;' + i + ';rgb:' + (i * 16).toString(16).padStart(2, '0') + '/10/20\\x07');
      log.push(JSON.stringify(await p)); key('\\x1b[?62c');`,
  },
  {
    name: "colors/query-da1",
    code: `tui.setFocus(base);
      const p = tui.queryTerminalColors({ timeoutMs: 1000 });
      key('\\x1b]11;rgb:1010/2020/3030\\x07'); key('\\x1b]11;rgb:ffff/ffff/ffff\\x07'); key('\\x1b]4;3;rgb:01/02/03\\x07');
      key('\\x1b[?62;22c'); log.push(JSON.stringify(await p)); key('\\x1b[?62c');`,
  },
  {
    name: "colors/query-timeout-late",
    code: `tui.setFocus(base);
      let late = null;
      const p = tui.queryTerminalColors({ timeoutMs: 20, onLateReply: (c) => { late = c; } });
      key('\\x1b]10;rgb:aa/bb/cc\\x07');
      log.push(JSON.stringify(await p));
      key('\\x1b]11;rgb:01/02/03\\x07'); key('\\x1b[?1;2c');
      log.push(JSON.stringify(late));`,
  },
  {
    name: "render/scheduling",
    code: `tui.setFocus(base);
      writes.length = 0;
      tui.requestRender(); tui.requestRender();
      await new Promise((r) => setTimeout(r, 60));
      log.push('frames after request: ' + writes.filter((w) => w.includes('\\x1b[?2026h')).length);
      base.name = 'BASE'; tui.requestRender(true);
      await new Promise((r) => setTimeout(r, 60));
      log.push('after forced: ' + JSON.stringify(writes.slice(-3)) + ' ' + tui.fullRedraws);
      key('k'); await new Promise((r) => setTimeout(r, 5));
      log.push('after key: ' + writes.filter((w) => w.includes('\\x1b[?2026h')).length);`,
  },
  {
    name: "render/hardware-cursor-toggle-writes",
    code:
      `writes.length = 0; tui.setShowHardwareCursor(true); tui.setShowHardwareCursor(true); tui.setShowHardwareCursor(false);
      log.push(JSON.stringify(writes)); log.push(String(tui.getShowHardwareCursor()) + tui.getClearOnShrink());`,
  },
];

const cases: TuiCase[] = focusCases.map((c) => ({
  name: c.name,
  body: `${PRELUDE}\nlet chunk;\n${c.code}\n${END}`,
}));

Deno.test("TuiBase focus, overlays, input and colour queries behave as in pi-tui 1.6.0", async () => {
  await compareWithPiTui("tui_focus", cases);
});
