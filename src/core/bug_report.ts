/**
 * The parts of pi 1.6.0's bug report (`/bug`) that do not depend on the screen: removing secrets
 * from URLs and settings, the diagnostics of failed assistant turns (no conversation content), the
 * files a report consists of, and the upload to the Radius gateway (`POST /v1/bug-reports` as
 * multipart form data, anonymous or with the Radius login's token).
 *
 * The interactive `/bug` dialog is src/modes/interactive/bug_command.ts.
 *
 * @module
 */
import type { SessionEntry } from "../session/entries.ts";
import { radiusGatewayUrl } from "./export/share_radius.ts";

/** The version of the report's JSON files (1.6.0's `schemaVersion`). */
export const BUG_REPORT_SCHEMA_VERSION = 1;

/** The custom entry type a sent report is recorded under in the session. */
export const BUG_REPORT_CUSTOM_ENTRY_TYPE = "pi.bug-report";

const REDACTED = "<redacted>";
const SENSITIVE_KEY =
  /(?:^|[-_])(api[-_]?key|secret|token|password|passwd|credential|authorization|cookie)(?:$|[-_])/i;

/** Whether a key (camelCase split into words) names a secret: api key, token, password, cookie… */
function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEY.test(key.replace(/([a-z0-9])([A-Z])/g, "$1_$2"));
}

/**
 * `value` without user name, password and secret-looking query parameters (their values become
 * `<redacted>`); a nested URL (`git+https://…`) is cleaned too. Text that is not a URL is kept.
 */
export function redactUrl(value: string): string {
  const nested = /^([a-z][a-z0-9+.-]*:)([a-z][a-z0-9+.-]*:\/\/.*)$/i.exec(value);
  if (nested) return `${nested[1]}${redactUrl(nested[2])}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value;
  }
  let changed = false;
  if (url.username || url.password) {
    url.username = "";
    url.password = "";
    changed = true;
  }
  for (const key of [...url.searchParams.keys()]) {
    if (isSensitiveKey(key)) {
      url.searchParams.set(key, REDACTED);
      changed = true;
    }
  }
  return changed ? url.toString() : value;
}

/** A JSON copy of `value` with secret-named keys' values replaced and every string URL-redacted. */
export function redactJsonValue(value: unknown): unknown {
  if (value === undefined) return undefined;
  return JSON.parse(JSON.stringify(value, (key, child) => {
    if (child !== null && child !== undefined && isSensitiveKey(key)) return REDACTED;
    return typeof child === "string" ? redactUrl(child) : child;
  }));
}

/** A crash pi recorded, as the diagnostics list it. */
export type CrashRecord = Record<string, unknown>;

/** The failed assistant turns of a session, without conversation content (diagnostics.json). */
export interface BugReportDiagnostics {
  schemaVersion: number;
  sessionId: string;
  entryCount: number;
  assistantMessageCount: number;
  assistant: Record<string, unknown>[];
  crashes: CrashRecord[];
}

/**
 * Collects the assistant turns that failed (an error or abort stop, an error message, or provider
 * diagnostics): where, which model and API, and why; and the crashes given (their `notified` flag
 * dropped).
 */
export function collectBugReportDiagnostics(
  sessionId: string,
  entries: readonly SessionEntry[],
  crashes: readonly CrashRecord[] = [],
): BugReportDiagnostics {
  const assistant: Record<string, unknown>[] = [];
  let assistantMessageCount = 0;
  for (const entry of entries) {
    if (entry.type !== "message" || entry.message.role !== "assistant") continue;
    assistantMessageCount++;
    const message = entry.message as typeof entry.message & {
      diagnostics?: unknown[];
      rawStopReason?: unknown;
    };
    const diagnostics = message.diagnostics ?? [];
    const failed = message.stopReason === "error" || message.stopReason === "aborted" || message.errorMessage;
    if (diagnostics.length === 0 && !failed) continue;
    assistant.push({
      entryId: entry.id,
      timestamp: entry.timestamp,
      provider: message.provider,
      model: message.model,
      api: message.api,
      stopReason: message.stopReason,
      ...(message.rawStopReason === undefined ? {} : { rawStopReason: message.rawStopReason }),
      ...(message.errorMessage === undefined ? {} : { errorMessage: message.errorMessage }),
      diagnostics,
    });
  }
  return {
    schemaVersion: BUG_REPORT_SCHEMA_VERSION,
    sessionId,
    entryCount: entries.length,
    assistantMessageCount,
    assistant,
    crashes: crashes.map(({ notified: _notified, ...record }) => record),
  };
}

/** A report's contents: report.json, diagnostics.json, and optionally the transcript and a summary. */
export interface BugReportBundle {
  /** report.json (version, environment, model, settings…; 1.6.0's metadata). */
  metadata: Record<string, unknown>;
  /** diagnostics.json. */
  diagnostics: BugReportDiagnostics;
  /** summary.md, when a summary was written instead of the transcript. */
  summary?: string;
  /** session.jsonl, when the user included the transcript. */
  sessionJsonl?: string;
}

/** One file of a report. */
export interface BugReportFile {
  name: string;
  contentType: string;
  data: string;
}

/** The files of a report, in 1.6.0's order and formats (the same for the upload and a zip). */
export function bugReportFiles(bundle: BugReportBundle): BugReportFile[] {
  const files: BugReportFile[] = [
    {
      name: "report.json",
      contentType: "application/json",
      data: `${JSON.stringify(bundle.metadata, null, 2)}\n`,
    },
    {
      name: "diagnostics.json",
      contentType: "application/json",
      data: `${JSON.stringify(bundle.diagnostics, null, 2)}\n`,
    },
  ];
  if (bundle.sessionJsonl !== undefined) {
    files.push({ name: "session.jsonl", contentType: "application/x-ndjson", data: bundle.sessionJsonl });
  }
  if (bundle.summary !== undefined) {
    files.push({
      name: "summary.md",
      contentType: "text/markdown",
      data: bundle.summary.endsWith("\n") ? bundle.summary : `${bundle.summary}\n`,
    });
  }
  return files;
}

/** Options of {@link uploadBugReport}. */
export interface BugReportUploadOptions {
  /** The Radius login's token; without it the report is anonymous. */
  token?: string;
  /** The gateway origin; default `$PI_RADIUS_GATEWAY` or https://radius.pi.dev. */
  gatewayUrl?: string;
  /** Stops the upload. */
  signal?: AbortSignal;
}

interface BugReportReply {
  ok?: boolean;
  bug_report?: { id?: unknown };
  description?: string;
  error?: string;
}

/**
 * Sends the report's files as multipart form data to `<gateway>/v1/bug-reports`; resolves the id the
 * gateway gave it. A refused upload throws `Bug report upload failed: <the reply's description or
 * error, or the status text, or the status>` (1.6.0's text).
 */
export async function uploadBugReport(
  bundle: BugReportBundle,
  options: BugReportUploadOptions = {},
): Promise<{ id: string }> {
  const body = new FormData();
  for (const file of bugReportFiles(bundle)) {
    body.append(file.name, new Blob([file.data], { type: file.contentType }), file.name);
  }
  const response = await fetch(new URL("/v1/bug-reports", options.gatewayUrl ?? radiusGatewayUrl()), {
    method: "POST",
    headers: options.token ? { Authorization: `Bearer ${options.token}` } : undefined,
    body,
    signal: options.signal,
  });
  const json = await response.json().catch(() => null) as BugReportReply | null;
  const id = json?.bug_report?.id;
  if (response.ok && json?.ok === true && typeof id === "string") return { id };
  const detail = json && !json.ok ? json.description || json.error : undefined;
  throw new Error(`Bug report upload failed: ${detail || response.statusText || response.status}`);
}
