/**
 * The built-in slash commands of pi 1.6.0's interactive mode, in its order and words, and which
 * of them this build runs. The others answer with a "not available yet" notice that names the
 * part of issue 11 (or a later issue) that brings them.
 *
 * @module
 */
import type { SlashCommand } from "../../tui/mod.ts";

/** A built-in command as the autocomplete list shows it. */
export interface BuiltinSlashCommand {
  name: string;
  description: string;
  argumentHint?: string;
}

/** 1.6.0's commands (core/slash-commands), then the two its bundled extensions add. */
export const BUILTIN_SLASH_COMMANDS: readonly BuiltinSlashCommand[] = [
  { name: "settings", description: "Open settings menu" },
  { name: "model", description: "Select model (opens selector UI)", argumentHint: "<provider/model>" },
  { name: "tree", description: "Navigate session tree (switch branches)" },
  { name: "thinking", description: "Set thinking level", argumentHint: "<level>" },
  { name: "scoped-models", description: "Enable/disable models for Ctrl+P cycling" },
  { name: "export", description: "Export session (HTML default, or specify path: .html/.jsonl)" },
  { name: "import", description: "Import a JSONL session, preserving its ID and working directory" },
  { name: "share", description: "Share session via a Radius artifact or a GitHub gist" },
  { name: "bug", description: "Report a bug to the Pi developers", argumentHint: "<description>" },
  { name: "copy", description: "Copy last agent message to clipboard" },
  { name: "name", description: "Set session display name" },
  { name: "session", description: "Show session info and stats" },
  { name: "changelog", description: "Show changelog entries" },
  { name: "hotkeys", description: "Show all keyboard shortcuts" },
  { name: "fork", description: "Create a new fork from a previous user message" },
  { name: "clone", description: "Duplicate the current session at the current position" },
  { name: "trust", description: "Save project trust decision for future sessions" },
  { name: "login", description: "Configure provider authentication", argumentHint: "<provider>" },
  { name: "logout", description: "Remove provider authentication" },
  { name: "new", description: "Start a new session" },
  { name: "compact", description: "Manually compact the session context" },
  { name: "resume", description: "Resume another session" },
  {
    name: "reload",
    description: "Reload keybindings, extensions, skills, prompts, themes, and context files",
  },
  { name: "quit", description: "Quit pi" },
  { name: "llama", description: "Manage llama.cpp router models" },
  {
    name: "mcp",
    description: "Manage MCP servers: sign in, reconnect, enable or disable, and change exposure",
  },
];

/** Commands this build runs. */
export const IMPLEMENTED_COMMANDS: ReadonlySet<string> = new Set([
  "login",
  "logout",
  "model",
  "tree",
  "thinking",
  "copy",
  "name",
  "session",
  "hotkeys",
  "new",
  "quit",
  "compact",
  "fork",
  "clone",
  "export",
  "share",
  "settings",
  "scoped-models",
  "changelog",
  "resume",
  "import",
  "trust",
  "reload",
  "bug",
  "mcp",
  "llama",
]);

/** What brings each command that is not implemented yet, for its notice. */
const LATER: Readonly<Record<string, string>> = {};

/** The notice for a command not available yet in this build. */
export function notAvailableNotice(name: string): string {
  const what = LATER[name];
  return what
    ? `/${name} is not available yet in this build (${what} comes later).`
    : `/${name} is not available yet in this build.`;
}

/** The built-in command an editor submission names (`/name` or `/name args`), if any. */
export function parseSlashCommand(text: string): { name: string; args: string } | undefined {
  const match = /^\/([a-z-]+)(?:\s+([\s\S]*))?$/.exec(text);
  if (!match) return undefined;
  if (!BUILTIN_SLASH_COMMANDS.some((c) => c.name === match[1])) return undefined;
  return { name: match[1], args: (match[2] ?? "").trim() };
}

/** The commands for the editor's autocomplete; `/model` and `/thinking` complete their argument. */
export function autocompleteCommands(
  completions: {
    model?: SlashCommand["getArgumentCompletions"];
    thinking?: SlashCommand["getArgumentCompletions"];
    login?: SlashCommand["getArgumentCompletions"];
  },
): SlashCommand[] {
  return BUILTIN_SLASH_COMMANDS.map((c) => ({
    name: c.name,
    description: c.description,
    ...(c.argumentHint ? { argumentHint: c.argumentHint } : {}),
    ...(c.name === "model" && completions.model ? { getArgumentCompletions: completions.model } : {}),
    ...(c.name === "thinking" && completions.thinking
      ? { getArgumentCompletions: completions.thinking }
      : {}),
    ...(c.name === "login" && completions.login ? { getArgumentCompletions: completions.login } : {}),
  }));
}
