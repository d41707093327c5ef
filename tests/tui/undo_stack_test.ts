/** The undo stack of src/tui/undo_stack.ts, with pi-tui 1.6.0's UndoStack semantics. */
import { assert, assertEquals } from "../support/assert.ts";
import { UndoStack } from "../../src/tui/undo_stack.ts";

interface EditorState {
  lines: string[];
  cursor: { line: number; col: number };
}

Deno.test("snapshots come back newest first, then undefined", () => {
  const stack = new UndoStack<number>();
  stack.push(1);
  stack.push(2);
  assertEquals(stack.length, 2);
  assertEquals([stack.pop(), stack.pop(), stack.pop()], [2, 1, undefined]);
  assertEquals(stack.length, 0);
});

Deno.test("a pushed snapshot is a deep copy: later edits of the live state do not reach it", () => {
  const stack = new UndoStack<EditorState>();
  const live: EditorState = { lines: ["abc"], cursor: { line: 0, col: 3 } };
  stack.push(live);
  live.lines.push("def");
  live.cursor.col = 0;
  const snapshot = stack.pop()!;
  assertEquals(snapshot, { lines: ["abc"], cursor: { line: 0, col: 3 } });
  assert(snapshot !== live && snapshot.lines !== live.lines);
});

Deno.test("clear drops every snapshot", () => {
  const stack = new UndoStack<string>();
  stack.push("a");
  stack.push("b");
  stack.clear();
  assertEquals([stack.length, stack.pop()], [0, undefined]);
});
