/**
 * Drawing the Editor: the scroll borders ("─── ↑ 3 more ───") and the text lines with the cursor
 * (a reverse-video fake cursor, preceded by CURSOR_MARKER when focused so the hardware cursor and
 * IME windows follow it).
 *
 * @module
 */
import { CURSOR_MARKER, renderFakeCursor } from "../tui_component.ts";
import { sliceByColumn, visibleWidth } from "../utils_text.ts";
import type { LayoutLine } from "./editor_wrap.ts";

/** A horizontal border that names how many lines are hidden beyond it, centred when it fits. */
export function createScrollBorder(direction: "↑" | "↓", hidden: number, width: number): string {
  const available = Math.max(0, width);
  const label = ` ${direction} ${hidden} more `;
  const labelWidth = visibleWidth(label);
  if (labelWidth + 2 <= available) {
    const left = Math.floor((available - labelWidth) / 2);
    return "─".repeat(left) + label + "─".repeat(available - left - labelWidth);
  }
  const indicator = `─── ${direction} ${hidden} more `;
  const remaining = available - visibleWidth(indicator);
  if (remaining >= 0) return indicator + "─".repeat(remaining);
  const ellipsis = "...".slice(0, available);
  return sliceByColumn(indicator, 0, available - visibleWidth(ellipsis), true) + ellipsis;
}

/** A plain border, or a scroll border when lines are hidden on that side. */
export function borderLine(direction: "↑" | "↓", hidden: number, width: number): string {
  return hidden > 0 ? createScrollBorder(direction, hidden, width) : "─".repeat(width);
}

/** Geometry of one render: the side padding and the width text may use between the paddings. */
export interface EditorGeometry {
  /** Blank columns on each side. */
  paddingX: number;
  /** Columns between the paddings. */
  contentWidth: number;
}

/** Padding is capped so the content keeps at least one column. */
export function editorGeometry(width: number, paddingX: number): EditorGeometry {
  const padding = Math.min(paddingX, Math.max(0, Math.floor((width - 1) / 2)));
  return { paddingX: padding, contentWidth: Math.max(1, width - padding * 2) };
}

/**
 * Draws visible layout lines, padded to the content width. The cursor replaces the grapheme under
 * it, or adds a cell at a line end (which may spill into the right padding).
 */
export function renderTextLines(
  visible: readonly LayoutLine[],
  geometry: EditorGeometry,
  focused: boolean,
  firstGrapheme: (text: string) => string,
): string[] {
  const { paddingX, contentWidth } = geometry;
  const pad = " ".repeat(paddingX);
  const out: string[] = [];
  for (const line of visible) {
    let text = line.text;
    let width = visibleWidth(line.text);
    let cursorInPadding = false;
    if (line.hasCursor && line.cursorPos !== undefined) {
      const before = text.slice(0, line.cursorPos);
      const after = text.slice(line.cursorPos);
      const marker = focused ? CURSOR_MARKER : "";
      if (after.length > 0) {
        const under = firstGrapheme(after);
        text = before + marker + renderFakeCursor(under) + after.slice(under.length);
      } else {
        text = before + marker + renderFakeCursor(" ");
        width += 1;
        cursorInPadding = width > contentWidth && paddingX > 0;
      }
    }
    const fill = " ".repeat(Math.max(0, contentWidth - width));
    out.push(`${pad}${text}${fill}${cursorInPadding ? pad.slice(1) : pad}`);
  }
  return out;
}

/** Popup lines under the editor, padded to the content width inside the side padding. */
export function renderPopupLines(lines: readonly string[], geometry: EditorGeometry): string[] {
  const pad = " ".repeat(geometry.paddingX);
  return lines.map((line) =>
    `${pad}${line}${" ".repeat(Math.max(0, geometry.contentWidth - visibleWidth(line)))}${pad}`
  );
}
