/**
 * `/tree` (and a double Escape on an empty editor) in the interactive mode, as pi 1.6.0 runs it:
 * the navigator opens in the editor's place; Enter on an entry asks "Summarize branch?" (No
 * summary / Summarize / Summarize with custom prompt, unless branchSummary.skipPrompt is set),
 * then moves the session's leaf there through the core's `navigateTree`, redraws the chat from the
 * new branch and, for a user message, puts its text back in the editor. Escape on the question
 * goes back to the navigator; Escape while the summary is written cancels it.
 *
 * @module
 */
import type { AgentSession } from "../../core/agent_session.ts";
import { extensionHostOf } from "../../core/extension_host.ts";
import { type Container, Spacer, type TUI } from "../../tui/mod.ts";
import { toBase64 } from "../../util/bytes.ts";
import type { AppEditor } from "./app_editor.ts";
import { WorkingIndicator } from "./app_editor.ts";
import { keyText } from "./app_keys.ts";
import type { ChatView } from "./chat_view.ts";
import { ExtensionEditorDialog, ExtensionSelector } from "./extension_dialogs.ts";
import type { Theme } from "./theme.ts";
import { TreeSelector } from "./tree_selector.ts";

/** What the tree command needs of the running interactive mode (InteractiveApp). */
export interface TreeHost {
  readonly session: AgentSession;
  readonly theme: Theme;
  readonly chat: ChatView;
  readonly ui: TUI;
  readonly editor: AppEditor;
  requestRender(): void;
  /** Shows `component` in the editor's place; the returned function puts the editor back. */
  showSelector(component: Container & { focused?: boolean }): () => void;
  /** Redraws the chat from the session's messages (after the leaf moved). */
  redrawChat(): void;
  /** Expands or collapses tool output (the tools key inside the question). */
  toggleToolsExpanded(): void;
}

/** The three answers to "Summarize branch?", in 1.6.0's words. */
const NO_SUMMARY = "No summary";
const SUMMARIZE = "Summarize";
const CUSTOM = "Summarize with custom prompt";

/** Opens the navigator; `selectId` is selected first (default: the current leaf). */
export function showTreeSelector(app: TreeHost, selectId?: string): void {
  const manager = app.session.sessionManager;
  const roots = manager.getTree();
  if (roots.length === 0) {
    status(app, "No entries in session");
    return;
  }
  let done = () => {};
  const selector = new TreeSelector(app.theme, roots, manager.getLeafId(), {
    terminalRows: app.ui.terminal.rows,
    filter: app.session.settingsManager.getTreeFilterMode(),
    selectId,
    home: Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE"),
    onSelect: (entryId) => {
      done();
      void navigate(app, entryId);
    },
    onCancel: () => done(),
    onLabelChange: (entryId, label) => {
      manager.appendLabelChange(entryId, label);
      app.requestRender();
    },
    onCopy: (text) => {
      if (!text) return error(app, "Selected entry has no text to copy");
      // OSC 52, as /copy: the terminal (and tmux, ssh) put it on the clipboard.
      app.ui.terminal.write(`\x1b]52;c;${toBase64(new TextEncoder().encode(text))}\x07`);
      status(app, "Copied selected message to clipboard");
    },
  });
  done = app.showSelector(selector);
}

function status(app: TreeHost, text: string): void {
  app.chat.addNotice("status", text);
  app.requestRender();
}

function error(app: TreeHost, text: string): void {
  app.chat.addNotice("error", text);
  app.requestRender();
}

/**
 * Shows the dialog `make` builds in the editor's place until it answers; the editor returns then.
 * `make` gets the function that answers (undefined: cancelled).
 */
function ask<T>(
  app: TreeHost,
  make: (finish: (answer: T | undefined) => void) => Container & { focused?: boolean },
): Promise<T | undefined> {
  return new Promise((resolve) => {
    let done = () => {};
    done = app.showSelector(make((answer) => {
      done();
      resolve(answer);
    }));
  });
}

/** "Summarize branch?" with its three answers. */
const chooseSummary = (app: TreeHost) =>
  ask<string>(app, (finish) =>
    new ExtensionSelector(
      app.theme,
      "Summarize branch?",
      [NO_SUMMARY, SUMMARIZE, CUSTOM],
      finish,
      () => finish(undefined),
      { onToggleToolsExpanded: () => app.toggleToolsExpanded() },
    ));

/** The custom summary instructions. */
const askInstructions = (app: TreeHost) =>
  ask<string>(app, (finish) =>
    new ExtensionEditorDialog(
      app.theme,
      app.ui,
      "Custom summarization instructions",
      undefined,
      finish,
      () => finish(undefined),
    ));

/** After Enter on `entryId`: the summary question, then the move. */
async function navigate(app: TreeHost, entryId: string): Promise<void> {
  const session = app.session;
  if (entryId === session.sessionManager.getLeafId()) return status(app, "Already at this point");
  let summarize = false;
  let customInstructions: string | undefined;
  if (!session.settingsManager.getBranchSummarySkipPrompt()) {
    for (;;) {
      const answer = await chooseSummary(app);
      // Escape: back to the navigator, on the same entry.
      if (answer === undefined) return showTreeSelector(app, entryId);
      summarize = answer !== NO_SUMMARY;
      if (answer === CUSTOM) {
        customInstructions = await askInstructions(app);
        if (customInstructions === undefined) continue;
      }
      break;
    }
  }
  // The user committed to moving: a running reply stops first, its queued messages to the editor.
  if (session.isStreaming) {
    const { steering, followUp } = session.clearQueue();
    const queued = [...steering, ...followUp];
    if (queued.length > 0) {
      app.editor.setText([queued.join("\n\n"), app.editor.getText()].filter((t) => t.trim()).join("\n\n"));
      app.chat.setQueued([], []);
    }
    await session.abort();
  }
  if (session.isCompacting) {
    return error(
      app,
      "Wait for the current compaction or tree navigation to finish before navigating the session tree.",
    );
  }
  const editor = app.editor;
  const previousEscape = editor.onEscape;
  let indicator: WorkingIndicator | undefined;
  if (summarize) {
    editor.onEscape = () => session.abortBranchSummary();
    // 1.6.0 leaves a blank row in the chat here (seen when the summary is cancelled).
    app.chat.chat.addChild(new Spacer(1));
    indicator = new WorkingIndicator(
      app.ui,
      (t) => app.theme.fg("accent", t),
      (t) => app.theme.fg("muted", t),
      `Summarizing branch... (${keyText("app.interrupt")} to cancel)`,
    );
    editor.setWorkingIndicator(indicator);
    app.requestRender();
  }
  try {
    // Extensions hear the move (session_before_tree may cancel it or supply the summary; session_tree).
    const hooks = extensionHostOf(session)?.treeHooks();
    const result = await session.navigateTree(entryId, { summarize, customInstructions, hooks });
    if (result.aborted) {
      status(app, "Branch summarization cancelled");
      return showTreeSelector(app, entryId);
    }
    if (result.cancelled) return status(app, "Navigation cancelled");
    app.redrawChat();
    if (result.editorText && !editor.getText().trim()) editor.setText(result.editorText);
    status(app, "Navigated to selected point");
  } catch (e) {
    error(app, e instanceof Error ? e.message : String(e));
  } finally {
    if (indicator) {
      indicator.stop();
      editor.setWorkingIndicator(undefined);
    }
    editor.onEscape = previousEscape;
    app.requestRender();
  }
}
