/**
 * The Emacs kill ring behind the editor's kill and yank commands.
 *
 * @module
 */

/**
 * Ring buffer for Emacs-style kill/yank operations.
 *
 * Tracks killed (deleted) text entries. Consecutive kills can accumulate
 * into a single entry. Supports yank (paste most recent) and yank-pop
 * (cycle through older entries).
 */
export class KillRing {
  /** Oldest first; the entry a yank inserts is the last. */
  private ring: string[] = [];

  /**
   * Add text to the kill ring.
   *
   * @param text - The killed text to add
   * @param opts - Push options
   * @param opts.prepend - If accumulating, prepend (backward deletion) or append (forward deletion)
   * @param opts.accumulate - Merge with the most recent entry instead of creating a new one
   */
  push(text: string, opts: { prepend: boolean; accumulate?: boolean }): void {
    if (!text) return;
    const last = this.ring.length - 1;
    if (opts.accumulate && last >= 0) {
      this.ring[last] = opts.prepend ? text + this.ring[last] : this.ring[last] + text;
    } else {
      this.ring.push(text);
    }
  }

  /** Get most recent entry without modifying the ring. */
  peek(): string | undefined {
    return this.ring.at(-1);
  }

  /** Move last entry to front (for yank-pop cycling). */
  rotate(): void {
    if (this.ring.length > 1) this.ring.unshift(this.ring.pop()!);
  }

  /** How many entries the ring holds. */
  get length(): number {
    return this.ring.length;
  }
}
