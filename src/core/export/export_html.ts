/**
 * HTML export of a session (SES/HTML): one self-contained page, as pi 1.6.0 writes it. The page
 * carries the whole session (header, every entry of every branch, the leaf) as base64-encoded
 * UTF-8 JSON in `<script id="session-data">`, the theme's colours as CSS variables, marked for
 * Markdown, and our viewer (sidebar tree, branch switching, search and filters, deep links).
 *
 * Loaded only when an export is asked for: the page template alone is ~80 KB of code.
 *
 * @module
 */
import { existsSync, writeAllSync, writeTextFileSync } from "../../util/fs.ts";
import { basename, resolve } from "../../util/path.ts";
import { expandTildePath } from "../../config/paths.ts";
import { SessionManager } from "../../session/session_manager.ts";
import type { SessionEntry, SessionHeader } from "../../session/entries.ts";
import type { ThemeJson } from "../../resources/themes/theme_schema.ts";
import { EXPORT_TEMPLATE } from "./export_template_generated.ts";
import { exportThemeVars } from "./export_theme.ts";
import { base64Of, Base64Sink } from "./base64_sink.ts";
import { writeSessionFileData } from "./session_file_data.ts";

/** A tool as the page's "Available Tools" list shows it. */
export interface ExportedTool {
  /** The tool's name. */
  name: string;
  /** What the model is told it does. */
  description?: string;
  /** Its JSON schema. */
  parameters?: unknown;
}

/** What the page embeds: 1.6.0's session-data object. */
export interface SessionExportData {
  /** The session header (`null` for a session without one). */
  header: SessionHeader | null;
  /** Every entry, all branches, in file order. */
  entries: readonly SessionEntry[];
  /** The entry the page opens on. */
  leafId: string | null;
  /** The system prompt of the exporting agent (live sessions only). */
  systemPrompt?: string;
  /** The exporting agent's tools (live sessions only). */
  tools?: ExportedTool[];
}

/** The part of a session manager exporting reads. */
export type ExportSource = Pick<
  SessionManager,
  "getSessionFile" | "getHeader" | "getEntries" | "getLeafId"
>;

/** The part of the agent state exporting reads. */
export interface ExportAgentState {
  /** The system prompt in force. */
  systemPrompt?: string;
  /** The active tools. */
  tools?: readonly ExportedTool[];
}

/** Options of the export functions; a plain string is the output path. */
export interface HtmlExportOptions {
  /** Where to write; default `pi-session-<session file name>.html` in the current folder. */
  outputPath?: string;
  /**
   * The theme whose colours the page takes (the theme file's contents; the interactive `/export`
   * passes the one in use). None, or 1.6.0's `system` theme: 1.6.0's default export palette.
   */
  theme?: ThemeJson;
}

/**
 * The page around its session data: everything before and everything after the base64 of the
 * data's JSON (UTF-8), with the theme's colours filled in.
 */
function pageParts(theme?: ThemeJson): [string, string] {
  const { declarations, backgrounds } = exportThemeVars(theme);
  const slots: Record<string, string> = {
    "{{THEME_VARS}}": declarations,
    "{{BODY_BG}}": backgrounds.pageBg,
    "{{CONTAINER_BG}}": backgrounds.cardBg,
    "{{INFO_BG}}": backgrounds.infoBg,
  };
  // Each placeholder once (as 1.6.0 fills them), with function replacements so that nothing in
  // the values is read as a replacement pattern.
  let html = EXPORT_TEMPLATE;
  for (const [slot, value] of Object.entries(slots)) html = html.replace(slot, () => value);
  const at = html.indexOf("{{SESSION_DATA}}");
  return [html.slice(0, at), html.slice(at + "{{SESSION_DATA}}".length)];
}

/** The page for `data`: the template with the theme's colours and the session filled in. */
export function renderSessionHtml(data: SessionExportData, theme?: ThemeJson): string {
  const [before, after] = pageParts(theme);
  return before + base64Of(new TextEncoder().encode(JSON.stringify(data))) + after;
}

function optionsOf(options?: string | HtmlExportOptions): HtmlExportOptions {
  return typeof options === "string" ? { outputPath: options } : options ?? {};
}

function defaultOutputName(sessionFile: string): string {
  return `pi-session-${basename(sessionFile).replace(/\.jsonl$/, "")}.html`;
}

function targetOf(outputPath: string | undefined, sessionFile: string): string {
  return outputPath ? expandTildePath(outputPath) : defaultOutputName(sessionFile);
}

/**
 * Writes the page to `target`: the part before the data, then what `fill` streams into the
 * data's base64 sink, then the rest. `fill` returns null to write nothing at all, in which case
 * the file is not even created; otherwise its result is returned.
 */
function writePage<T>(
  target: string,
  theme: ThemeJson | undefined,
  fill: (begin: () => Base64Sink) => T | null,
): T | null {
  let file: Deno.FsFile | undefined;
  let after = "";
  try {
    const result = fill(() => {
      // The theme is resolved before the file is created, so a bad theme leaves no file behind.
      const [before, rest] = pageParts(theme);
      after = rest;
      writeTextFileSync(target, before);
      file = Deno.openSync(target, { append: true });
      return new Base64Sink(file);
    });
    if (result === null) return null;
    if (!file) throw new Error(`Nothing was written to ${target}`);
    writeAllSync(file, after);
    return result;
  } finally {
    (file as Deno.FsFile | undefined)?.close();
  }
}

/** Writes the page of `data`, serialising it entry by entry (see {@link writeSessionData}). */
function write(data: SessionExportData, options: HtmlExportOptions, sessionFile: string): string {
  const target = targetOf(options.outputPath, sessionFile);
  writePage(target, options.theme, (begin) => {
    const sink = begin();
    writeSessionData(sink, data);
    sink.finish();
    return true;
  });
  return target;
}

/**
 * Writes `JSON.stringify(data)` into `sink` an entry at a time: the same text (its key order, its
 * leaving out of undefined fields), without ever holding the JSON of the whole session.
 */
export function writeSessionData(sink: Base64Sink, data: SessionExportData): void {
  let first = true;
  for (const key of ["header", "entries", "leafId", "systemPrompt", "tools"] as const) {
    if (key === "entries") {
      sink.writeText(`${first ? "{" : ","}"entries":[`);
      data.entries.forEach((entry, i) =>
        sink.writeText((i > 0 ? "," : "") + (JSON.stringify(entry) ?? "null"))
      );
      sink.writeText("]");
    } else {
      const json = JSON.stringify(data[key]) as string | undefined;
      if (json === undefined) continue;
      sink.writeText(`${first ? "{" : ","}"${key}":${json}`);
    }
    first = false;
  }
  sink.writeText("}");
}

/**
 * Exports a live session (the `/export` command, RPC `export_html`, `AgentSession.exportToHtml`):
 * every branch, opening on the current leaf, with the agent's system prompt and tools. Returns
 * the path written (as given, or the default name relative to the current folder).
 */
export function exportSessionToHtml(
  manager: ExportSource,
  state?: ExportAgentState,
  options?: string | HtmlExportOptions,
): Promise<string> {
  const opts = optionsOf(options);
  const sessionFile = manager.getSessionFile();
  if (!sessionFile) return Promise.reject(new Error("Cannot export in-memory session to HTML"));
  if (!existsSync(sessionFile)) {
    return Promise.reject(new Error("Nothing to export yet - start a conversation first"));
  }
  const data: SessionExportData = {
    header: manager.getHeader(),
    entries: manager.getEntries(),
    leafId: manager.getLeafId(),
    systemPrompt: state?.systemPrompt,
    tools: state?.tools?.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
  };
  try {
    return Promise.resolve(write(data, opts, sessionFile));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** What exporting a session file produced. */
export interface FileExportResult {
  /** The path written. */
  path: string;
  /** Lines of the input that were skipped (`file:line: why`), for the caller to show. */
  warnings: string[];
}

/**
 * Exports a session file (`pi --export <file> [output]`): no agent, so no system prompt or tools.
 * A missing file or one that is not a session is an error naming the file; malformed lines are
 * skipped (as 1.6.0 does) and reported in `warnings`.
 */
export function exportSessionFileToHtml(
  inputPath: string,
  options?: string | HtmlExportOptions,
): FileExportResult {
  const opts = optionsOf(options);
  const file = checkedSessionFile(inputPath);
  const target = targetOf(opts.outputPath, file);
  // Lines are copied, not parsed and serialised again: see session_file_data.ts.
  const warnings = writePage(target, opts.theme, (begin) => {
    let sink: Base64Sink | undefined;
    const result = writeSessionFileData(file, () => sink = begin());
    sink?.finish();
    return result;
  });
  if (warnings) return { path: target, warnings };
  return exportSessionFileStraight(inputPath, options);
}

function checkedSessionFile(inputPath: string): string {
  const file = resolve(expandTildePath(inputPath));
  if (!existsSync(file)) throw new Error(`File not found: ${file}`);
  if (!Deno.statSync(file).isFile) throw new Error(`Not a session file: ${file} is a directory`);
  return file;
}

/**
 * {@link exportSessionFileToHtml} the straightforward way: the file loaded by SessionManager
 * (which migrates old formats, and gives a blank file its header) and its entries serialised.
 * The fast way must write the same page; the tests compare the two.
 */
export function exportSessionFileStraight(
  inputPath: string,
  options?: string | HtmlExportOptions,
): FileExportResult {
  const opts = optionsOf(options);
  const file = checkedSessionFile(inputPath);
  const manager = SessionManager.open(file);
  const data: SessionExportData = {
    header: manager.getHeader(),
    entries: manager.getEntries(),
    leafId: manager.getLeafId(),
  };
  return { path: write(data, opts, file), warnings: manager.getLoadWarnings() };
}

/** 1.6.0's name for the file export: returns only the path written. */
export function exportFromFile(inputPath: string, options?: string | HtmlExportOptions): Promise<string> {
  try {
    return Promise.resolve(exportSessionFileToHtml(inputPath, options).path);
  } catch (error) {
    return Promise.reject(error);
  }
}
