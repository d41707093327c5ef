/**
 * The built-in renderers of pi 1.6.0 for read, write and edit tool calls, as text for the tool
 * row: `read <path>:<range>` (the file's lines only when expanded; AGENTS.md-style files and
 * skills as a compact one-liner), `write <path>` with the first lines of the content, `edit
 * <path>` with its numbered diff. Colours go by theme token; syntax highlighting is not done yet.
 *
 * @module
 */
import type { AgentToolResult } from "../../agent/types.ts";
import { formatSize } from "../../core/tool_display.ts";
import { basename, dirname, isAbsolute, relative, resolve } from "../../util/path.ts";
import { keyText } from "./app_keys.ts";
import type { Theme } from "./theme.ts";

/** Rows of content shown while collapsed. */
const PREVIEW_LINES = 10;

/** Files read as project resources, shown compact (1.6.0's list). */
const RESOURCE_FILES = new Set(["AGENTS.override.md", "AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"]);

/** Where paths are shown from: the session's folder and the user's home. */
export interface RenderPaths {
  cwd: string;
  home?: string;
}

/** Tool arguments as the renderers read them (any may be missing while they stream). */
type Args = Record<string, unknown> | undefined;

/** A string argument; null when it has another type (1.6.0's `str`). */
function str(value: unknown): string | null {
  if (typeof value === "string") return value;
  return value == null ? "" : null;
}

/** Tabs as three spaces, as every 1.6.0 tool view draws them. */
export function replaceTabs(text: string): string {
  return text.replace(/\t/g, "   ");
}

/** `~` for the home folder at the start of a path. */
export function shortenHome(path: string, home?: string): string {
  if (home && (path === home || path.startsWith(`${home}/`))) return `~${path.slice(home.length)}`;
  return path;
}

/** The path argument, shortened, in the accent colour (`...` while it streams). */
function toolPath(theme: Theme, raw: string | null, paths: RenderPaths): string {
  if (raw === null) return theme.fg("error", "[invalid arg]");
  if (!raw) return theme.fg("toolOutput", "...");
  return theme.fg("accent", shortenHome(raw, paths.home));
}

/** `:5`, `:5-14` for read's offset and limit ("" when absent or malformed). */
export function readLineRange(offset: unknown, limit: unknown): string {
  const parse = (v: unknown) => {
    const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
    return typeof n === "number" && Number.isFinite(n) ? n : undefined;
  };
  if (offset == null && limit == null) return "";
  const start = offset == null ? 1 : parse(offset);
  if (start === undefined) return "";
  if (limit == null) return `:${start}`;
  const count = parse(limit);
  if (count === undefined) return "";
  const end = start + count - 1;
  return `:${start}${end ? `-${end}` : ""}`;
}

function trimTrailingEmpty(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1] === "") end--;
  return lines.slice(0, end);
}

/** `... (N more lines, ctrl+o to expand)` (with `M total, ` for write). */
function moreLines(theme: Theme, remaining: number, total?: number): string {
  const count = total === undefined ? `${remaining} more lines,` : `${remaining} more lines, ${total} total,`;
  return `${theme.fg("muted", `\n... (${count}`)} ${theme.fg("dim", keyText("app.tools.expand"))}${
    theme.fg("muted", " to expand")
  }${theme.fg("muted", ")")}`;
}

/** The text of a result's text blocks (escape sequences and carriage returns removed). */
export function resultText(result: AgentToolResult | undefined): string {
  if (!result) return "";
  // deno-lint-ignore no-control-regex
  const ansi = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*(\x07|\x1b\\)/g;
  return result.content
    .filter((c) => c.type === "text")
    .map((c) => (c as { text: string }).text.replace(ansi, "").replace(/\r/g, ""))
    .join("\n");
}

/** The read call: compact for skills and project resources while collapsed. */
export function readCall(theme: Theme, args: Args, expanded: boolean, paths: RenderPaths): string {
  const raw = str(args?.file_path ?? args?.path);
  const range = readLineRange(args?.offset, args?.limit);
  const styledRange = range ? theme.fg("warning", range) : "";
  if (!expanded && raw) {
    const absolute = resolve(paths.cwd, raw);
    const name = basename(absolute);
    const hint = theme.fg("dim", ` (${keyText("app.tools.expand")} to expand)`);
    if (name === "SKILL.md") {
      return theme.fg("customMessageLabel", theme.bold("[skill]") + " ") +
        theme.fg("customMessageText", basename(dirname(absolute)) || name) + styledRange + hint;
    }
    if (RESOURCE_FILES.has(name)) {
      const rel = relative(paths.cwd, absolute);
      const label = rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : absolute;
      return `${theme.fg("toolTitle", theme.bold("read resource"))} ${
        theme.fg("accent", label)
      }${styledRange}${hint}`;
    }
  }
  return `${theme.fg("toolTitle", theme.bold("read"))} ${toolPath(theme, raw, paths)}${styledRange}`;
}

/** The read result: nothing while collapsed (unless it failed); the lines and truncation notes. */
export function readResult(
  theme: Theme,
  result: AgentToolResult,
  expanded: boolean,
  isError: boolean,
): string {
  const details = result.details as
    | {
      imageUnsupportedByModel?: string;
      truncation?: {
        truncated?: boolean;
        firstLineExceedsLimit?: boolean;
        truncatedBy?: string;
        outputLines?: number;
        totalLines?: number;
        maxLines?: number;
        maxBytes?: number;
      };
    }
    | undefined;
  const unsupported = details?.imageUnsupportedByModel;
  const imageWarning = unsupported
    ? `\n${theme.fg("warning", `[${unsupported} does not support images; it saw a placeholder instead]`)}`
    : "";
  if (!expanded && !isError) return imageWarning;
  const lines = trimTrailingEmpty(resultText(result).split("\n"));
  const shown = expanded ? lines : lines.slice(0, PREVIEW_LINES);
  let text = `\n${shown.map((l) => theme.fg("toolOutput", replaceTabs(l))).join("\n")}`;
  if (lines.length > shown.length) text += moreLines(theme, lines.length - shown.length);
  const t = details?.truncation;
  if (t?.truncated) {
    const limit = formatSize(t.maxBytes ?? 50 * 1024);
    if (t.firstLineExceedsLimit) text += `\n${theme.fg("warning", `[First line exceeds ${limit} limit]`)}`;
    else if (t.truncatedBy === "lines") {
      text += `\n${
        theme.fg(
          "warning",
          `[Truncated: showing ${t.outputLines} of ${t.totalLines} lines (${t.maxLines ?? 2000} line limit)]`,
        )
      }`;
    } else text += `\n${theme.fg("warning", `[Truncated: ${t.outputLines} lines shown (${limit} limit)]`)}`;
  }
  return text + imageWarning;
}

/** The write call with the first lines of the content (all when expanded). */
export function writeCall(theme: Theme, args: Args, expanded: boolean, paths: RenderPaths): string {
  const raw = str(args?.file_path ?? args?.path);
  const content = str(args?.content);
  let text = `${theme.fg("toolTitle", theme.bold("write"))} ${toolPath(theme, raw, paths)}`;
  if (content === null) return `${text}\n\n${theme.fg("error", "[invalid content arg - expected string]")}`;
  if (!content) return text;
  const lines = trimTrailingEmpty(content.replace(/\r/g, "").split("\n"));
  const shown = expanded ? lines : lines.slice(0, PREVIEW_LINES);
  text += `\n\n${shown.map((l) => theme.fg("toolOutput", replaceTabs(l))).join("\n")}`;
  if (lines.length > shown.length) text += moreLines(theme, lines.length - shown.length, lines.length);
  return text;
}

/** The write result: only a failure's message. */
export function writeResult(theme: Theme, result: AgentToolResult, isError: boolean): string | undefined {
  if (!isError) return undefined;
  const output = resultText(result);
  return output ? `\n${theme.fg("error", output)}` : undefined;
}

/** The edit call's first row. */
export function editCall(theme: Theme, args: Args, paths: RenderPaths): string {
  return `${theme.fg("toolTitle", theme.bold("edit"))} ${
    toolPath(theme, str(args?.file_path ?? args?.path), paths)
  }`;
}

/**
 * A numbered diff (`+12 new`, `-12 old`, ` 12 context`, `   ...`) in the diff colours; a
 * one-line change shows its changed words in inverse.
 */
export function renderDiff(theme: Theme, diff: string): string {
  const parse = (line: string) => /^([+\-\s])(\s*\d*)\s(.*)$/.exec(line);
  const out: string[] = [];
  const lines = diff.split("\n");
  for (let i = 0; i < lines.length;) {
    const m = parse(lines[i]);
    if (!m) {
      out.push(theme.fg("toolDiffContext", lines[i++]));
      continue;
    }
    if (m[1] === "-") {
      const removed: RegExpExecArray[] = [];
      const added: RegExpExecArray[] = [];
      for (let p = parse(lines[i] ?? ""); p && p[1] === "-"; p = parse(lines[++i] ?? "")) removed.push(p);
      for (let p = parse(lines[i] ?? ""); p && p[1] === "+"; p = parse(lines[++i] ?? "")) added.push(p);
      if (removed.length === 1 && added.length === 1) {
        const [before, after] = inverseChanges(replaceTabs(removed[0][3]), replaceTabs(added[0][3]));
        out.push(theme.fg("toolDiffRemoved", `-${removed[0][2]} ${before}`));
        out.push(theme.fg("toolDiffAdded", `+${added[0][2]} ${after}`));
      } else {
        for (const r of removed) out.push(theme.fg("toolDiffRemoved", `-${r[2]} ${replaceTabs(r[3])}`));
        for (const a of added) out.push(theme.fg("toolDiffAdded", `+${a[2]} ${replaceTabs(a[3])}`));
      }
      continue;
    }
    const colour = m[1] === "+" ? "toolDiffAdded" : "toolDiffContext";
    out.push(theme.fg(colour, `${m[1]}${m[2]} ${replaceTabs(m[3])}`));
    i++;
  }
  return out.join("\n");
}

/** The two lines with the words between their common start and end in inverse. */
function inverseChanges(before: string, after: string): [string, string] {
  const inverse = (t: string) => t ? `\x1b[7m${t}\x1b[27m` : "";
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  // Back to a word boundary, so whole words are marked.
  while (start > 0 && /\w/.test(before[start - 1] ?? "")) start--;
  let end = 0;
  while (
    end < before.length - start && end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  ) end++;
  while (end > 0 && /\w/.test(before[before.length - end] ?? "")) end--;
  return [
    before.slice(0, start) + inverse(before.slice(start, before.length - end)) +
    before.slice(before.length - end),
    after.slice(0, start) + inverse(after.slice(start, after.length - end)) + after.slice(after.length - end),
  ];
}

/** The edit result: a failure's message (the diff sits in the call box). */
export function editResultError(theme: Theme, result: AgentToolResult, isError: boolean): string | undefined {
  if (!isError) return undefined;
  const text = resultText(result);
  return text ? theme.fg("error", text) : undefined;
}
