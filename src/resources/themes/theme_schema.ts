/**
 * A theme file's shape (pi 1.6.0's theme schema) and its validation, with 1.6.0's error texts:
 * the missing colour tokens listed by name, every other problem as `  - <JSON pointer>: <what>`.
 *
 * @module
 */
import { describeJsonError } from "../../config/json_error.ts";
import { isThemeToken, REQUIRED_THEME_TOKENS, type ThemeTokenName } from "./theme_tokens.ts";

/** A colour as a theme file writes it: hex, `oklch(…)`, `okhsl(…)`, a variable's name, `""`, or 0–255. */
export type ThemeColorValue = string | number;

/** A theme file, validated. */
export interface ThemeJson {
  /** The JSON schema the file names, if any (kept, never checked). */
  $schema?: string;
  /** The theme's name (settings, `--use-theme`); never contains `/`. */
  name: string;
  /** The background the theme is made for; guessed from its colours when absent. */
  appearance?: "dark" | "light";
  /** Named colours that tokens (and other variables) may refer to. */
  vars?: Record<string, ThemeColorValue>;
  /** Token → colour or variable name; the five optional tokens may be missing. */
  colors: Partial<Record<ThemeTokenName, ThemeColorValue>>;
  /** Background colours of the HTML export. */
  export?: { pageBg?: ThemeColorValue; cardBg?: ThemeColorValue; infoBg?: ThemeColorValue };
}

const TOP_LEVEL = ["$schema", "name", "appearance", "vars", "colors", "export"];
const EXPORT_KEYS = ["pageBg", "cardBg", "infoBg"];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The schema's complaints about one colour value (a string, or an integer 0–255). */
function colorErrors(path: string, value: unknown, out: string[]): void {
  if (typeof value === "string") return;
  if (typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 255) return;
  out.push(`${path}: must be string`);
  if (typeof value !== "number" || !Number.isInteger(value)) out.push(`${path}: must be integer`);
  else out.push(`${path}: must be ${value < 0 ? ">= 0" : "<= 255"}`);
  out.push(`${path}: must match a schema in anyOf`);
}

/** Keys of `object` not in `allowed`: each one, then the object (1.6.0's order). */
function extraKeyErrors(
  path: string,
  object: Record<string, unknown>,
  allowed: (k: string) => boolean,
  out: string[],
) {
  const extra = Object.keys(object).filter((k) => !allowed(k));
  for (const key of extra) out.push(`${path}/${key}: schema is false`);
  if (extra.length > 0) out.push(`${path || "/"}: must not have additional properties`);
}

/**
 * Checks `json` against the theme schema; returns it typed, or throws 1.6.0's message
 * (`Invalid theme "<label>": …`). A name with `/` has its own message: `/` separates the light and
 * dark theme of an automatic `theme` setting.
 */
export function validateThemeJson(label: string, json: unknown): ThemeJson {
  if (isObject(json) && typeof json.name === "string" && json.name.includes("/")) {
    throw new Error(
      `Invalid theme name "${json.name}": theme names cannot contain "/" because it is reserved for automatic light/dark theme settings.`,
    );
  }
  const errors: string[] = [];
  const missing: string[] = [];
  if (!isObject(json)) errors.push("/: must be object");
  else {
    const required = ["name", "colors"].filter((k) => !(k in json));
    if (required.length > 0) errors.push(`/: must have required properties ${required.join(", ")}`);
    extraKeyErrors("", json, (k) => TOP_LEVEL.includes(k), errors);
    if ("$schema" in json && typeof json.$schema !== "string") errors.push("/$schema: must be string");
    if ("name" in json) {
      if (typeof json.name !== "string") errors.push("/name: must be string");
      else if (json.name === "") errors.push('/name: must match pattern "^[^/]+$"');
    }
    if ("appearance" in json && json.appearance !== "dark" && json.appearance !== "light") {
      errors.push("/appearance: must be equal to constant", "/appearance: must be equal to constant");
      errors.push("/appearance: must match a schema in anyOf");
    }
    if ("vars" in json) {
      if (!isObject(json.vars)) errors.push("/vars: must be object");
      else for (const [k, v] of Object.entries(json.vars)) colorErrors(`/vars/${k}`, v, errors);
    }
    if ("colors" in json) {
      const colors = json.colors;
      if (!isObject(colors)) errors.push("/colors: must be object");
      else {
        missing.push(...REQUIRED_THEME_TOKENS.filter((t) => !(t in colors)));
        extraKeyErrors("/colors", colors, isThemeToken, errors);
        for (const [k, v] of Object.entries(colors)) {
          if (isThemeToken(k)) colorErrors(`/colors/${k}`, v, errors);
        }
      }
    }
    if ("export" in json) {
      const exp = json.export;
      if (!isObject(exp)) errors.push("/export: must be object");
      else {
        extraKeyErrors("/export", exp, (k) => EXPORT_KEYS.includes(k), errors);
        for (const k of EXPORT_KEYS) if (k in exp) colorErrors(`/export/${k}`, exp[k], errors);
      }
    }
  }
  if (errors.length === 0 && missing.length === 0) return json as unknown as ThemeJson;
  let message = `Invalid theme "${label}":\n`;
  if (missing.length > 0) {
    message += "\nMissing required color tokens:\n";
    message += missing.sort().map((token) => `  - ${token}`).join("\n");
    message += '\n\nPlease add these colors to your theme\'s "colors" object.';
    message += "\nSee the built-in themes (dark.json, light.json) for reference values.";
  }
  if (errors.length > 0) message += `\n\nOther errors:\n${errors.map((e) => `  - ${e}`).join("\n")}`;
  throw new Error(message);
}

/**
 * Parses and validates a theme file's text (a leading BOM is skipped). A syntax error names the
 * line and column, never quoting the file.
 */
export function parseThemeJsonText(label: string, text: string): ThemeJson {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    throw new Error(`Failed to parse theme ${label}: ${describeJsonError(body, error)}`);
  }
  return validateThemeJson(label, json);
}
