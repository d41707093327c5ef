/**
 * The escape sequences terminals sent for navigation and function keys before the kitty protocol:
 * xterm's CSI and SS3 forms, rxvt's `$`/`^` suffixes for Shift/Ctrl, the Linux console's `CSI [ x`,
 * and the Meta-letter word moves of readline (ESC b / ESC f).
 *
 * One table serves both `parseKey` and `matchesKey`, so a sequence one accepts the other names.
 *
 * @module
 */

/** Key id → the legacy sequences that mean it whatever mode the terminal is in. */
const SEQUENCES: ReadonlyArray<readonly [string, ...string[]]> = [
  ["up", "\x1b[A", "\x1bOA"],
  ["down", "\x1b[B", "\x1bOB"],
  ["right", "\x1b[C", "\x1bOC"],
  ["left", "\x1b[D", "\x1bOD"],
  ["home", "\x1b[H", "\x1bOH", "\x1b[1~", "\x1b[7~"],
  ["end", "\x1b[F", "\x1bOF", "\x1b[4~", "\x1b[8~"],
  ["insert", "\x1b[2~"],
  ["delete", "\x1b[3~"],
  ["pageUp", "\x1b[5~", "\x1b[[5~"],
  ["pageDown", "\x1b[6~", "\x1b[[6~"],
  ["clear", "\x1b[E", "\x1bOE"],
  ["f1", "\x1bOP", "\x1b[11~", "\x1b[[A"],
  ["f2", "\x1bOQ", "\x1b[12~", "\x1b[[B"],
  ["f3", "\x1bOR", "\x1b[13~", "\x1b[[C"],
  ["f4", "\x1bOS", "\x1b[14~", "\x1b[[D"],
  ["f5", "\x1b[15~", "\x1b[[E"],
  ["f6", "\x1b[17~"],
  ["f7", "\x1b[18~"],
  ["f8", "\x1b[19~"],
  ["f9", "\x1b[20~"],
  ["f10", "\x1b[21~"],
  ["f11", "\x1b[23~"],
  ["f12", "\x1b[24~"],
  // rxvt: lower-case final for Shift on arrows and Clear, "$" for Shift and "^" for Ctrl on CSI n.
  ["shift+up", "\x1b[a"],
  ["shift+down", "\x1b[b"],
  ["shift+right", "\x1b[c"],
  ["shift+left", "\x1b[d"],
  ["shift+clear", "\x1b[e"],
  ["shift+insert", "\x1b[2$"],
  ["shift+delete", "\x1b[3$"],
  ["shift+pageUp", "\x1b[5$"],
  ["shift+pageDown", "\x1b[6$"],
  ["shift+home", "\x1b[7$"],
  ["shift+end", "\x1b[8$"],
  ["ctrl+up", "\x1bOa"],
  ["ctrl+down", "\x1bOb"],
  ["ctrl+right", "\x1bOc"],
  ["ctrl+left", "\x1bOd"],
  ["ctrl+clear", "\x1bOe"],
  ["ctrl+insert", "\x1b[2^"],
  ["ctrl+delete", "\x1b[3^"],
  ["ctrl+pageUp", "\x1b[5^"],
  ["ctrl+pageDown", "\x1b[6^"],
  ["ctrl+home", "\x1b[7^"],
  ["ctrl+end", "\x1b[8^"],
  // readline's Meta word moves, as terminals with "Option as Meta" send them.
  ["alt+up", "\x1bp"],
  ["alt+down", "\x1bn"],
  ["alt+left", "\x1bb"],
  ["alt+right", "\x1bf"],
];

/**
 * Sequences that mean a key only while the kitty protocol is off: with it on, ESC B and ESC F are
 * Alt+Shift+b/f typed as text, which kitty would have sent as CSI u instead.
 */
const LEGACY_MODE_ONLY: ReadonlyMap<string, string> = new Map([
  ["\x1bB", "alt+left"],
  ["\x1bF", "alt+right"],
]);

let bySequence: Map<string, string> | undefined;

/** The key id a legacy navigation or function-key sequence stands for, in the current mode. */
export function legacyKeyId(data: string, kittyActive: boolean): string | undefined {
  if (!bySequence) {
    bySequence = new Map();
    for (const [id, ...sequences] of SEQUENCES) {
      for (const sequence of sequences) bySequence.set(sequence, id);
    }
  }
  return bySequence.get(data) ?? (kittyActive ? undefined : LEGACY_MODE_ONLY.get(data));
}
