/**
 * The colour tokens of pi 1.6.0's theme schema, in the order theme files list them: which slot
 * (foreground or background) each one colours, and, for the five optional ones, the token whose
 * colour it takes when a theme leaves it out.
 *
 * @module
 */

/** Whether a token colours text or the cells behind it. */
export type ThemeTokenSlot = "foreground" | "background";

/** One token of the schema. */
export interface ThemeTokenInfo {
  /** The escape-sequence slot the colour goes to. */
  readonly slot: ThemeTokenSlot;
  /** The token used when a theme omits this one (only optional tokens have one). */
  readonly fallback?: string;
}

const fg: ThemeTokenInfo = { slot: "foreground" };
const bg: ThemeTokenInfo = { slot: "background" };

/** Every token, in schema order. */
export const THEME_TOKENS = {
  accent: fg,
  border: fg,
  borderAccent: fg,
  borderMuted: fg,
  success: fg,
  error: fg,
  warning: fg,
  muted: fg,
  dim: fg,
  text: fg,
  thinkingText: fg,
  scrollbarTrack: { slot: "foreground", fallback: "muted" },
  scrollbarThumb: { slot: "foreground", fallback: "text" },
  selectedBg: bg,
  searchMatchBg: { slot: "background", fallback: "selectedBg" },
  searchMatchText: { slot: "foreground", fallback: "text" },
  userMessageBg: bg,
  userMessageText: fg,
  customMessageBg: bg,
  customMessageText: fg,
  customMessageLabel: fg,
  toolPendingBg: bg,
  toolSuccessBg: bg,
  toolErrorBg: bg,
  toolTitle: fg,
  toolOutput: fg,
  mdHeading: fg,
  mdLink: fg,
  mdLinkUrl: fg,
  mdCode: fg,
  mdCodeBlock: fg,
  mdCodeBlockBorder: fg,
  mdQuote: fg,
  mdQuoteBorder: fg,
  mdHr: fg,
  mdListBullet: fg,
  toolDiffAdded: fg,
  toolDiffRemoved: fg,
  toolDiffContext: fg,
  syntaxComment: fg,
  syntaxKeyword: fg,
  syntaxFunction: fg,
  syntaxVariable: fg,
  syntaxString: fg,
  syntaxNumber: fg,
  syntaxType: fg,
  syntaxOperator: fg,
  syntaxPunctuation: fg,
  thinkingOff: fg,
  thinkingMinimal: fg,
  thinkingLow: fg,
  thinkingMedium: fg,
  thinkingHigh: fg,
  thinkingXhigh: fg,
  thinkingMax: { slot: "foreground", fallback: "thinkingXhigh" },
  bashMode: fg,
} as const satisfies Record<string, ThemeTokenInfo>;

/** A token's name. */
export type ThemeTokenName = keyof typeof THEME_TOKENS;

/** Whether `name` is a token of the schema (own keys only: `toString` is not a token). */
export function isThemeToken(name: string): name is ThemeTokenName {
  return Object.hasOwn(THEME_TOKENS, name);
}

/** The tokens a theme must state (those without a fallback), in schema order. */
export const REQUIRED_THEME_TOKENS: readonly ThemeTokenName[] =
  (Object.keys(THEME_TOKENS) as ThemeTokenName[])
    .filter((name) => !("fallback" in THEME_TOKENS[name]));
