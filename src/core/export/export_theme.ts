/**
 * The colours of the HTML export: pi 1.6.0's default export palette (its built-in "system" theme,
 * which follows the terminal's 16 ANSI colours, resolved to the hex values 1.6.0 writes), and the
 * page, card and info backgrounds derived from the user-message background as 1.6.0 derives them.
 *
 * @module
 */

/** Token → CSS colour, in the order 1.6.0 writes them into the page's `:root`. */
export const EXPORT_THEME_COLORS: ReadonlyArray<readonly [string, string]> = [
  ["accent", "#800080"],
  ["borderAccent", "#800080"],
  ["customMessageLabel", "#800080"],
  ["mdCode", "#800080"],
  ["mdListBullet", "#800080"],
  ["syntaxType", "#800080"],
  ["border", "#000080"],
  ["mdLink", "#000080"],
  ["syntaxKeyword", "#000080"],
  ["syntaxVariable", "#008080"],
  ["success", "#008000"],
  ["mdCodeBlock", "#008000"],
  ["toolDiffAdded", "#008000"],
  ["bashMode", "#008000"],
  ["syntaxNumber", "#800080"],
  ["error", "#800000"],
  ["toolDiffRemoved", "#800000"],
  ["warning", "#808000"],
  ["mdHeading", "#808000"],
  ["syntaxFunction", "#808000"],
  ["syntaxString", "#008000"],
  ["thinkingMinimal", "#000080"],
  ["thinkingLow", "#000080"],
  ["thinkingMedium", "#008080"],
  ["thinkingHigh", "#800080"],
  ["thinkingXhigh", "#ff00ff"],
  ["thinkingMax", "#800000"],
  ["text", "#e5e5e7"],
  ["userMessageText", "#e5e5e7"],
  ["customMessageText", "#727273"],
  ["toolTitle", "#e5e5e7"],
  ["syntaxOperator", "#727273"],
  ["syntaxPunctuation", "#727273"],
  ["muted", "#727273"],
  ["dim", "#727273"],
  ["thinkingText", "#727273"],
  ["toolOutput", "#727273"],
  ["mdLinkUrl", "#727273"],
  ["mdQuote", "#727273"],
  ["mdQuoteBorder", "#727273"],
  ["mdHr", "#727273"],
  ["mdCodeBlockBorder", "#727273"],
  ["toolDiffContext", "#727273"],
  ["syntaxComment", "#727273"],
  ["scrollbarTrack", "#727273"],
  ["scrollbarThumb", "#727273"],
  ["searchMatchText", "#727273"],
  ["borderMuted", "#727273"],
  ["thinkingOff", "#727273"],
  ["selectedBg", "#000000"],
  ["searchMatchBg", "#000000"],
  ["userMessageBg", "#000000"],
  ["customMessageBg", "#000000"],
  ["toolPendingBg", "#000000"],
  ["toolSuccessBg", "#000000"],
  ["toolErrorBg", "#000000"],
];

/** The page (body), card and info-box backgrounds. */
export interface ExportBackgrounds {
  /** The page behind everything. */
  pageBg: string;
  /** Header, sidebar and card backgrounds. */
  cardBg: string;
  /** Compaction and branch-summary boxes. */
  infoBg: string;
}

interface Rgb {
  r: number;
  g: number;
  b: number;
}

function parseRgb(color: string): Rgb | undefined {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (hex) return { r: parseInt(hex[1], 16), g: parseInt(hex[2], 16), b: parseInt(hex[3], 16) };
  const rgb = /^rgb\s*\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(color);
  if (rgb) return { r: Number(rgb[1]), g: Number(rgb[2]), b: Number(rgb[3]) };
  return undefined;
}

/** sRGB relative luminance, 0 (black) to 1 (white). */
function luminance({ r, g, b }: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

const clamp = (value: number) => Math.min(255, Math.max(0, value));
const scaled = ({ r, g, b }: Rgb, factor: number) =>
  `rgb(${clamp(Math.round(r * factor))}, ${clamp(Math.round(g * factor))}, ${clamp(Math.round(b * factor))})`;

/**
 * The backgrounds for a theme whose user messages sit on `base`: a dark base gets a darker page
 * and card, a light one a slightly darker page; the info box leans warm. An unreadable colour gets
 * 1.6.0's fixed dark fallback.
 */
export function deriveExportBackgrounds(base: string): ExportBackgrounds {
  const rgb = parseRgb(base);
  if (!rgb) return { pageBg: "rgb(24, 24, 30)", cardBg: "rgb(30, 30, 36)", infoBg: "rgb(60, 55, 40)" };
  if (luminance(rgb) > 0.5) {
    return {
      pageBg: scaled(rgb, 0.96),
      cardBg: base,
      infoBg: `rgb(${clamp(rgb.r + 10)}, ${clamp(rgb.g + 5)}, ${clamp(rgb.b - 20)})`,
    };
  }
  return {
    pageBg: scaled(rgb, 0.7),
    cardBg: scaled(rgb, 0.85),
    infoBg: `rgb(${clamp(rgb.r + 20)}, ${clamp(rgb.g + 15)}, ${rgb.b})`,
  };
}

/** The `:root` declarations of the page: every colour token plus the three export backgrounds. */
export function exportThemeVars(): { declarations: string; backgrounds: ExportBackgrounds } {
  const userBg = EXPORT_THEME_COLORS.find(([token]) => token === "userMessageBg")?.[1] ?? "#343541";
  const backgrounds = deriveExportBackgrounds(userBg);
  const lines = EXPORT_THEME_COLORS.map(([token, value]) => `--${token}: ${value};`);
  lines.push(`--exportPageBg: ${backgrounds.pageBg};`);
  lines.push(`--exportCardBg: ${backgrounds.cardBg};`);
  lines.push(`--exportInfoBg: ${backgrounds.infoBg};`);
  return { declarations: lines.join("\n      "), backgrounds };
}
