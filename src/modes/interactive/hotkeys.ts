/**
 * The /hotkeys table of pi 1.6.0: navigation, editing and app keys as markdown, each key written
 * with capitalised parts (`Ctrl+C`, `Shift+Tab`), several keys joined by `/`.
 *
 * @module
 */
import { getKeybindings, type Keybinding } from "../../tui/mod.ts";
import { APP_KEYS, type AppAction } from "./app_keys.ts";

/** `ctrl+c/escape` → `Ctrl+C/Escape`. */
export function keyDisplayText(keys: readonly string[]): string {
  return keys.map((key) =>
    key.split("+").map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join("+")
  )
    .join("/");
}

/** The markdown of the /hotkeys view. */
export function hotkeysMarkdown(): string {
  const kb = getKeybindings();
  const ed = (id: string) => keyDisplayText(kb.getKeys(id as Keybinding));
  const app = (id: AppAction) => keyDisplayText(APP_KEYS[id]);
  const row = (keys: string, action: string) => `| ${keys} | ${action} |`;
  const code = (...keys: string[]) => keys.map((k) => `\`${k}\``).join(" / ");
  const table = (title: string, rows: string[]) =>
    [`**${title}**`, "| Key | Action |", "|-----|--------|", ...rows].join("\n");
  return [
    table("Navigation", [
      row(
        code(
          ed("tui.editor.cursorUp"),
          ed("tui.editor.cursorDown"),
          ed("tui.editor.cursorLeft"),
          ed("tui.editor.cursorRight"),
        ),
        "Move cursor / browse history",
      ),
      row(code(ed("tui.editor.cursorWordLeft"), ed("tui.editor.cursorWordRight")), "Move by word"),
      row(code(ed("tui.editor.cursorLineStart")), "Start of line"),
      row(code(ed("tui.editor.cursorLineEnd")), "End of line"),
      row(code(ed("tui.editor.jumpForward")), "Jump forward to character"),
      row(code(ed("tui.editor.jumpBackward")), "Jump backward to character"),
      row(code(ed("tui.editor.pageUp"), ed("tui.editor.pageDown")), "Scroll by page"),
    ]),
    table("Editing", [
      row(code(ed("tui.input.submit")), "Send message"),
      row(code(ed("tui.input.newLine")), "New line"),
      row(code(ed("tui.editor.deleteWordBackward")), "Delete word backwards"),
      row(code(ed("tui.editor.deleteWordForward")), "Delete word forwards"),
      row(code(ed("tui.editor.deleteToLineStart")), "Delete to start of line"),
      row(code(ed("tui.editor.deleteToLineEnd")), "Delete to end of line"),
      row(code(ed("tui.editor.yank")), "Paste the most-recently-deleted text"),
      row(code(ed("tui.editor.yankPop")), "Cycle through the deleted text after pasting"),
      row(code(ed("tui.editor.undo")), "Undo"),
    ]),
    table("Other", [
      row(code(ed("tui.input.tab")), "Path completion / accept autocomplete"),
      row(code(app("app.interrupt")), "Cancel autocomplete / abort streaming"),
      row(code(app("app.clear")), "Clear editor (first) / exit (second)"),
      row(code(app("app.exit")), "Exit (when editor is empty)"),
      row(code(app("app.suspend")), "Suspend to background"),
      row(code(app("app.thinking.cycle")), "Cycle thinking level"),
      row(code(app("app.model.cycleForward"), app("app.model.cycleBackward")), "Cycle models"),
      row(code(app("app.model.select")), "Open model selector"),
      row(code(app("app.tools.expand")), "Toggle tool output expansion"),
      row(code(app("app.thinking.toggle")), "Toggle thinking block visibility"),
      row(code(app("app.editor.external")), "Edit message in external editor"),
      row(code(app("app.message.copy")), "Copy selection or last assistant message"),
      row(code(app("app.message.followUp")), "Queue follow-up message"),
      row(code(app("app.message.dequeue")), "Restore queued messages"),
      row(code(app("app.clipboard.pasteImage")), "Paste files on macOS, images, or text from clipboard"),
      row(code("/"), "Slash commands"),
      row(code("!"), "Run bash command"),
      row(code("!!"), "Run bash command (excluded from context)"),
    ]),
  ].join("\n\n");
}
