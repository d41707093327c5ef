/**
 * What a `/bug` report says about the machine and the session (1.6.0's report.json: environment,
 * model, provider, extensions, settings without secrets) and the zip archive "Export as Zip" writes
 * (`pi-bug-report-<id>.zip`, the report's files deflated). The files themselves are bug_report.ts's.
 *
 * @module
 */
import { crc32 } from "../ai/providers/bedrock_eventstream.ts";
import type { Model } from "../ai/types.ts";
import type { ModelRuntime } from "../config/model_runtime.ts";
import type { Settings } from "../config/settings_types.ts";
import { createSessionId } from "../session/ids.ts";
import { VERSION } from "../version.ts";
import {
  BUG_REPORT_SCHEMA_VERSION,
  type BugReportBundle,
  bugReportFiles,
  redactJsonValue,
  redactUrl,
} from "./bug_report.ts";

/** What {@link collectBugReportMetadata} describes. */
export interface BugReportMetadataOptions {
  hint?: string;
  sessionId: string;
  cwd: string;
  includeSession: boolean;
  includeSummary: boolean;
  messageCount: number;
  model?: Model;
  modelRuntime: ModelRuntime;
  thinkingLevel: string;
  extensions: readonly { path: string; source?: string; scope?: string; origin?: string }[];
  extensionErrors: readonly { path: string; error: string }[];
  globalSettings: Settings;
  projectSettings: Settings;
  /** The report's id; a new UUID v7 otherwise. */
  id?: string;
}

function architecture(): string {
  return Deno.build.arch === "x86_64" ? "x64" : Deno.build.arch === "aarch64" ? "arm64" : Deno.build.arch;
}

/** The machine and terminal: names of PI_* variables only, never their values. */
function collectEnvironment(): Record<string, unknown> {
  const env = (name: string) => Deno.env.get(name) || null;
  const osRelease = (() => {
    try {
      return Deno.osRelease();
    } catch {
      return null;
    }
  })();
  return {
    version: VERSION,
    userAgent: `pi/${VERSION} (${Deno.build.os}; deno/${Deno.version.deno}; ${architecture()})`,
    runtime: `deno/${Deno.version.deno}`,
    platform: Deno.build.os,
    arch: architecture(),
    osRelease,
    shell: Deno.env.get("SHELL")?.split(/[\\/]/).pop() || null,
    terminal: {
      term: env("TERM"),
      program: env("TERM_PROGRAM"),
      programVersion: env("TERM_PROGRAM_VERSION"),
      colorterm: env("COLORTERM"),
      tmux: Boolean(Deno.env.get("TMUX")),
      ssh: Boolean(Deno.env.get("SSH_CONNECTION") || Deno.env.get("SSH_CLIENT") || Deno.env.get("SSH_TTY")),
      ci: Boolean(Deno.env.get("CI")),
    },
    piEnvironmentVariables: Object.keys(Deno.env.toObject()).filter((n) => n.startsWith("PI_")).sort(),
  };
}

function describeModel(model: Model): Record<string, unknown> {
  const loose = model as Model & { samplingParams?: unknown; thinkingLevelMap?: unknown };
  return {
    provider: model.provider,
    id: model.id,
    name: model.name,
    api: model.api,
    baseUrl: redactUrl(model.baseUrl),
    reasoning: model.reasoning,
    input: model.input,
    contextWindow: model.contextWindow,
    maxTokens: model.maxTokens,
    samplingParams: loose.samplingParams ? redactJsonValue(loose.samplingParams) : null,
    compat: model.compat ? redactJsonValue(model.compat) : null,
    thinkingLevelMap: loose.thinkingLevelMap ?? null,
    headerNames: Object.keys(model.headers ?? {}).sort(),
  };
}

/** Settings without the tracking and device ids, secrets redacted. */
function redactSettings(settings: Settings): unknown {
  const { trackingId: _t, deviceId: _d, ...rest } = settings as Settings & {
    trackingId?: unknown;
    deviceId?: unknown;
  };
  return redactJsonValue(rest);
}

/** report.json: the report's id and time, the description, environment, model and settings. */
export function collectBugReportMetadata(options: BugReportMetadataOptions): Record<string, unknown> {
  const model = options.model;
  return {
    schemaVersion: BUG_REPORT_SCHEMA_VERSION,
    id: options.id ?? createSessionId(),
    createdAt: new Date().toISOString(),
    hint: options.hint?.trim() || null,
    environment: collectEnvironment(),
    session: {
      id: options.sessionId,
      included: options.includeSession,
      summaryIncluded: options.includeSummary,
      messageCount: options.messageCount,
      ...(options.includeSession ? { cwd: options.cwd } : {}),
    },
    model: model ? describeModel(model) : null,
    provider: model
      ? {
        id: model.provider,
        authStatus: options.modelRuntime.getProviderAuthStatus(model.provider),
        usingOAuth: options.modelRuntime.isUsingOAuth(model.provider),
      }
      : null,
    thinkingLevel: options.thinkingLevel,
    extensions: options.extensions.map((e) => ({
      path: e.path,
      source: e.source === undefined ? null : redactUrl(e.source),
      scope: e.scope ?? null,
      origin: e.origin ?? null,
    })),
    extensionErrors: options.extensionErrors.map(({ path, error }) => ({ path, error })),
    settings: {
      global: redactSettings(options.globalSettings),
      project: redactSettings(options.projectSettings),
    },
  };
}

/** The archive's file name for report `id`. */
export function bugReportArchiveFileName(id: string): string {
  return `pi-bug-report-${id}.zip`;
}

/** `data` deflated without a zlib header (a zip entry's method 8). */
async function deflateRaw(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as BlobPart]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** `size` zero bytes with each `[offset, value, width]` written little-endian. */
function littleEndian(size: number, fields: [number, number, 2 | 4][]): Uint8Array {
  const view = new DataView(new ArrayBuffer(size));
  for (const [at, value, width] of fields) {
    if (width === 4) view.setUint32(at, value >>> 0, true);
    else view.setUint16(at, value, true);
  }
  return new Uint8Array(view.buffer);
}

/** A classic zip of `files` (UTF-8 names, deflated, stamped with the local time as zip wants). */
async function zipArchive(files: readonly { name: string; data: string }[]): Promise<Uint8Array> {
  const now = new Date();
  const time = (now.getHours() << 11) | (now.getMinutes() << 5) | (now.getSeconds() >> 1);
  const day = ((Math.max(1980, now.getFullYear()) - 1980) << 9) | ((now.getMonth() + 1) << 5) | now.getDate();
  const parts: Uint8Array[] = [];
  const directory: Uint8Array[] = [];
  let offset = 0;
  for (const file of files) {
    const name = new TextEncoder().encode(file.name);
    const data = new TextEncoder().encode(file.data);
    const packed = await deflateRaw(data);
    const sum = crc32(data);
    const local = littleEndian(30, [
      [0, 0x04034b50, 4],
      [4, 20, 2],
      [6, 0x0800, 2],
      [8, 8, 2],
      [10, time, 2],
      [12, day, 2],
      [14, sum, 4],
      [18, packed.length, 4],
      [22, data.length, 4],
      [26, name.length, 2],
    ]);
    const central = littleEndian(46, [
      [0, 0x02014b50, 4],
      [4, 20, 2],
      [6, 20, 2],
      [8, 0x0800, 2],
      [10, 8, 2],
      [12, time, 2],
      [14, day, 2],
      [16, sum, 4],
      [20, packed.length, 4],
      [24, data.length, 4],
      [28, name.length, 2],
      [42, offset, 4],
    ]);
    parts.push(local, name, packed);
    directory.push(central, name);
    offset += 30 + name.length + packed.length;
  }
  const directorySize = directory.reduce((n, d) => n + d.length, 0);
  const end = littleEndian(22, [
    [0, 0x06054b50, 4],
    [8, files.length, 2],
    [10, files.length, 2],
    [12, directorySize, 4],
    [16, offset, 4],
  ]);
  const all = [...parts, ...directory, end];
  const out = new Uint8Array(all.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of all) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Writes the report's files as a zip archive at `path`. */
export async function writeBugReportArchive(bundle: BugReportBundle, path: string): Promise<void> {
  await Deno.writeFile(path, await zipArchive(bugReportFiles(bundle)));
}
