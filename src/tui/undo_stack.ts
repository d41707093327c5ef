/**
 * The editor's undo history.
 *
 * @module
 */

/**
 * Generic undo stack with clone-on-push semantics.
 *
 * Stores deep clones of state snapshots. Popped snapshots are returned
 * directly (no re-cloning) since they are already detached.
 */
export class UndoStack<S> {
  private stack: S[] = [];

  /** Push a deep clone of the given state onto the stack. */
  push(state: S): void {
    // A clone, so later edits of the live state cannot reach back into the history.
    this.stack.push(structuredClone(state));
  }

  /** Pop and return the most recent snapshot, or undefined if empty. */
  pop(): S | undefined {
    return this.stack.pop();
  }

  /** Remove all snapshots. */
  clear(): void {
    this.stack.length = 0;
  }

  /** How many snapshots the stack holds. */
  get length(): number {
    return this.stack.length;
  }
}
