/**
 * Editor: the multi-line prompt editor of pi-tui 1.6.0 (word wrap with CJK, sticky-column cursor
 * moves, kill ring, undo, history, bracketed and large pastes, autocomplete popup). The work is
 * split over editor_*.ts; this file holds the component and its key dispatch.
 *
 * @module
 */
import type { AutocompleteProvider } from "../autocomplete.ts";
import { getKeybindings, type KeybindingsManager } from "../keybindings.ts";
import { decodePrintableKey, matchesKey } from "../keys.ts";
import type { Component, Focusable, TuiMouseEvent, TuiMouseEventResult } from "../tui_component.ts";
import type { TUI } from "../tui_types.ts";
import type { SelectListTheme } from "./select_list.ts";
import { EditorAutocomplete } from "./editor_autocomplete.ts";
import { BracketedPasteBuffer } from "./editor_bracketed_paste.ts";
import { deleteBackward, deleteForward, newLine, pasteText, typeCharacter } from "./editor_edit.ts";
import {
  killToLineEnd,
  killToLineStart,
  killWordBackward,
  killWordForward,
  yank,
  yankPop,
} from "./editor_kill.ts";
import { EditorModel, normalizeEditorText } from "./editor_model.ts";
import { isNewLineKey, submitsOnBackslashEnter } from "./editor_keys.ts";
import {
  isOnVisualEdge,
  jumpToChar,
  moveCursor,
  moveToLineEdge,
  moveWordBackward,
  moveWordForward,
  navigateHistory,
  pageScroll,
  placeCursorAtCell,
} from "./editor_motion.ts";
import { expandPasteMarkers } from "./editor_paste.ts";
import { borderLine, editorGeometry, renderPopupLines, renderTextLines } from "./editor_render.ts";
import { layoutEditorText } from "./editor_wrap.ts";

export { type TextChunk, wordWrapLine } from "./editor_wrap.ts";

/** Colours of the Editor: its borders and its autocomplete popup. */
export interface EditorTheme {
  /** Styles the top and bottom borders. */
  borderColor: (str: string) => string;
  /** Styles the autocomplete popup. */
  selectList: SelectListTheme;
}

/** Layout options of the Editor. */
export interface EditorOptions {
  /** Columns left blank on each side of the text (default 0). */
  paddingX?: number;
  /** Items the autocomplete popup shows at most, 3 to 20 (default 5). */
  autocompleteMaxVisible?: number;
}

/** A whole non-negative number, 0 for anything not finite. */
function clampPadding(value: number): number {
  return Number.isFinite(value) ? Math.max(0, Math.floor(value)) : 0;
}

/** The popup shows 3 to 20 items (5 when the value is not finite). */
function clampMaxVisible(value: number): number {
  return Number.isFinite(value) ? Math.max(3, Math.min(20, Math.floor(value))) : 5;
}

/** Multi-line text editor component with borders, wrapping and an autocomplete popup. */
export class Editor implements Component, Focusable {
  /** Focusable interface - set by TUI when focus changes */
  focused = false;
  /** The TUI it draws in (its terminal height sizes the editor; renders are requested from it). */
  protected tui: TUI;
  /** Border color (can be changed dynamically) */
  borderColor: (str: string) => string;
  /** Called with the submitted text (paste markers expanded, trimmed) on Enter. */
  onSubmit?: (text: string) => void;
  /** Called with the text after every change. */
  onChange?: (text: string) => void;
  /** When true, Enter does nothing (a backslash before the cursor still makes a new line). */
  disableSubmit = false;

  #theme: EditorTheme;
  #paddingX: number;
  #maxVisible: number;
  #model = new EditorModel(() => this.onChange?.(this.getText()));
  #ac: EditorAutocomplete;
  #jumpMode: "forward" | "backward" | null = null;
  #paste = new BracketedPasteBuffer();
  #renderedVisibleLineCount = 1;
  #renderedAutocompleteHeight = 0;

  /** An editor drawn in `tui` (whose terminal height sizes it) with the given colours and layout. */
  constructor(tui: TUI, theme: EditorTheme, options: EditorOptions = {}) {
    this.tui = tui;
    this.#theme = theme;
    this.borderColor = theme.borderColor;
    this.#paddingX = clampPadding(options.paddingX ?? 0);
    this.#maxVisible = clampMaxVisible(options.autocompleteMaxVisible ?? 5);
    this.#ac = new EditorAutocomplete({
      model: this.#model,
      selectListTheme: () => this.#theme.selectList,
      maxVisible: () => this.#maxVisible,
      requestRender: () => this.tui.requestRender(),
    });
  }

  /** The open autocomplete menu receives fullscreen viewport keys, such as PageUp/PageDown. */
  get capturesViewportInput(): boolean {
    return this.#ac.state !== null;
  }

  /** Horizontal padding inside the borders. */
  getPaddingX(): number {
    return this.#paddingX;
  }

  /** Sets the horizontal padding (a whole number ≥ 0) and redraws when it changed. */
  setPaddingX(padding: number): void {
    const next = clampPadding(padding);
    if (this.#paddingX === next) return;
    this.#paddingX = next;
    this.tui.requestRender();
  }

  /** How many items the autocomplete popup shows at most. */
  getAutocompleteMaxVisible(): number {
    return this.#maxVisible;
  }

  /** Sets how many popup items show (3 to 20) and redraws when it changed. */
  setAutocompleteMaxVisible(maxVisible: number): void {
    const next = clampMaxVisible(maxVisible);
    if (this.#maxVisible === next) return;
    this.#maxVisible = next;
    this.tui.requestRender();
  }

  /** Sets the source of completions (closing an open popup). */
  setAutocompleteProvider(provider: AutocompleteProvider): void {
    this.#ac.setProvider(provider);
  }

  /**
   * Add a prompt to history for up/down arrow navigation.
   * Called after successful submission.
   */
  addToHistory(text: string): void {
    this.#model.addToHistory(text);
  }

  /** Nothing is cached between renders. */
  invalidate(): void {}

  /** The border above the text; `hiddenLineCount` lines are scrolled out above. */
  protected renderTopBorder(width: number, hiddenLineCount: number): string {
    return this.borderColor(borderLine("↑", hiddenLineCount, width));
  }

  /** The border below the text; `hiddenLineCount` lines are scrolled out below. */
  protected renderBottomBorder(width: number, hiddenLineCount: number): string {
    return this.borderColor(borderLine("↓", hiddenLineCount, width));
  }

  /** Borders, the visible text lines (at most 30% of the terminal, at least 5) and the popup. */
  render(width: number): string[] {
    const m = this.#model;
    const geometry = editorGeometry(width, this.#paddingX);
    // Without padding one column is kept free for the cursor at a line end.
    const layoutWidth = Math.max(1, geometry.contentWidth - (geometry.paddingX ? 0 : 1));
    m.lastWidth = layoutWidth;
    const layout = layoutEditorText(
      m.state.lines,
      m.state.cursorLine,
      m.state.cursorCol,
      m.chunker(layoutWidth),
    );
    const maxVisible = this.#pageSize();
    const cursorIndex = Math.max(0, layout.findIndex((line) => line.hasCursor));
    if (cursorIndex < m.scrollOffset) m.scrollOffset = cursorIndex;
    else if (cursorIndex >= m.scrollOffset + maxVisible) m.scrollOffset = cursorIndex - maxVisible + 1;
    m.scrollOffset = Math.max(0, Math.min(m.scrollOffset, Math.max(0, layout.length - maxVisible)));
    const visible = layout.slice(m.scrollOffset, m.scrollOffset + maxVisible);
    this.#renderedVisibleLineCount = visible.length;

    const result = [this.renderTopBorder(width, m.scrollOffset)];
    const firstGrapheme = (text: string) => m.segment(text)[Symbol.iterator]().next().value?.segment || "";
    result.push(...renderTextLines(visible, geometry, this.focused, firstGrapheme));
    result.push(this.renderBottomBorder(width, layout.length - (m.scrollOffset + visible.length)));
    this.#renderedAutocompleteHeight = 0;
    if (this.#ac.state && this.#ac.list) {
      const popup = this.#ac.list.render(geometry.contentWidth);
      this.#renderedAutocompleteHeight = popup.length;
      result.push(...renderPopupLines(popup, geometry));
    }
    return result;
  }

  /** Visible text lines: 30% of the terminal height, at least 5 (also the page size). */
  #pageSize(): number {
    return Math.max(5, Math.floor(this.tui.terminal.rows * 0.3));
  }

  /** A left click places the cursor; clicks on the popup go to it. Press/drag stay unhandled for selection. */
  handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
    const m = this.#model;
    const popupTop = this.#renderedVisibleLineCount + 2;
    const geometry = editorGeometry(event.width, this.#paddingX);
    if (
      this.#ac.state && this.#ac.list && event.y >= popupTop &&
      event.y < popupTop + this.#renderedAutocompleteHeight
    ) {
      const result = this.#ac.list.handleMouse?.({
        ...event,
        x: event.x - geometry.paddingX,
        y: event.y - popupTop,
        width: geometry.contentWidth,
        height: this.#renderedAutocompleteHeight,
      });
      return result ? { ...result, focus: true } : undefined;
    }
    if (event.type !== "click" || event.button !== "left") return undefined;
    if (event.y <= 0 || event.y > this.#renderedVisibleLineCount) return { handled: true, focus: true };
    if (!placeCursorAtCell(m, m.scrollOffset + event.y - 1, Math.max(0, event.x - geometry.paddingX))) {
      return { handled: true, focus: true };
    }
    m.lastAction = null;
    m.exitHistoryBrowsing();
    if (this.#ac.state) this.#ac.update();
    return { handled: true, focus: true };
  }

  /** Handles one key or paste chunk from the terminal. */
  handleInput(data: string): void {
    const kb = getKeybindings();
    if (this.#jumpMode !== null && this.#handleJump(data, kb)) return;
    const pasted = this.#paste.feed(data);
    if (pasted) {
      if (pasted.paste) {
        this.#ac.cancel();
        pasteText(this.#model, pasted.paste);
      }
      if (pasted.rest.length > 0) this.handleInput(pasted.rest);
      return;
    }
    if (kb.matches(data, "tui.input.copy")) return; // ctrl+c belongs to the parent
    if (kb.matches(data, "tui.editor.undo")) {
      this.#model.undo();
      return;
    }
    if (this.#ac.handleKey(data, kb)) return;
    if (kb.matches(data, "tui.input.tab") && !this.#ac.state) {
      this.#ac.tab();
      return;
    }
    if (this.#handleEditKey(data, kb)) return;
    this.#handleMotionOrText(data, kb);
  }

  /** In jump mode the next printable key is the target; returns whether the key was used up. */
  #handleJump(data: string, kb: KeybindingsManager): boolean {
    if (kb.matches(data, "tui.editor.jumpForward") || kb.matches(data, "tui.editor.jumpBackward")) {
      this.#jumpMode = null;
      return true;
    }
    const printable = decodePrintableKey(data) ?? (data.charCodeAt(0) >= 32 ? data : undefined);
    const direction = this.#jumpMode!;
    this.#jumpMode = null;
    if (printable === undefined) return false; // a control key cancels and acts normally
    jumpToChar(this.#model, printable, direction);
    return true;
  }

  /** Deletes, kills and yanks; returns whether the key was one. */
  #handleEditKey(data: string, kb: KeybindingsManager): boolean {
    const m = this.#model;
    if (kb.matches(data, "tui.editor.deleteToLineEnd")) killToLineEnd(m);
    else if (kb.matches(data, "tui.editor.deleteToLineStart")) killToLineStart(m);
    else if (kb.matches(data, "tui.editor.deleteWordBackward")) killWordBackward(m);
    else if (kb.matches(data, "tui.editor.deleteWordForward")) killWordForward(m);
    else if (kb.matches(data, "tui.editor.deleteCharBackward") || matchesKey(data, "shift+backspace")) {
      deleteBackward(m);
      this.#ac.afterDelete();
    } else if (kb.matches(data, "tui.editor.deleteCharForward") || matchesKey(data, "shift+delete")) {
      deleteForward(m);
      this.#ac.afterDelete();
    } else if (kb.matches(data, "tui.editor.yank")) yank(m);
    else if (kb.matches(data, "tui.editor.yankPop")) yankPop(m);
    else if (kb.matches(data, "tui.editor.historyPrevious") || kb.matches(data, "tui.editor.historyNext")) {
      this.#ac.cancel();
      navigateHistory(m, kb.matches(data, "tui.editor.historyPrevious") ? -1 : 1);
    } else return false;
    return true;
  }

  /** Cursor moves, new lines, submit, and typed text. */
  #handleMotionOrText(data: string, kb: KeybindingsManager): void {
    const m = this.#model;
    if (kb.matches(data, "tui.editor.cursorLineStart")) return moveToLineEdge(m, false);
    if (kb.matches(data, "tui.editor.cursorLineEnd")) return moveToLineEdge(m, true);
    if (kb.matches(data, "tui.editor.cursorWordLeft")) return moveWordBackward(m);
    if (kb.matches(data, "tui.editor.cursorWordRight")) return moveWordForward(m);
    if (isNewLineKey(data, kb)) {
      if (!this.disableSubmit && submitsOnBackslashEnter(data, kb, this.#model)) {
        this.#deleteBackward();
        this.#submit();
      } else this.#newLine();
      return;
    }
    if (kb.matches(data, "tui.input.submit")) {
      if (this.disableSubmit) return;
      // Terminals without shift+enter: a backslash before the cursor turns Enter into a new line.
      if (m.state.cursorCol > 0 && m.currentLine()[m.state.cursorCol - 1] === "\\") {
        this.#deleteBackward();
        this.#newLine();
      } else this.#submit();
      return;
    }
    if (kb.matches(data, "tui.editor.cursorUp")) {
      const top = isOnVisualEdge(m, -1);
      const empty = m.state.lines.length === 1 && m.state.lines[0] === "";
      if (top && (empty || m.historyIndex > -1 || m.state.cursorCol === 0)) navigateHistory(m, -1);
      else if (top) moveToLineEdge(m, false);
      else this.#move(-1, 0);
      return;
    }
    if (kb.matches(data, "tui.editor.cursorDown")) {
      const bottom = isOnVisualEdge(m, 1);
      if (m.historyIndex > -1 && bottom) navigateHistory(m, 1);
      else if (bottom) moveToLineEdge(m, true);
      else this.#move(1, 0);
      return;
    }
    if (kb.matches(data, "tui.editor.cursorRight")) return this.#move(0, 1);
    if (kb.matches(data, "tui.editor.cursorLeft")) return this.#move(0, -1);
    if (kb.matches(data, "tui.editor.pageUp")) return pageScroll(m, -1, this.#pageSize());
    if (kb.matches(data, "tui.editor.pageDown")) return pageScroll(m, 1, this.#pageSize());
    if (kb.matches(data, "tui.editor.jumpForward")) {
      this.#jumpMode = "forward";
      return;
    }
    if (kb.matches(data, "tui.editor.jumpBackward")) {
      this.#jumpMode = "backward";
      return;
    }
    if (matchesKey(data, "shift+space")) return this.#type(" ");
    const printable = decodePrintableKey(data);
    if (printable !== undefined) return this.#type(printable);
    if (data.charCodeAt(0) >= 32) this.#type(data);
  }

  #type(char: string): void {
    typeCharacter(this.#model, char);
    this.#ac.afterTyping(char);
  }

  #move(deltaLine: number, deltaCol: number): void {
    moveCursor(this.#model, deltaLine, deltaCol);
    // A moved cursor changes the text before it: refresh (or close) an open popup.
    if (this.#ac.state) this.#ac.update();
  }

  #deleteBackward(): void {
    deleteBackward(this.#model);
    this.#ac.afterDelete();
  }

  #newLine(): void {
    this.#ac.cancel();
    newLine(this.#model);
  }

  #submit(): void {
    const m = this.#model;
    this.#ac.cancel();
    const result = expandPasteMarkers(m.text(), m.pastes).trim();
    m.state = { lines: [""], cursorLine: 0, cursorCol: 0 };
    m.pastes.clear();
    m.pasteCounter = 0;
    m.exitHistoryBrowsing();
    m.scrollOffset = 0;
    m.undoStack.clear();
    m.lastAction = null;
    this.onChange?.("");
    this.onSubmit?.(result);
  }

  /** The text with paste markers as they stand. */
  getText(): string {
    return this.#model.text();
  }

  /**
   * Get text with paste markers expanded to their actual content.
   * Use this when you need the full content (e.g., for external editor).
   */
  getExpandedText(): string {
    return expandPasteMarkers(this.#model.text(), this.#model.pastes);
  }

  /** A copy of the logical lines. */
  getLines(): string[] {
    return [...this.#model.state.lines];
  }

  /** The cursor: logical line and column (UTF-16 units). */
  getCursor(): { line: number; col: number } {
    return { line: this.#model.state.cursorLine, col: this.#model.state.cursorCol };
  }

  /** Replaces the text (undoable when it differs), dropping stored pastes; cursor at the end. */
  setText(text: string): void {
    const m = this.#model;
    this.#ac.cancel();
    m.lastAction = null;
    m.exitHistoryBrowsing();
    const normalized = normalizeEditorText(text);
    if (m.text() !== normalized) m.pushUndoSnapshot();
    m.pastes.clear();
    m.pasteCounter = 0;
    m.setTextInternal(normalized);
  }

  /**
   * Insert text at the current cursor position.
   * Used for programmatic insertion (e.g., clipboard image markers).
   * This is atomic for undo - single undo restores entire pre-insert state.
   */
  insertTextAtCursor(text: string): void {
    if (!text) return;
    const m = this.#model;
    this.#ac.cancel();
    m.pushUndoSnapshot();
    m.lastAction = null;
    m.exitHistoryBrowsing();
    m.insertTextAtCursorInternal(text);
  }

  /** Whether the autocomplete popup is open. */
  isShowingAutocomplete(): boolean {
    return this.#ac.state !== null;
  }
}
