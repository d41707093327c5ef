/**
 * Ctrl+V (`app.clipboard.pasteImage`) beside pi 1.6.0 on Linux/X11, with a fake `xclip` on PATH:
 * an image on the clipboard is saved as `pi-clipboard-<uuid>.png` in $TMPDIR and its path typed
 * into the editor; with text on the clipboard, the text is typed in. The same keys run in our `pi`
 * and in the reference; the screens must be equal and the saved file must hold the image's bytes.
 */
import { assert, assertEquals } from "../support/assert.ts";
import {
  type InteractiveScenario,
  shellQuote,
  startInteractiveScenario,
} from "../support/interactive_scenario.ts";
import { assertSameScreens, collectScreens, type ScriptStep } from "../support/interactive_script.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };

/** A 1×1 PNG. */
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

/** xclip as pi calls it: the clipboard holds an image or text, as the `mode` file beside it says. */
const FAKE_XCLIP = `#!/bin/sh
dir=$(dirname "$0")
mode=$(cat "$dir/mode")
case "$*" in
  *TARGETS*) if [ "$mode" = image ]; then printf 'TARGETS\\nimage/png\\n'; else printf 'TARGETS\\nUTF8_STRING\\n'; fi ;;
  *"-t image/png"*) cat "$dir/clip.png" ;;
  *-out*) printf 'words from the clipboard' ;;
  *) exit 1 ;;
esac
`;

function setMode(s: InteractiveScenario, mode: "image" | "text"): Promise<void> {
  return Deno.writeTextFile(`${s.agent.root}/bin/mode`, mode);
}

const STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("(auto)") },
  { name: "typed", act: (s) => s.pane.type("look at "), ready: (t) => t.includes("look at") },
  { name: "image", act: (s) => s.pane.keys("C-v"), ready: (t) => t.includes(".png") },
  {
    name: "text",
    act: async (s) => {
      await setMode(s, "text");
      await s.pane.type(" and ");
      await s.pane.keys("C-v");
    },
    ready: (t) => t.includes("words from the clipboard"),
  },
];

async function runScript(reference: boolean) {
  const s = await startInteractiveScenario([], { reference, width: 140 });
  try {
    const bin = `${s.agent.root}/bin`;
    const tmp = `${s.agent.root}/tmp`;
    await Deno.mkdir(bin);
    await Deno.mkdir(tmp);
    await Deno.writeTextFile(`${bin}/xclip`, FAKE_XCLIP);
    await Deno.chmod(`${bin}/xclip`, 0o755);
    await Deno.writeFile(`${bin}/clip.png`, PNG);
    await setMode(s, "image");
    const env = `env -u WAYLAND_DISPLAY -u XDG_SESSION_TYPE PATH=${
      shellQuote(bin)
    }:"$PATH" DISPLAY=:99 TMPDIR=${shellQuote(tmp)}`;
    await s.pane.command(`clear; ${env} ${s.piCommand()}`);
    const screens = await collectScreens(s, STEPS, TIMEOUTS);
    const saved: string[] = [];
    for await (const entry of Deno.readDir(tmp)) {
      if (/^pi-clipboard-[0-9a-f-]{36}\.png$/.test(entry.name)) saved.push(entry.name);
    }
    return { screens, saved, bytes: saved[0] ? await Deno.readFile(`${tmp}/${saved[0]}`) : undefined };
  } finally {
    await s.close();
  }
}

Deno.test("INT-PASTE: Ctrl+V pastes a clipboard image as a temp file's path, and clipboard text as text, as pi 1.6.0", async () => {
  const ours = await runScript(false);
  const reference = await runScript(true);
  assertSameScreens(STEPS, ours.screens, reference.screens);
  assertEquals(ours.saved.length, 1);
  assertEquals(ours.bytes, PNG);
  assert(
    ours.screens[3].includes("look at <root>/tmp/pi-clipboard-<uuid>.png and words from the clipboard"),
    ours.screens[3],
  );
});
