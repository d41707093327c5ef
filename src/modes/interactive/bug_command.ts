/**
 * `/bug [description]` (pi 1.6.0's reportBug): a private report for the Pi developers. The user
 * writes what went wrong (the command's argument prefilled), chooses whether the transcript goes
 * along (or else a summary the session's model writes), then uploads it to the Radius gateway or
 * exports it as `pi-bug-report-<id>.zip` in the current folder. A sent report is recorded in the
 * session as a `pi.bug-report` entry. Texts are 1.6.0's.
 *
 * @module
 */
import type { BugReportBundle } from "../../core/bug_report.ts";
import {
  BUG_REPORT_CUSTOM_ENTRY_TYPE,
  collectBugReportDiagnostics,
  uploadBugReport,
} from "../../core/bug_report.ts";
import {
  bugReportArchiveFileName,
  collectBugReportMetadata,
  writeBugReportArchive,
} from "../../core/bug_report_bundle.ts";
import { generateBugReportSummary } from "../../core/bug_report_summary.ts";
import { extensionHostOf } from "../../core/extension_host.ts";
import { radiusGatewayUrl, radiusToken, serializeShareJsonl } from "../../core/export/share_radius.ts";
import { join } from "../../util/path.ts";
import { BorderedLoader } from "./bordered_loader.ts";
import type { CommandHost } from "./command_host.ts";
import { ExtensionEditorDialog, ExtensionSelector } from "./extension_dialogs.ts";

const DISCLAIMER =
  "This report goes to the Pi developers (Earendil) and is not shared publicly. It includes your pi version, operating system, the current model and provider configuration (without API keys), loaded extensions, settings, and provider error diagnostics from this session.";
const TRANSCRIPT_NOTE =
  "The transcript contains your messages, model output, tool calls and their results, including file contents and command output read during this session.";

interface BugOptions {
  hint?: string;
  includeSession: boolean;
  includeSummary: boolean;
  delivery: "upload" | "zip";
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : "Unknown error";
}

function status(app: CommandHost, text: string): void {
  app.chat.addNotice("status", text);
  app.requestRender();
}

function failure(app: CommandHost, text: string): void {
  app.chat.addNotice("error", text);
  app.requestRender();
}

/** The description dialog; null when cancelled. */
function ask(app: CommandHost, title: string, description: string, prefill?: string): Promise<string | null> {
  return new Promise((resolve) => {
    let close = () => {};
    const dialog = new ExtensionEditorDialog(app.theme, app.ui, title, prefill, (value) => {
      close();
      resolve(value);
    }, () => {
      close();
      resolve(null);
    }, { description, externalEditor: app.session.settingsManager.getExternalEditorCommand() });
    close = app.showSelector(dialog);
  });
}

/** A choice among `options`; undefined when cancelled. */
function choose(
  app: CommandHost,
  title: string,
  options: string[],
  description: string,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    let close = () => {};
    const selector = new ExtensionSelector(app.theme, title, options, (option) => {
      selector.dispose();
      close();
      resolve(option);
    }, () => {
      selector.dispose();
      close();
      resolve(undefined);
    }, { tui: app.ui, description });
    close = app.showSelector(selector);
  });
}

async function askOptions(app: CommandHost, initialHint?: string): Promise<BugOptions | undefined> {
  const hint = await ask(app, "Report a bug", `${DISCLAIMER}\n\nWhat went wrong? (optional)`, initialHint);
  if (hint === null) return undefined;
  const transcript = await choose(
    app,
    "Include the session transcript?",
    ["Yes, include the transcript", "No"],
    TRANSCRIPT_NOTE,
  );
  if (!transcript) return undefined;
  const includeSession = transcript !== "No";
  const model = app.session.model;
  const modelName = model?.name ?? "the current model";
  let includeSummary = false;
  if (!includeSession) {
    const summary = await choose(
      app,
      `Attach a summary written by ${modelName} instead?`,
      ["Yes, generate a summary", "No"],
      `The transcript is sent to ${
        model?.provider ?? "your provider"
      } with your credentials and tokens. Only the generated summary is attached; the transcript stays on your machine.`,
    );
    if (!summary) return undefined;
    includeSummary = summary !== "No";
  }
  const description = hint.trim();
  const delivery = await choose(
    app,
    "Bug report",
    ["Upload Report", "Export as Zip", "Cancel"],
    `Description: ${description || "none"}\nTranscript: ${
      includeSession ? "included" : "not included"
    }\nSummary: ${includeSummary ? `written by ${modelName}` : "none"}\n\nUpload sends the report to ${
      new URL(radiusGatewayUrl()).host
    }. Export writes a zip archive to the current directory instead.`,
  );
  if (!delivery || delivery === "Cancel") return undefined;
  return {
    hint: description || undefined,
    includeSession,
    includeSummary,
    delivery: delivery === "Upload Report" ? "upload" : "zip",
  };
}

function buildBundle(app: CommandHost, options: BugOptions, summary: string | undefined): BugReportBundle {
  const session = app.session;
  const settings = session.settingsManager;
  const host = extensionHostOf(session);
  return {
    metadata: collectBugReportMetadata({
      hint: options.hint,
      sessionId: session.sessionManager.getSessionId(),
      cwd: session.sessionManager.getCwd(),
      includeSession: options.includeSession,
      includeSummary: summary !== undefined,
      messageCount: session.messages.length,
      model: session.model,
      modelRuntime: session.modelRuntime,
      thinkingLevel: session.thinkingLevel,
      extensions: (host?.runner.extensions ?? []).map((e) => ({
        path: e.path,
        source: e.sourceInfo?.source,
        scope: e.sourceInfo?.scope,
        origin: e.sourceInfo?.origin,
      })),
      extensionErrors: host?.loadErrors ?? [],
      globalSettings: settings.getGlobalSettings(),
      projectSettings: settings.getProjectSettings(),
    }),
    diagnostics: collectBugReportDiagnostics(
      session.sessionManager.getSessionId(),
      session.sessionManager.getEntries(),
    ),
    summary,
    sessionJsonl: options.includeSession ? serializeShareJsonl(session) : undefined,
  };
}

function record(app: CommandHost, bundle: BugReportBundle, delivery: Record<string, unknown>): void {
  const meta = bundle.metadata as {
    id: string;
    createdAt: string;
    hint: string | null;
    session: Record<string, unknown>;
  };
  app.session.sessionManager.appendCustomEntry(BUG_REPORT_CUSTOM_ENTRY_TYPE, {
    id: meta.id,
    createdAt: meta.createdAt,
    hint: meta.hint,
    sessionIncluded: meta.session.included,
    summaryIncluded: meta.session.summaryIncluded,
    ...delivery,
  });
}

/** A spinner in the editor's place; `done` puts the editor back. */
function spinner(app: CommandHost, message: string): { loader: BorderedLoader; done: () => void } {
  const loader = new BorderedLoader(app.ui, app.theme, message);
  const hide = app.showSelector(loader);
  return {
    loader,
    done: () => {
      loader.dispose();
      hide();
    },
  };
}

/** Uploads; undefined when handled (sent or cancelled), else why it failed. */
async function upload(app: CommandHost, bundle: BugReportBundle): Promise<string | undefined> {
  const { loader, done } = spinner(app, "Uploading bug report...");
  try {
    let token: string | undefined;
    try {
      token = await radiusToken(app.session);
    } catch {
      token = undefined;
    }
    const result = await uploadBugReport(bundle, { token, signal: loader.signal });
    done();
    record(app, bundle, { delivery: "upload" });
    status(app, `Bug report uploaded. Report ID: ${result.id}`);
    return undefined;
  } catch (error) {
    done();
    if (loader.signal.aborted) {
      status(app, "Bug report cancelled");
      return undefined;
    }
    return errorText(error);
  }
}

async function exportZip(app: CommandHost, bundle: BugReportBundle): Promise<void> {
  const id = (bundle.metadata as { id: string }).id;
  const path = join(Deno.cwd(), bugReportArchiveFileName(id));
  try {
    await writeBugReportArchive(bundle, path);
  } catch (error) {
    failure(app, `Failed to write bug report: ${errorText(error)}`);
    return;
  }
  record(app, bundle, { delivery: "zip", path });
  status(app, `Bug report exported to: ${path}\nReport ID: ${id}`);
}

/** Runs `/bug` with `initialHint` (the command's argument) in the description field. */
export async function reportBug(app: CommandHost, initialHint?: string): Promise<void> {
  const options = await askOptions(app, initialHint);
  if (!options) return status(app, "Bug report cancelled");
  if (options.delivery === "upload" && Deno.env.get("PI_OFFLINE")) {
    return failure(app, "Uploading bug reports requires online mode. Use Export as Zip instead.");
  }
  let summary: string | undefined;
  const model = app.session.model;
  if (options.includeSummary && model) {
    const { loader, done } = spinner(app, `Writing summary with ${model.name ?? "the current model"}...`);
    try {
      summary = await generateBugReportSummary({
        model,
        modelRuntime: app.session.modelRuntime,
        messages: app.session.messages,
        hint: options.hint,
        sessionId: app.session.sessionManager.getSessionId(),
        thinkingLevel: app.session.thinkingLevel,
        signal: loader.signal,
      });
    } catch (error) {
      done();
      if (loader.signal.aborted) status(app, "Bug report cancelled");
      else failure(app, `Failed to write bug report summary: ${errorText(error)}`);
      return;
    }
    done();
    if (loader.signal.aborted) return status(app, "Bug report cancelled");
  }
  let bundle: BugReportBundle;
  try {
    bundle = buildBundle(app, options, summary);
  } catch (error) {
    return failure(app, `Failed to build bug report: ${errorText(error)}`);
  }
  if (options.delivery === "upload") {
    const why = await upload(app, bundle);
    if (why === undefined) return;
    const fallback = await choose(
      app,
      "Upload failed",
      ["Export as Zip", "Cancel"],
      `${why}\n\nExport the report as a zip archive instead?`,
    );
    if (fallback !== "Export as Zip") return status(app, "Bug report cancelled");
  }
  await exportZip(app, bundle);
}
