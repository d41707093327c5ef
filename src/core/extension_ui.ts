/**
 * `ctx.ui` where pi draws nothing itself: 1.6.0's no-op UI of the print and JSON modes, and a
 * plain `theme` for UIs that lack one (RPC, where the client draws).
 *
 * @module
 */
import type { ExtensionUIContext } from "../extensions/types.ts";

/**
 * `ctx.ui.theme` without a terminal: every style is the text unchanged (themes come with the
 * interactive mode), so status and widget code that styles its text runs as in 1.6.0.
 */
const PLAIN_THEME = {
  name: "plain",
  style: (text: string) => text,
  fg: (_color: string, text: string) => text,
  bg: (_color: string, text: string) => text,
  bold: (text: string) => text,
  italic: (text: string) => text,
  underline: (text: string) => text,
  inverse: (text: string) => text,
  strikethrough: (text: string) => text,
  getFgAnsi: () => "",
  getBgAnsi: () => "",
  getColorMode: () => "truecolor",
  getThinkingBorderColor: () => (text: string) => text,
  getBashModeBorderColor: () => (text: string) => text,
};

/** `ui` with {@link PLAIN_THEME} as its `theme` when it has none (RPC: the client draws). */
export function withPlainTheme(ui: ExtensionUIContext): ExtensionUIContext {
  if ("theme" in ui) return ui;
  return new Proxy(ui, {
    get(target, prop) {
      if (prop === "theme") return PLAIN_THEME;
      const value = Reflect.get(target, prop, target);
      // Methods run on the real object (its private fields).
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The no-op UI of the print and JSON modes (1.6.0's `noOpUIContext`). */
export function noOpUI(): ExtensionUIContext {
  return {
    select: () => Promise.resolve(undefined),
    confirm: () => Promise.resolve(false),
    input: () => Promise.resolve(undefined),
    editor: () => Promise.resolve(undefined),
    notify: () => {},
    onTerminalInput: () => () => {},
    setStatus: () => {},
    setWorkingMessage: () => {},
    setWorkingVisible: () => {},
    setWorkingIndicator: () => {},
    setHiddenThinkingLabel: () => {},
    setWidget: () => {},
    setFooter: () => {},
    setHeader: () => {},
    setTitle: () => {},
    custom: () => Promise.resolve(undefined),
    pasteToEditor: () => {},
    setEditorText: () => {},
    getEditorText: () => "",
    addAutocompleteProvider: () => {},
    setEditorComponent: () => {},
    getEditorComponent: () => undefined,
    theme: PLAIN_THEME,
    getAllThemes: () => [],
    getTheme: () => undefined,
    setTheme: () => ({ success: false, error: "UI not available" }),
    getToolsExpanded: () => false,
    setToolsExpanded: () => {},
  };
}
