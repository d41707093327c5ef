/**
 * Conformance of Text, TruncatedText, Box, Spacer, Loader and CancellableLoader with pi-tui 1.6.0:
 * the same case bodies run against both (tests/support/tui_oracle.ts), at widths 1/20/80/200 with
 * ANSI styles, CJK, emoji, tabs, long words, newlines and blank text.
 */
import { compareByWidth, withFakeTimers } from "../support/tui_case_helpers.ts";
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";

const WIDTHS = [1, 20, 80, 200];

/** Texts that exercise wrapping, width measurement and style carry-over. */
const TEXTS: Record<string, string> = {
  empty: "",
  blank: "   \n  ",
  plain: "hello world, this is a plain sentence that wraps",
  longword: "supercalifragilisticexpialidocious antidisestablishmentarianism x",
  ansi: "\x1b[1mbold\x1b[22m and \x1b[31mred text that goes on and on across lines\x1b[39m done",
  cjk: "你好世界，这是一个很长的中文句子用于测试换行和宽度",
  emoji: "🚀 launch 👍🏽 ok 👨‍👩‍👧 family ✅ done 🎉🎉🎉🎉🎉",
  tabs: "a\tb\tc\tlong\ttabbed line\twith\ttabs",
  lines: "line one\nline two\n\n\x1b[32mgreen line four\nline five\x1b[0m",
};

/** A background function both sides can run: blue background, reset at the end. */
const BG = "(s) => '\\x1b[44m' + s + '\\x1b[49m'";

function textCases(): TuiCase[] {
  const cases: TuiCase[] = [];
  for (const [label, text] of Object.entries(TEXTS)) {
    for (const width of WIDTHS) {
      cases.push({
        name: `text/${label}/w${width}/default`,
        body: `return new T.Text(${js(text)}).render(${width});`,
      });
      cases.push({
        name: `text/${label}/w${width}/pad2-0-bg`,
        body: `return new T.Text(${js(text)}, 2, 0, ${BG}).render(${width});`,
      });
      cases.push({
        name: `truncated/${label}/w${width}/default`,
        body: `return new T.TruncatedText(${js(text)}).render(${width});`,
      });
      cases.push({
        name: `truncated/${label}/w${width}/pad1-1`,
        body: `return new T.TruncatedText(${js(text)}, 1, 1).render(${width});`,
      });
    }
  }
  for (const [label, text] of Object.entries({ plain: TEXTS.plain, cjk: TEXTS.cjk, ansi: TEXTS.ansi })) {
    for (const width of WIDTHS) {
      cases.push({
        name: `text/${label}/w${width}/pad3-2-bg`,
        body: `return new T.Text(${js(text)}, 3, 2, ${BG}).render(${width});`,
      });
    }
  }
  cases.push(
    {
      name: "text/cache/same-width-same-array",
      body: "const t = new T.Text('abc def'); const a = t.render(10); return [a === t.render(10), a];",
    },
    {
      name: "text/cache/setText-same-keeps-array",
      body:
        "const t = new T.Text('abc'); const a = t.render(10); t.setText('abc'); return a === t.render(10);",
    },
    {
      name: "text/cache/setText-new",
      body:
        "const t = new T.Text('abc'); const a = t.render(10); t.setText('xyz zy'); const b = t.render(4); return [a === b, a, b];",
    },
    {
      name: "text/cache/other-width",
      body: "const t = new T.Text('abc def ghi'); return [t.render(8), t.render(5), t.render(8)];",
    },
    {
      name: "text/setPaddingX",
      body:
        "const t = new T.Text('abc def', 0, 0); const a = t.render(12); t.setPaddingX(3); return [a, t.render(12)];",
    },
    {
      name: "text/setCustomBgFn",
      body:
        `const t = new T.Text('abc', 1, 1); const a = t.render(6); t.setCustomBgFn(${BG}); const b = t.render(6); t.setCustomBgFn(undefined); return [a, b, t.render(6)];`,
    },
    {
      name: "text/bg-calls",
      body:
        "const seen = []; const t = new T.Text('ab cd', 1, 1, (s) => { seen.push(s); return '<' + s + '>'; }); return [t.render(5), seen];",
    },
    {
      name: "text/invalidate-rerenders",
      body:
        "const t = new T.Text('abc'); const a = t.render(10); t.invalidate(); const b = t.render(10); return [a === b, b];",
    },
    {
      name: "text/empty-cached",
      body: "const t = new T.Text(''); const a = t.render(10); return [a, a === t.render(10)];",
    },
    { name: "text/w0", body: "return new T.Text('abc def', 1, 1).render(0);" },
    { name: "text/w2", body: "return new T.Text('abc def', 1, 0).render(2);" },
    { name: "text/w3", body: "return new T.Text('abc def', 1, 0).render(3);" },
    { name: "truncated/w0", body: "return new T.TruncatedText('abc def').render(0);" },
    { name: "truncated/pad-wider-than-width", body: "return new T.TruncatedText('abcdef', 5, 0).render(6);" },
    { name: "truncated/exact-fit", body: "return new T.TruncatedText('abcdef').render(6);" },
    {
      name: "truncated/invalidate",
      body: "const t = new T.TruncatedText('abc'); t.invalidate(); return t.render(5);",
    },
  );
  return cases;
}

function boxCases(): TuiCase[] {
  const cases: TuiCase[] = [];
  const children: Record<string, string> = {
    none: "",
    text: "b.addChild(new T.Text(TEXT, 0, 0));",
    two:
      "b.addChild(new T.Text(TEXT, 1, 0)); b.addChild(new T.Spacer(1)); b.addChild(new T.TruncatedText(TEXT));",
    empty_child: "b.addChild(new T.Text('', 0, 0));",
    nested: "const inner = new T.Box(1, 0); inner.addChild(new T.Text(TEXT, 0, 0)); b.addChild(inner);",
  };
  for (const [label, text] of Object.entries({ plain: TEXTS.plain, cjk: TEXTS.cjk, emoji: TEXTS.emoji })) {
    for (const [kind, add] of Object.entries(children)) {
      for (const width of WIDTHS) {
        if (kind === "none" && label !== "plain") continue;
        cases.push({
          name: `box/${label}/${kind}/w${width}`,
          body: `const TEXT = ${js(text)}; const b = new T.Box(); ${add} return b.render(${width});`,
        });
        if (kind === "two") {
          cases.push({
            name: `box/${label}/${kind}/w${width}/pad2-1-bg`,
            body: `const TEXT = ${
              js(text)
            }; const b = new T.Box(2, 1, ${BG}); ${add} return b.render(${width});`,
          });
        }
      }
    }
  }
  cases.push(
    {
      name: "box/cache/same-array",
      body:
        "const b = new T.Box(); b.addChild(new T.Text('abc', 0, 0)); const a = b.render(10); return a === b.render(10);",
    },
    {
      name: "box/cache/bg-change-detected-by-sample",
      body:
        "let color = 41; const b = new T.Box(0, 0, (s) => '\\x1b[' + color + 'm' + s + '\\x1b[49m'); b.addChild(new T.Text('abc', 0, 0)); const a = b.render(6); color = 42; const c = b.render(6); return [a, c];",
    },
    {
      name: "box/setBgFn",
      body:
        `const b = new T.Box(1, 0); b.addChild(new T.Text('abc', 0, 0)); const a = b.render(6); b.setBgFn(${BG}); return [a, b.render(6)];`,
    },
    {
      name: "box/setPaddingX",
      body:
        "const b = new T.Box(0, 0); b.addChild(new T.Text('abc def', 0, 0)); const a = b.render(8); b.setPaddingX(2); return [a, b.render(8)];",
    },
    {
      name: "box/remove-and-clear",
      body:
        "const b = new T.Box(0, 0); const x = new T.Text('x', 0, 0); const y = new T.Text('y', 0, 0); b.addChild(x); b.addChild(y); const r1 = b.render(3); b.removeChild(x); const r2 = b.render(3); b.removeChild(x); b.clear(); return [r1, r2, b.render(3), b.children.length];",
    },
    {
      name: "box/child-setText",
      body:
        "const b = new T.Box(1, 0); const t = new T.Text('one', 0, 0); b.addChild(t); const a = b.render(8); t.setText('two'); return [a, b.render(8)];",
    },
    {
      name: "box/invalidate-children",
      body:
        "let n = 0; const c = { render: (w) => ['r' + (n++)], invalidate: () => { n += 10; } }; const b = new T.Box(0, 0); b.addChild(c); const a = b.render(4); b.invalidate(); return [a, b.render(4), n];",
    },
    {
      name: "box/mouse-to-child",
      body:
        "const got = []; const c = { render: () => ['aa', 'bb'], handleMouse: (e) => { got.push([e.x, e.y, e.width]); return { handled: true }; } }; const b = new T.Box(2, 1); b.addChild(c); b.render(10); const ev = (x, y) => ({ type: 'press', button: 'left', x, y, screenX: x, screenY: y, width: 10, height: 4, shift: false, alt: false, ctrl: false }); const r = [ev(0, 0), ev(2, 1), ev(3, 2), ev(8, 1), ev(2, 3)].map((e) => { const res = b.handleMouse(e); return res ? { handled: res.handled, originX: res.target.originX, originY: res.target.originY } : null; }); return [r, got];",
    },
  );
  return cases;
}

function spacerCases(): TuiCase[] {
  return [0, 1, 3, -1].map((n) => ({
    name: `spacer/${n}`,
    body:
      `const s = new T.Spacer(${n}); const a = s.render(10); s.setLines(2); s.invalidate(); return [a, s.render(1)];`,
  })).concat([{ name: "spacer/default", body: "return new T.Spacer().render(80);" }]);
}

function loaderCases(): TuiCase[] {
  const cases: TuiCase[] = [];
  const indicators: Record<string, string> = {
    default: "undefined",
    custom: "{ frames: ['-', '\\\\', '|', '/'], intervalMs: 50 }",
    single: "{ frames: ['*'] }",
    hidden: "{ frames: [] }",
    zero_interval: "{ frames: ['a', 'b'], intervalMs: 0 }",
    frames_only: "{ intervalMs: 200 }",
    emoji: "{ frames: ['🌑', '🌓', '🌕'] }",
  };
  for (const [label, indicator] of Object.entries(indicators)) {
    for (const width of [1, 20, 80]) {
      cases.push({
        name: `loader/${label}/w${width}`,
        body: withFakeTimers(`
          let renders = 0; const ui = { requestRender() { renders++; } };
          const l = new T.Loader(ui, (s) => '<' + s + '>', (s) => '\\x1b[2m' + s + '\\x1b[22m', 'Working on it', ${indicator});
          const frames = [l.render(${width})];
          for (let i = 0; i < 5; i++) { tick(); frames.push(l.render(${width})); }
          l.stop(); l.stop();
          return { frames, renders, intervals: timers.map((t) => t.ms), cleared: cleared.length };
        `),
      });
    }
  }
  cases.push(
    {
      name: "loader/setMessage-and-setIndicator",
      body: withFakeTimers(`
        let renders = 0; const ui = { requestRender() { renders++; } };
        const l = new T.Loader(ui, (s) => '<' + s + '>', (s) => s);
        const out = [l.render(30)];
        tick(); l.setMessage('第二 message'); out.push(l.render(30));
        l.setIndicator({ frames: ['x', 'y'] }); out.push(l.render(30)); tick(); out.push(l.render(30));
        l.setIndicator(); out.push(l.render(30));
        l.invalidate(); out.push(l.render(30));
        l.stop(); l.start(); tick(); out.push(l.render(30)); l.stop();
        return { out, renders, intervals: timers.map((t) => t.ms), cleared: cleared.length };
      `),
    },
    {
      name: "loader/long-message-wraps",
      body: withFakeTimers(`
        const l = new T.Loader({ requestRender() {} }, (s) => s, (s) => s, 'a long loading message that wraps over several rows');
        const r = [l.render(12), l.render(200)]; l.stop(); return r;
      `),
    },
  );
  return cases;
}

Deno.test("Text and TruncatedText render like pi-tui 1.6.0", async () => {
  await compareByWidth("simple_text", textCases());
});

Deno.test("Box and Spacer render like pi-tui 1.6.0", async () => {
  await compareWithPiTui("simple_box", [...boxCases(), ...spacerCases()]);
});

Deno.test("Loader animates and renders like pi-tui 1.6.0", async () => {
  await compareWithPiTui("simple_loader", loaderCases());
});
