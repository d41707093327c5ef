/**
 * The built-in dark theme of pi 1.6.0, as data: its named colours and the colour of each token
 * (a token's value is a colour or the name of a variable). The token set is 1.6.0's theme schema.
 *
 * @module
 */

/** A theme as its JSON file states it: variables, then the colour of each token. */
export interface ThemeData {
  /** The theme's name (`--theme`, settings). */
  name: string;
  /** Whether it is meant for a dark or a light terminal. */
  appearance: "dark" | "light";
  /** Named colours the tokens may refer to. */
  vars: Readonly<Record<string, string>>;
  /** Token → colour, or the name of a variable. */
  colors: Readonly<Record<string, string>>;
}

/** pi 1.6.0's `dark` theme. */
export const DARK_THEME: ThemeData = {
  name: "dark",
  appearance: "dark",
  vars: {
    text: "okhsl(234 3% 89%)",
    muted: "okhsl(229 6% 67%)",
    violet: "okhsl(295 50% 67%)",
    blue: "okhsl(232 54% 67%)",
    green: "okhsl(159 59% 67%)",
    red: "okhsl(20 72% 67%)",
    yellow: "okhsl(83 88% 67%)",
    blueBg: "okhsl(233 41% 24%)",
  },
  colors: {
    accent: "violet",
    border: "okhsl(231 57% 65%)",
    borderAccent: "okhsl(295 53% 64%)",
    borderMuted: "okhsl(229 8% 53%)",
    success: "green",
    error: "red",
    warning: "yellow",
    muted: "muted",
    dim: "okhsl(229 8% 56%)",
    text: "text",
    thinkingText: "okhsl(226 7% 65%)",
    selectedBg: "blueBg",
    scrollbarTrack: "okhsl(237 7% 33%)",
    scrollbarThumb: "okhsl(232 7% 65%)",
    searchMatchBg: "okhsl(53 51% 24%)",
    searchMatchText: "muted",
    userMessageBg: "blueBg",
    userMessageText: "text",
    customMessageBg: "okhsl(295 42% 24%)",
    customMessageText: "muted",
    customMessageLabel: "violet",
    toolPendingBg: "okhsl(229 5% 24%)",
    toolSuccessBg: "okhsl(158 46% 25%)",
    toolErrorBg: "okhsl(19 54% 25%)",
    toolTitle: "text",
    toolOutput: "muted",
    mdHeading: "yellow",
    mdLink: "blue",
    mdLinkUrl: "muted",
    mdCode: "violet",
    mdCodeBlock: "green",
    mdCodeBlockBorder: "muted",
    mdQuote: "muted",
    mdQuoteBorder: "muted",
    mdHr: "muted",
    mdListBullet: "violet",
    toolDiffAdded: "green",
    toolDiffRemoved: "red",
    toolDiffContext: "muted",
    syntaxComment: "muted",
    syntaxKeyword: "blue",
    syntaxFunction: "yellow",
    syntaxVariable: "okhsl(202 58% 67%)",
    syntaxString: "okhsl(52 67% 67%)",
    syntaxNumber: "green",
    syntaxType: "violet",
    syntaxOperator: "muted",
    syntaxPunctuation: "muted",
    thinkingOff: "okhsl(229 8% 49%)",
    thinkingMinimal: "okhsl(232 20% 52%)",
    thinkingLow: "okhsl(232 45% 54%)",
    thinkingMedium: "okhsl(263 59% 56%)",
    thinkingHigh: "okhsl(295 73% 59%)",
    thinkingXhigh: "okhsl(337 81% 61%)",
    thinkingMax: "okhsl(20 99% 63%)",
    bashMode: "okhsl(159 64% 65%)",
  },
};
