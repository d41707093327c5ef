/**
 * Bracketed paste assembly shared by Editor and Input: text between `ESC[200~` and `ESC[201~` may
 * arrive over several input chunks and is handed over whole.
 *
 * @module
 */

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** What one chunk of input gave: a finished paste (if any) and the input after its end marker. */
export interface PasteChunk {
  /** The whole pasted text, once its end marker has arrived. */
  paste?: string;
  /** Input that followed the end marker in the same chunk. */
  rest: string;
}

/** Collects a bracketed paste across input chunks. */
export class BracketedPasteBuffer {
  #buffer = "";
  #active = false;

  /**
   * Feeds a chunk of input. Returns undefined when the chunk is not part of a paste; otherwise the
   * chunk is taken, and the paste is returned once its end marker has arrived.
   */
  feed(data: string): PasteChunk | undefined {
    if (data.includes(PASTE_START)) {
      this.#active = true;
      this.#buffer = "";
      data = data.replace(PASTE_START, "");
    }
    if (!this.#active) return undefined;
    this.#buffer += data;
    const end = this.#buffer.indexOf(PASTE_END);
    if (end === -1) return { rest: "" };
    const paste = this.#buffer.substring(0, end);
    const rest = this.#buffer.substring(end + PASTE_END.length);
    this.#active = false;
    this.#buffer = "";
    return { paste, rest };
  }
}
