/**
 * Input: the single-line text field of pi-tui 1.6.0, with a prompt, a placeholder, horizontal
 * scrolling that keeps the cursor in view, the kill ring, undo and bracketed paste.
 *
 * @module
 */
import { getKeybindings } from "../keybindings.ts";
import { BracketedPasteBuffer } from "./editor_bracketed_paste.ts";
import { decodeKittyPrintable } from "../keys.ts";
import { KillRing } from "../kill_ring.ts";
import {
  type Component,
  CURSOR_MARKER,
  type Focusable,
  renderFakeCursor,
  type TuiMouseEvent,
  type TuiMouseEventResult,
} from "../tui_component.ts";
import { UndoStack } from "../undo_stack.ts";
import {
  getGraphemeSegmenter,
  isWhitespaceChar,
  sliceByColumn,
  truncateToWidth,
  visibleWidth,
} from "../utils_text.ts";
import { findWordBackward, findWordForward } from "../word_navigation.ts";

/** Options of an Input. */
export interface InputOptions {
  /** Drawn before the text (default "> "). */
  prompt?: string;
  /** Shown while the value is empty. */
  placeholder?: string;
  /** Styles the placeholder. */
  placeholderStyle?: (text: string) => string;
}

/** The first grapheme of a text ("" for none). */
function firstGrapheme(text: string): string {
  return getGraphemeSegmenter().segment(text)[Symbol.iterator]().next().value?.segment ?? "";
}

/** The length of the last grapheme of a text (0 for none). */
function lastGraphemeLength(text: string): number {
  const graphemes = [...getGraphemeSegmenter().segment(text)];
  return graphemes[graphemes.length - 1]?.segment.length ?? 0;
}

/** C0 and C1 controls and DEL: such input is a key, not text. */
function hasControlChars(data: string): boolean {
  for (const ch of data) {
    const code = ch.charCodeAt(0);
    if (code < 32 || code === 0x7f || (code >= 0x80 && code <= 0x9f)) return true;
  }
  return false;
}

/**
 * Input component - single-line text input with horizontal scrolling
 */
export class Input implements Component, Focusable {
  /** Called with the value on Enter. */
  onSubmit?: (value: string) => void;
  /** Called on Escape (or ctrl+c). */
  onEscape?: () => void;
  /** Focusable interface - set by TUI when focus changes */
  focused = false;

  #value = "";
  #cursor = 0;
  readonly #prompt: string;
  readonly #placeholder: string;
  readonly #placeholderStyle: (text: string) => string;
  /** First column of the value shown by the last render (for mouse hits). */
  #renderedStartColumn = 0;
  #pasteBuffer = new BracketedPasteBuffer();
  #killRing = new KillRing();
  #lastAction: "kill" | "yank" | "type-word" | null = null;
  #undoStack = new UndoStack<{ value: string; cursor: number }>();

  /** An empty input with the given prompt and placeholder. */
  constructor(options: InputOptions = {}) {
    this.#prompt = options.prompt ?? "> ";
    this.#placeholder = options.placeholder ?? "";
    this.#placeholderStyle = options.placeholderStyle ?? ((text) => text);
  }

  /** The text. */
  getValue(): string {
    return this.#value;
  }

  /** Replaces the text; the cursor stays where it was, or at the end if that is shorter. */
  setValue(value: string): void {
    this.#value = value;
    this.#cursor = Math.min(this.#cursor, value.length);
  }

  /** Handles one key or paste chunk from the terminal. */
  handleInput(data: string): void {
    const pasted = this.#pasteBuffer.feed(data);
    if (pasted) {
      if (pasted.paste !== undefined) this.#paste(pasted.paste);
      if (pasted.rest) this.handleInput(pasted.rest);
      return;
    }
    const kb = getKeybindings();
    if (kb.matches(data, "tui.select.cancel")) {
      this.onEscape?.();
      return;
    }
    if (kb.matches(data, "tui.editor.undo")) return this.#undo();
    if (kb.matches(data, "tui.input.submit") || data === "\n") {
      this.onSubmit?.(this.#value);
      return;
    }
    if (kb.matches(data, "tui.editor.deleteCharBackward")) return this.#deleteBackward();
    if (kb.matches(data, "tui.editor.deleteCharForward")) return this.#deleteForward();
    if (kb.matches(data, "tui.editor.deleteWordBackward")) return this.#killWord(false);
    if (kb.matches(data, "tui.editor.deleteWordForward")) return this.#killWord(true);
    if (kb.matches(data, "tui.editor.deleteToLineStart")) return this.#killToEdge(false);
    if (kb.matches(data, "tui.editor.deleteToLineEnd")) return this.#killToEdge(true);
    if (kb.matches(data, "tui.editor.yank")) return this.#yank();
    if (kb.matches(data, "tui.editor.yankPop")) return this.#yankPop();
    if (kb.matches(data, "tui.editor.cursorLeft")) {
      this.#lastAction = null;
      if (this.#cursor > 0) this.#cursor -= lastGraphemeLength(this.#value.slice(0, this.#cursor)) || 1;
      return;
    }
    if (kb.matches(data, "tui.editor.cursorRight")) {
      this.#lastAction = null;
      if (this.#cursor < this.#value.length) {
        this.#cursor += firstGrapheme(this.#value.slice(this.#cursor)).length || 1;
      }
      return;
    }
    if (kb.matches(data, "tui.editor.cursorLineStart")) {
      this.#lastAction = null;
      this.#cursor = 0;
      return;
    }
    if (kb.matches(data, "tui.editor.cursorLineEnd")) {
      this.#lastAction = null;
      this.#cursor = this.#value.length;
      return;
    }
    if (kb.matches(data, "tui.editor.cursorWordLeft")) return this.#moveWord(false);
    if (kb.matches(data, "tui.editor.cursorWordRight")) return this.#moveWord(true);
    // Kitty's disambiguate mode sends even plain letters as CSI-u; decode before the control check.
    const kitty = decodeKittyPrintable(data);
    if (kitty !== undefined) return this.#insert(kitty);
    if (!hasControlChars(data)) this.#insert(data);
  }

  /** A left press on the line puts the cursor under the pointer. */
  handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
    if (event.type !== "press" || event.button !== "left" || event.y !== 0) return undefined;
    // The prompt is taken as two columns wide, as in pi-tui.
    const target = this.#renderedStartColumn + Math.max(0, event.x - 2);
    let column = 0;
    this.#cursor = this.#value.length;
    for (const g of getGraphemeSegmenter().segment(this.#value)) {
      const next = column + visibleWidth(g.segment);
      if (target < next) {
        this.#cursor = g.index;
        break;
      }
      column = next;
    }
    this.#lastAction = null;
    return { handled: true, focus: true };
  }

  #replace(from: number, to: number, text: string): void {
    this.#value = this.#value.slice(0, from) + text + this.#value.slice(to);
  }

  #insert(char: string): void {
    // A run of word characters is one undo step; each whitespace starts a new one.
    if (isWhitespaceChar(char) || this.#lastAction !== "type-word") this.#pushUndo();
    this.#lastAction = "type-word";
    this.#replace(this.#cursor, this.#cursor, char);
    this.#cursor += char.length;
  }

  #deleteBackward(): void {
    this.#lastAction = null;
    if (this.#cursor === 0) return;
    this.#pushUndo();
    const length = lastGraphemeLength(this.#value.slice(0, this.#cursor)) || 1;
    this.#replace(this.#cursor - length, this.#cursor, "");
    this.#cursor -= length;
  }

  #deleteForward(): void {
    this.#lastAction = null;
    if (this.#cursor >= this.#value.length) return;
    this.#pushUndo();
    const length = firstGrapheme(this.#value.slice(this.#cursor)).length || 1;
    this.#replace(this.#cursor, this.#cursor + length, "");
  }

  #kill(text: string, forward: boolean, accumulate: boolean): void {
    this.#killRing.push(text, { prepend: !forward, accumulate });
    this.#lastAction = "kill";
  }

  /** ctrl+u (to the start) or ctrl+k (to the end). */
  #killToEdge(toEnd: boolean): void {
    if (toEnd ? this.#cursor >= this.#value.length : this.#cursor === 0) return;
    this.#pushUndo();
    const accumulate = this.#lastAction === "kill";
    if (toEnd) {
      this.#kill(this.#value.slice(this.#cursor), true, accumulate);
      this.#value = this.#value.slice(0, this.#cursor);
    } else {
      this.#kill(this.#value.slice(0, this.#cursor), false, accumulate);
      this.#value = this.#value.slice(this.#cursor);
      this.#cursor = 0;
    }
  }

  /** ctrl+w / alt+backspace (backward) or alt+d (forward). */
  #killWord(forward: boolean): void {
    if (forward ? this.#cursor >= this.#value.length : this.#cursor === 0) return;
    const accumulate = this.#lastAction === "kill";
    this.#pushUndo();
    const other = forward
      ? findWordForward(this.#value, this.#cursor)
      : findWordBackward(this.#value, this.#cursor);
    const from = Math.min(other, this.#cursor);
    const to = Math.max(other, this.#cursor);
    this.#kill(this.#value.slice(from, to), forward, accumulate);
    this.#replace(from, to, "");
    this.#cursor = from;
  }

  #yank(): void {
    const text = this.#killRing.peek();
    if (!text) return;
    this.#pushUndo();
    this.#replace(this.#cursor, this.#cursor, text);
    this.#cursor += text.length;
    this.#lastAction = "yank";
  }

  #yankPop(): void {
    if (this.#lastAction !== "yank" || this.#killRing.length <= 1) return;
    this.#pushUndo();
    const previous = this.#killRing.peek() || "";
    this.#replace(this.#cursor - previous.length, this.#cursor, "");
    this.#cursor -= previous.length;
    this.#killRing.rotate();
    const text = this.#killRing.peek() || "";
    this.#replace(this.#cursor, this.#cursor, text);
    this.#cursor += text.length;
    this.#lastAction = "yank";
  }

  #pushUndo(): void {
    this.#undoStack.push({ value: this.#value, cursor: this.#cursor });
  }

  #undo(): void {
    const snapshot = this.#undoStack.pop();
    if (!snapshot) return;
    this.#value = snapshot.value;
    this.#cursor = snapshot.cursor;
    this.#lastAction = null;
  }

  #moveWord(forward: boolean): void {
    if (forward ? this.#cursor >= this.#value.length : this.#cursor === 0) return;
    this.#lastAction = null;
    this.#cursor = forward
      ? findWordForward(this.#value, this.#cursor)
      : findWordBackward(this.#value, this.#cursor);
  }

  /** A paste is one undo step; line breaks are dropped and tabs become four spaces. */
  #paste(pasted: string): void {
    this.#lastAction = null;
    this.#pushUndo();
    const clean = pasted.replace(/\r\n/g, "").replace(/\r/g, "").replace(/\n/g, "").replace(/\t/g, "    ");
    this.#replace(this.#cursor, this.#cursor, clean);
    this.#cursor += clean.length;
  }

  /** Nothing is cached between renders. */
  invalidate(): void {}

  /** One line: the prompt, then the visible part of the value with the cursor, padded to `width`. */
  render(width: number): string[] {
    const available = width - visibleWidth(this.#prompt);
    if (available <= 0) return [truncateToWidth(this.#prompt, width, "")];
    const marker = this.focused ? CURSOR_MARKER : "";
    if (this.#value.length === 0 && this.#placeholder) {
      const placeholder = truncateToWidth(this.#placeholder, available, "");
      const at = firstGrapheme(placeholder) || " ";
      const style = this.#placeholderStyle;
      const text = marker + renderFakeCursor(style(at)) + style(placeholder.slice(at.length));
      return [this.#prompt + text + " ".repeat(Math.max(0, available - visibleWidth(text)))];
    }
    const { visible, cursor } = this.#visibleWindow(available);
    const at = firstGrapheme(visible.slice(cursor)) || " ";
    const text = visible.slice(0, cursor) + marker + renderFakeCursor(at) + visible.slice(cursor + at.length);
    return [this.#prompt + text + " ".repeat(Math.max(0, available - visibleWidth(text)))];
  }

  /**
   * The slice of the value that fits `available` columns and the cursor's offset in it. The window
   * scrolls to keep the cursor near the middle, pinned at either end.
   */
  #visibleWindow(available: number): { visible: string; cursor: number } {
    this.#renderedStartColumn = 0;
    const total = visibleWidth(this.#value);
    if (total < available) return { visible: this.#value, cursor: this.#cursor };
    // A cursor at the end needs a column of its own.
    const scrollWidth = this.#cursor === this.#value.length ? available - 1 : available;
    if (scrollWidth <= 0) return { visible: "", cursor: 0 };
    const cursorCol = visibleWidth(this.#value.slice(0, this.#cursor));
    const half = Math.floor(scrollWidth / 2);
    let start = 0;
    if (cursorCol < half) start = 0;
    else if (cursorCol > total - half) start = Math.max(0, total - scrollWidth);
    else start = Math.max(0, cursorCol - half);
    this.#renderedStartColumn = start;
    return {
      visible: sliceByColumn(this.#value, start, scrollWidth, true),
      cursor: sliceByColumn(this.#value, start, Math.max(0, cursorCol - start), true).length,
    };
  }
}
