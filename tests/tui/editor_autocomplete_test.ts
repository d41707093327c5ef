/**
 * Conformance of the Editor's autocomplete with pi-tui 1.6.0: slash commands through the real
 * CombinedAutocompleteProvider (fuzzy names, argument completions, Tab, Enter that submits a
 * command), `@`, `#` and provider trigger characters through a synchronous in-body provider (the
 * `@` debounce included), Tab path completion in a scratch directory, and the popup's keys.
 */
import { compareWithPiTui, type TuiCase } from "../support/tui_oracle.ts";
import { editorCase, keys } from "./editor_driver.ts";

/**
 * Installs a provider: slash commands and paths go to CombinedAutocompleteProvider over a scratch
 * directory (made here, removed by `cleanup`); `@`, `#` and `$` tokens are answered in the body.
 */
const PROVIDER_SETUP = `
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pi-ac-'));
  for (const d of ['src', 'src/components', 'docs', 'my dir']) fs.mkdirSync(path.join(dir, d), { recursive: true });
  for (const f of ['src/main.ts', 'src/util.ts', 'src/components/editor.ts', 'docs/readme.md', 'my dir/file one.txt', 'package.json', 'unique-file.txt']) {
    fs.writeFileSync(path.join(dir, f), 'x');
  }
  globalThis.__cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  const commands = [
    { name: 'model', description: 'Select the model' },
    { name: 'compact', description: 'Compact the session', argumentHint: '[instructions]' },
    { name: 'clear' },
    { name: 'copy', argumentHint: '<n>' },
    { name: 'skill:review', description: 'Review code' },
    { name: 'open', description: 'Open a file', getArgumentCompletions: (p) => ['alpha', 'beta', 'alphabet', 'gamma']
        .filter((v) => v.startsWith(p)).map((v) => ({ value: v, label: v, description: 'arg ' + v })) },
    { value: 'export', label: 'export', description: 'Export as HTML' },
  ];
  const combined = new T.CombinedAutocompleteProvider(commands, dir, null);
  const symbols = { '@': ['src/main.ts', 'src/util.ts', 'docs/', 'README.md'], '#': ['#12 fix bug', '#34 add tests'], '$': ['$HOME', '$PATH'] };
  ed.setAutocompleteProvider({
    triggerCharacters: ['$', '/', ' ', 'ab'],
    async getSuggestions(lines, line, col, options) {
      const before = lines[line].slice(0, col);
      const m = /(?:^|\\s)([@#$])([^\\s]*)$/.exec(before);
      if (m) {
        const items = symbols[m[1]].filter((v) => v.toLowerCase().includes(m[2].toLowerCase()))
          .map((v) => ({ value: m[1] === '@' ? '@' + v : v, label: v, description: options.force ? 'forced' : undefined }));
        return items.length ? { items, prefix: m[1] + m[2] } : null;
      }
      return combined.getSuggestions(lines, line, col, options);
    },
    applyCompletion: (lines, line, col, item, prefix) => combined.applyCompletion(lines, line, col, item, prefix),
    shouldTriggerFileCompletion: (lines, line, col) => combined.shouldTriggerFileCompletion(lines, line, col),
  });
`;

/** Cases run with the provider; `wait` lets the `@` debounce (20 ms) pass after each step. */
function acCase(name: string, width: number, steps: string[], options?: string): TuiCase {
  const c = editorCase(name, { width, setup: PROVIDER_SETUP, steps: steps.map(keys), wait: 40, options });
  return { ...c, body: `try { ${c.body} } finally { globalThis.__cleanup?.(); }` };
}

function autocompleteCases(): TuiCase[] {
  const out: TuiCase[] = [];
  const scenarios: Record<string, string[]> = {
    "slash-open": ["/"],
    "slash-filter": ["/", "c", "o", "<bs>", "<bs>", "<bs>"],
    "slash-navigate": ["/", "<down>", "<down>", "<up>", "<pgdn>", "<pgup>", "<esc>"],
    "slash-tab": ["/mo", "<tab>", "x"],
    "slash-enter-submits": ["/comp", "<enter>"],
    "slash-enter-exact": ["/clear", "<enter>"],
    "slash-no-match": ["/zzz", "<bs><bs><bs>"],
    "slash-skill": ["/rev", "<tab>"],
    "slash-arguments": ["/open ", "al", "<down>", "<tab>"],
    "slash-arguments-enter": ["/open b", "<enter>"],
    "slash-cursor-left": ["/open al", "<left><left><left>", "<left>"],
    "slash-second-line": ["x<ctrl+j>/", "mo"],
    "slash-not-at-start": ["x /mo"],
    "slash-leading-space": ["  /m"],
    "tab-slash-name": ["/c", "<esc>", "<tab>", "<tab>"],
    "at-debounced": ["look at @", "s", "r", "c", "<tab>"],
    "at-enter": ["@doc", "<enter>", "<enter>"],
    "at-escape-retrigger": ["@", "<esc>", "m", "<bs>"],
    "hash": ["fix #", "1", "<enter>"],
    "provider-trigger": ["echo $", "P", "<tab>"],
    "trigger-in-word": ["mail@", "x"],
    "trigger-after-paren": ["(@", "s"],
    "path-tab-list": ["src/", "<tab>", "<down>", "<tab>"],
    "path-tab-single": ["uniq", "<tab>"],
    "path-tab-dir-continue": ["sr", "<tab>", "comp", "<tab>"],
    "path-quoted": ['"my', "<tab>", "<tab>"],
    "path-typed-slash": ["see ./", "d", "<enter>"],
    "path-none": ["zzzz", "<tab>"],
    "ctrl-c-in-popup": ["/", "<ctrl+c>", "<esc>"],
    "undo-completion": ["/mo", "<tab>", "<ctrl+->", "<ctrl+->"],
    "newline-closes": ["/", "<ctrl+j>"],
    "delete-forward-retrigger": ["/mod", "<left><left>", "<esc>", "<del>"],
  };
  for (const [label, steps] of Object.entries(scenarios)) {
    for (const width of [40, 80]) out.push(acCase(`ac/${label}/w${width}`, width, steps));
  }
  out.push(acCase("ac/slash-open/w12", 12, ["/", "<down>"]));
  out.push(acCase("ac/slash-open/w1", 1, ["/", "<down>"]));
  out.push(acCase("ac/padding/w30", 30, ["/", "c"], "{ paddingX: 2, autocompleteMaxVisible: 3 }"));
  out.push(
    acCase("ac/max-visible/w60", 60, ["/", "<down><down><down><down>"], "{ autocompleteMaxVisible: 20 }"),
  );
  out.push(...extraCases());
  return out;
}

/** A mouse event literal for the popup rows (the popup starts two rows under the last text row). */
function mouse(type: string, x: number, y: number, width: number, extra = ""): string {
  return `{ type: '${type}', button: 'left', x: ${x}, y: ${y}, screenX: ${x}, screenY: ${y}, width: ${width}, ` +
    `height: 12, shift: false, alt: false, ctrl: false${extra} }`;
}

/** Popup mouse, slow providers whose stale answers are dropped, provider swaps, viewport keys. */
function extraCases(): TuiCase[] {
  const out: TuiCase[] = [];
  for (const [x, y] of [[2, 3], [4, 5], [0, 9], [1, 1]]) {
    const setup = `${PROVIDER_SETUP}
      ed.handleInput('/'); await new Promise((r) => setTimeout(r, 10)); ed.render(40);
      log.push('capture:' + ed.capturesViewportInput);
      log.push('press:' + JSON.stringify(ed.handleMouse(${mouse("press", x, y, 40)})));
      log.push('text:' + ed.getText());
      log.push('click:' + JSON.stringify(ed.handleMouse(${mouse("click", x, y, 40)})));
      log.push('wheel:' + JSON.stringify(ed.handleMouse(${mouse("wheel", x, y, 40, ", wheelDelta: 1")})));
      log.push('capture:' + ed.capturesViewportInput);`;
    const c = editorCase(`popup-mouse/${x}-${y}/w40`, { width: 40, setup, steps: [keys("x")], wait: 10 });
    out.push({ ...c, body: `try { ${c.body} } finally { globalThis.__cleanup?.(); }` });
  }
  const slow = `
    const answers = [];
    ed.setAutocompleteProvider({
      async getSuggestions(lines, line, col, options) {
        const before = lines[line].slice(0, col);
        options.signal.addEventListener('abort', () => answers.push('aborted:' + before));
        await new Promise((r) => setTimeout(r, 30));
        answers.push('answered:' + before + ':' + options.signal.aborted);
        const items = ['alpha', 'beta', 'gamma'].filter((v) => v.startsWith(before.slice(1)))
          .map((v) => ({ value: v, label: v }));
        return items.length ? { items, prefix: before } : null;
      },
      applyCompletion: (lines, line, col, item, prefix) => ({ lines: ['/' + item.value + ' '], cursorLine: 0, cursorCol: item.value.length + 2 }),
    });
    globalThis.__answers = answers;`;
  const slowSteps: Record<string, string[][]> = {
    "stale-dropped": [keys("/a"), keys("l"), keys("<bs><bs>")],
    "escape-aborts": [keys("/"), keys("g<esc>"), keys("/")],
    "tab-after-answer": [keys("/b"), keys("<tab>")],
  };
  for (const [label, steps] of Object.entries(slowSteps)) {
    const c = editorCase(`slow/${label}/w30`, { width: 30, setup: slow, steps, wait: 80 });
    out.push({
      ...c,
      body: c.body.replace("return { steps: out,", "return { answers: globalThis.__answers, steps: out,"),
    });
  }
  const swap = `${PROVIDER_SETUP}
    ed.handleInput('/'); await new Promise((r) => setTimeout(r, 10));
    log.push('open:' + ed.isShowingAutocomplete());
    ed.setAutocompleteProvider({ triggerCharacters: ['%'], getSuggestions: async () => ({ items: [{ value: '%x', label: 'x' }], prefix: '%' }),
      applyCompletion: (lines, line, col, item, prefix) => ({ lines: [lines[0].slice(0, col - prefix.length) + item.value], cursorLine: 0, cursorCol: col - prefix.length + item.value.length }) });
    log.push('open:' + ed.isShowingAutocomplete());`;
  const c = editorCase("provider-swap/w30", {
    width: 30,
    setup: swap,
    steps: [keys(" %"), keys("<tab>"), keys(" @")],
    wait: 40,
  });
  out.push({ ...c, body: `try { ${c.body} } finally { globalThis.__cleanup?.(); }` });
  return out;
}

Deno.test("Editor autocomplete behaves as in pi-tui 1.6.0", async () => {
  await compareWithPiTui("editor_autocomplete", autocompleteCases());
});
