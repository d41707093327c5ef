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
import { existsSync, writeTextFileSync } from "../../util/fs.ts";
import { basename, resolve } from "../../util/path.ts";
import { toBase64 } from "../../util/bytes.ts";
import { expandTildePath } from "../../config/paths.ts";
import { SessionManager } from "../../session/session_manager.ts";
import type { SessionEntry, SessionHeader } from "../../session/entries.ts";
import { EXPORT_TEMPLATE } from "./export_template_generated.ts";
import { exportThemeVars } from "./export_theme.ts";

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
}

const utf8 = new TextEncoder();

/** The page for `data`: the template with the theme colours and the session filled in. */
export function renderSessionHtml(data: SessionExportData): string {
  const { declarations, backgrounds } = exportThemeVars();
  const payload = toBase64(utf8.encode(JSON.stringify(data)));
  const slots: Record<string, string> = {
    "{{THEME_VARS}}": declarations,
    "{{BODY_BG}}": backgrounds.pageBg,
    "{{CONTAINER_BG}}": backgrounds.cardBg,
    "{{INFO_BG}}": backgrounds.infoBg,
    "{{SESSION_DATA}}": payload,
  };
  // One pass, each placeholder once (as 1.6.0 fills them), with function replacements so that
  // nothing in the values is read as a replacement pattern.
  let html = EXPORT_TEMPLATE;
  for (const [slot, value] of Object.entries(slots)) html = html.replace(slot, () => value);
  return html;
}

function optionsOf(options?: string | HtmlExportOptions): HtmlExportOptions {
  return typeof options === "string" ? { outputPath: options } : options ?? {};
}

function defaultOutputName(sessionFile: string): string {
  return `pi-session-${basename(sessionFile).replace(/\.jsonl$/, "")}.html`;
}

function write(html: string, outputPath: string | undefined, sessionFile: string): string {
  const target = outputPath ? expandTildePath(outputPath) : defaultOutputName(sessionFile);
  writeTextFileSync(target, html);
  return target;
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
  const { outputPath } = optionsOf(options);
  const sessionFile = manager.getSessionFile();
  if (!sessionFile) return Promise.reject(new Error("Cannot export in-memory session to HTML"));
  if (!existsSync(sessionFile)) {
    return Promise.reject(new Error("Nothing to export yet - start a conversation first"));
  }
  const html = renderSessionHtml({
    header: manager.getHeader(),
    entries: manager.getEntries(),
    leafId: manager.getLeafId(),
    systemPrompt: state?.systemPrompt,
    tools: state?.tools?.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
  });
  return Promise.resolve(write(html, outputPath, sessionFile));
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
  const { outputPath } = optionsOf(options);
  const file = resolve(expandTildePath(inputPath));
  if (!existsSync(file)) throw new Error(`File not found: ${file}`);
  if (!Deno.statSync(file).isFile) throw new Error(`Not a session file: ${file} is a directory`);
  const manager = SessionManager.open(file);
  const html = renderSessionHtml({
    header: manager.getHeader(),
    entries: manager.getEntries(),
    leafId: manager.getLeafId(),
  });
  return { path: write(html, outputPath, file), warnings: manager.getLoadWarnings() };
}

/** 1.6.0's name for the file export: returns only the path written. */
export function exportFromFile(inputPath: string, options?: string | HtmlExportOptions): Promise<string> {
  try {
    return Promise.resolve(exportSessionFileToHtml(inputPath, options).path);
  } catch (error) {
    return Promise.reject(error);
  }
}
