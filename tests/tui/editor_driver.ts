/**
 * Builds Editor and Input conformance cases: a component is constructed inside the case body with a
 * bracketing theme and a tiny fake TUI, fed raw key sequences step by step, and after each step its
 * text, cursor, render lines and callbacks are recorded, the same on both sides of the oracle.
 */
import { js, type TuiCase } from "../support/tui_oracle.ts";

/**
 * Prepended to every case body. The case runner under Node exits right after printing, which loses
 * all but the first 64 KiB of a piped stdout; blocking writes make it print everything (a no-op in
 * Deno). Lines are recorded with long runs of trailing padding written as `⟨n⟩` (reversible, and
 * the captures stay small).
 */
export const PREAMBLE = `
  globalThis.process?.stdout?._handle?.setBlocking?.(true);
  const pad = (lines) => lines.map((l) => l.replace(/ {8,}$/, (m) => '⟨' + m.length + '⟩'));
`;

/** Raw sequences for the keys the cases press (legacy xterm forms unless named kitty). */
export const KEYS: Record<string, string> = {
  left: "\x1b[D",
  right: "\x1b[C",
  up: "\x1b[A",
  down: "\x1b[B",
  home: "\x1b[H",
  end: "\x1b[F",
  pgup: "\x1b[5~",
  pgdn: "\x1b[6~",
  "ctrl+a": "\x01",
  "ctrl+b": "\x02",
  "ctrl+c": "\x03",
  "ctrl+d": "\x04",
  "ctrl+e": "\x05",
  "ctrl+f": "\x06",
  "ctrl+j": "\n",
  "ctrl+k": "\x0b",
  "ctrl+u": "\x15",
  "ctrl+w": "\x17",
  "ctrl+y": "\x19",
  "ctrl+-": "\x1f",
  "ctrl+]": "\x1d",
  "ctrl+alt+]": "\x1b\x1d",
  "ctrl+left": "\x1b[1;5D",
  "ctrl+right": "\x1b[1;5C",
  "alt+left": "\x1b[1;3D",
  "alt+right": "\x1b[1;3C",
  "alt+b": "\x1bb",
  "alt+f": "\x1bf",
  "alt+d": "\x1bd",
  "alt+y": "\x1by",
  "alt+bs": "\x1b\x7f",
  "alt+del": "\x1b[3;3~",
  "alt+enter": "\x1b\r",
  "shift+enter": "\x1b[13;2u",
  "shift+enter-legacy": "\x1b[13;2~",
  "shift+space": "\x1b[32;2u",
  "shift+bs": "\x1b[127;2u",
  "kitty-a": "\x1b[97u",
  "kitty-A": "\x1b[97;2u",
  bs: "\x7f",
  del: "\x1b[3~",
  enter: "\r",
  tab: "\t",
  esc: "\x1b",
};

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * Keys from a little script: `<name>` is a key of {@link KEYS}, any other grapheme is typed as one
 * key, and `<<` types a literal `<`.
 */
export function keys(script: string): string[] {
  const out: string[] = [];
  let rest = script;
  while (rest.length > 0) {
    if (rest.startsWith("<<")) {
      out.push("<");
      rest = rest.slice(2);
      continue;
    }
    const named = /^<([^<>]+)>/.exec(rest);
    if (named && KEYS[named[1]] !== undefined) {
      out.push(KEYS[named[1]]);
      rest = rest.slice(named[0].length);
      continue;
    }
    const g = graphemes.segment(rest)[Symbol.iterator]().next().value!.segment;
    out.push(g);
    rest = rest.slice(g.length);
  }
  return out;
}

/** A bracketed paste of `text` as one chunk of input. */
export function paste(text: string): string {
  return `\x1b[200~${text}\x1b[201~`;
}

/** SelectList theme that brackets every styled span. */
export const SELECT_THEME = `{
  selectedPrefix: (s) => '[P:' + s + ']',
  selectedText: (s) => '\\x1b[1m' + s + '\\x1b[22m',
  description: (s) => '\\x1b[2m' + s + '\\x1b[22m',
  scrollInfo: (s) => '{' + s + '}',
  noMatch: (s) => '!' + s + '!',
}`;

/** What an Editor case does. Steps are lists of raw keys; a snapshot is taken after each. */
export interface EditorCaseSpec {
  width: number;
  steps: string[][];
  rows?: number;
  /** JS source of the options object. */
  options?: string;
  focused?: boolean;
  /** JS run after construction, with `ed`, `tui` and `log` in scope. */
  setup?: string;
  /** Milliseconds to wait after each step (autocomplete requests settle; `@` is debounced 20 ms). */
  wait?: number;
  /** Render at this width too after each step (a resize between keys). */
  alsoWidth?: number;
}

/** An Editor case: snapshots of text, cursor, lines, popup state and callbacks after each step. */
export function editorCase(name: string, spec: EditorCaseSpec): TuiCase {
  const w = spec.width;
  return {
    name,
    body: `${PREAMBLE}
      const tui = { terminal: { rows: ${
      spec.rows ?? 24
    }, columns: ${w} }, renders: 0, requestRender() { this.renders++; } };
      const theme = { borderColor: (s) => '<' + s + '>', selectList: ${SELECT_THEME} };
      const ed = new T.Editor(tui, theme${spec.options ? `, ${spec.options}` : ""});
      ed.focused = ${spec.focused ?? true};
      const log = [];
      ed.onChange = (t) => log.push('change:' + t);
      ed.onSubmit = (t) => { log.push('submit:' + t); ed.addToHistory(t); };
      ${spec.setup ?? ""}
      const snap = () => {
        const s = { text: ed.getText(), cursor: ed.getCursor(), lines: pad(ed.render(${w})) };
        ${spec.alsoWidth ? `s.alt = pad(ed.render(${spec.alsoWidth}));` : ""}
        s.ac = ed.isShowingAutocomplete();
        s.log = log.splice(0);
        return s;
      };
      const out = [snap()];
      for (const step of ${js(spec.steps)}) {
        for (const k of step) ed.handleInput(k);
        await new Promise((r) => setTimeout(r, ${spec.wait ?? 0}));
        out.push(snap());
      }
      return { steps: out, expanded: ed.getExpandedText(), lines: ed.getLines(), renders: tui.renders };
    `,
  };
}

/** What an Input case does. */
export interface InputCaseSpec {
  width: number;
  steps: string[][];
  /** JS source of the options object. */
  options?: string;
  focused?: boolean;
  setup?: string;
}

/** An Input case: value, render and callbacks after each step. */
export function inputCase(name: string, spec: InputCaseSpec): TuiCase {
  return {
    name,
    body: `${PREAMBLE}
      const input = new T.Input(${spec.options ?? ""});
      input.focused = ${spec.focused ?? true};
      const log = [];
      input.onSubmit = (v) => log.push('submit:' + v);
      input.onEscape = () => log.push('escape');
      ${spec.setup ?? ""}
      const snap = () => ({ value: input.getValue(), lines: pad(input.render(${spec.width})), log: log.splice(0) });
      const out = [snap()];
      for (const step of ${js(spec.steps)}) {
        for (const k of step) input.handleInput(k);
        out.push(snap());
      }
      return out;
    `,
  };
}
