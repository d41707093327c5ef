/**
 * The shortcuts of src/tui/utils_width.ts give what the full rules give, for every code unit or
 * code point they apply to (the full rules are what the conformance tests compare with pi-tui).
 */
import { assertEquals } from "../support/assert.ts";
import { clusterWidth, standaloneUnitWidth } from "../../src/tui/utils_width.ts";

Deno.test("a standalone unit's width is the full rules' width, for every such unit", () => {
  const differing: string[] = [];
  let checked = 0;
  for (let code = 0x80; code <= 0xffff; code++) {
    const fast = standaloneUnitWidth(code);
    if (fast === undefined) continue;
    checked++;
    const full = clusterWidth(String.fromCharCode(code));
    if (fast !== full) differing.push(`U+${code.toString(16)}: ${fast} vs ${full}`);
  }
  assertEquals(differing, []);
  // The ranges: Latin-1 and Latin Extended, symbols, kana, CJK ideographs, fullwidth forms.
  assertEquals(checked > 24_000, true);
});

Deno.test("one-code-point emoji are told by Emoji_Presentation exactly as by RGI_Emoji", () => {
  const rgi = /^\p{RGI_Emoji}$/v;
  const differing: string[] = [];
  for (let cp = 0x2000; cp <= 0x1fbff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const char = String.fromCodePoint(cp);
    // Regional indicators are 2 wide whether they count as emoji or not.
    const full = rgi.test(char) || (cp >= 0x1f1e6 && cp <= 0x1f1ff);
    if (/^\p{Emoji_Presentation}$/u.test(char) !== full) differing.push(`U+${cp.toString(16)}`);
  }
  assertEquals(differing, []);
});
