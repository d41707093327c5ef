/**
 * Command-line argument parsing with the flags, short forms and quirks of pi 1.6.0 (CLI-02…08):
 * value flags only consume a following argument when there is one, `-p` may swallow the next
 * argument as a message, `--` ends the options, unknown `--long` flags are kept for extensions,
 * unknown `-x` is an error, and `--mode`, `--tui-mode`, `--name`, `--use-theme` and `--tools`
 * check their values.
 *
 * @module
 */
import type { ModelThinkingLevel } from "../ai/types.ts";
import { THINKING_LEVELS } from "../ai/thinking.ts";
import { toolListError } from "../util/tool_list.ts";
import { isSandboxProfile, SANDBOX_PROFILES } from "../config/sandbox_profile.ts";

/** Output modes selectable with `--mode`. */
export type CliMode = "text" | "json" | "rpc";

/** A problem found while parsing or starting; errors stop the run with exit code 1. */
export interface CliDiagnostic {
  /** How serious the problem is. */
  type: "error" | "warning" | "info";
  /** What was wrong with the arguments. */
  message: string;
}

/** Everything the command line asked for. */
export interface CliArgs {
  /** `--provider`: provider of the model. */
  provider?: string;
  /** `--model`: model id or pattern, optionally with a `:level` suffix. */
  model?: string;
  /** `--api-key`: API key for this run only. */
  apiKey?: string;
  /** `--system-prompt`: replaces the default system prompt (text or a file). */
  systemPrompt?: string;
  /** `--append-system-prompt`: added after the system prompt (text or files). */
  appendSystemPrompt?: string[];
  /** `--thinking`: thinking level. */
  thinking?: ModelThinkingLevel;
  /** `--continue/-c`: continue the most recent session. */
  continue?: boolean;
  /** `--resume/-r`: pick a session to resume. */
  resume?: boolean;
  /** `--name/-n`: the session's display name (checked for emptiness later). */
  name?: string;
  /** `--session-id`: open the project's session with this id, or create it. */
  sessionId?: string;
  /** `--help/-h`. */
  help?: boolean;
  /** `--version/-v`. */
  version?: boolean;
  /** `--mode`: text, json or rpc. */
  mode?: CliMode;
  /** `--json-deltas`: accepted and ignored (JSON mode is always delta-only now). */
  jsonDeltas?: boolean;
  /** `--no-session`: keep the session in memory only. */
  noSession?: boolean;
  /** `--session`: session file, or a prefix of a session id. */
  session?: string;
  /** `--fork`: start a new session forked from this one. */
  fork?: string;
  /** `--session-dir`: folder where sessions are stored. */
  sessionDir?: string;
  /** `--models`: model patterns offered when cycling. */
  models?: string[];
  /** `--tools/-t`: names or patterns of the tools to enable. */
  tools?: string[];
  /** `--exclude-tools/-xt`: names or `*` patterns of tools to disable. */
  excludeTools?: string[];
  /** `--no-tools`: no tools at all. */
  noTools?: boolean;
  /** `--no-builtin-tools`: no built-in tools, extension tools stay. */
  noBuiltinTools?: boolean;
  /** `--extension/-e`: extension files to load. */
  extensions?: string[];
  /** `--no-extensions`: load no extensions. */
  noExtensions?: boolean;
  /** `--no-mcp`: no MCP servers and no MCP tools. */
  noMcp?: boolean;
  /** `--print/-p`: answer once and exit. */
  print?: boolean;
  /** `--export`: export a session file to HTML. */
  export?: string;
  /** `--no-skills`: load no skills. */
  noSkills?: boolean;
  /** `--skill`: skill files or folders to load. */
  skills?: string[];
  /** `--prompt-template`: prompt template files or folders to load. */
  promptTemplates?: string[];
  /** `--no-prompt-templates`: load no prompt templates. */
  noPromptTemplates?: boolean;
  /** `--theme`: theme files to load. */
  themes?: string[];
  /** `--use-theme`: the interactive theme for this run. */
  useTheme?: string;
  /** `--no-themes`: load no themes. */
  noThemes?: boolean;
  /** `--no-context-files`: skip AGENTS.md and CLAUDE.md files. */
  noContextFiles?: boolean;
  /** `true` without a search pattern, the pattern otherwise. */
  listModels?: string | true;
  /** `--verbose`: more output at start-up. */
  verbose?: boolean;
  /** `--tui-mode`. */
  tuiMode?: "regular" | "fullscreen";
  /** `--approve/-a` (true) or `--no-approve/-na` (false): project trust for this run. */
  projectTrustOverride?: boolean;
  /** `--offline`: no network access at start-up. */
  offline?: boolean;
  /** `--sandbox`: the permission profile pi runs under (docs/security.md). */
  sandbox?: "read-only" | "project" | "full";
  /** Positional messages, in order (the first becomes part of the initial message). */
  messages: string[];
  /** `@file` arguments without the `@`. */
  fileArgs: string[];
  /** Unknown `--name[=value]` flags, for extension-registered flags. */
  unknownFlags: Map<string, boolean | string>;
  /** Problems found while parsing, in order. */
  diagnostics: CliDiagnostic[];
}

/** Thinking levels accepted by `--thinking`, in the order the warning lists them: all of them. */
export const VALID_THINKING_LEVELS: readonly ModelThinkingLevel[] = THINKING_LEVELS;

/** Whether `level` is accepted by `--thinking`. */
export function isValidThinkingLevel(level: string): level is ModelThinkingLevel {
  return (VALID_THINKING_LEVELS as readonly string[]).includes(level);
}

const STRING_FLAGS: Record<string, keyof CliArgs> = {
  "--provider": "provider",
  "--model": "model",
  "--api-key": "apiKey",
  "--system-prompt": "systemPrompt",
  "--session": "session",
  "--session-id": "sessionId",
  "--fork": "fork",
  "--session-dir": "sessionDir",
  "--export": "export",
};

const REPEATABLE_FLAGS: Record<
  string,
  "appendSystemPrompt" | "extensions" | "skills" | "promptTemplates" | "themes"
> = {
  "--append-system-prompt": "appendSystemPrompt",
  "--extension": "extensions",
  "-e": "extensions",
  "--skill": "skills",
  "--prompt-template": "promptTemplates",
  "--theme": "themes",
};

type BooleanKey =
  | "help"
  | "version"
  | "continue"
  | "resume"
  | "noSession"
  | "noTools"
  | "noBuiltinTools"
  | "noExtensions"
  | "noSkills"
  | "noPromptTemplates"
  | "noThemes"
  | "noContextFiles"
  | "verbose"
  | "offline"
  | "noMcp"
  | "jsonDeltas";

const BOOLEAN_FLAGS: Record<string, BooleanKey> = {
  "--help": "help",
  "-h": "help",
  "--version": "version",
  "-v": "version",
  "--continue": "continue",
  "-c": "continue",
  "--resume": "resume",
  "-r": "resume",
  "--no-session": "noSession",
  "--no-tools": "noTools",
  "-nt": "noTools",
  "--no-builtin-tools": "noBuiltinTools",
  "-nbt": "noBuiltinTools",
  "--no-extensions": "noExtensions",
  "-ne": "noExtensions",
  "--no-mcp": "noMcp",
  "--no-skills": "noSkills",
  "-ns": "noSkills",
  "--no-prompt-templates": "noPromptTemplates",
  "-np": "noPromptTemplates",
  "--no-themes": "noThemes",
  "--no-context-files": "noContextFiles",
  "-nc": "noContextFiles",
  "--verbose": "verbose",
  "--offline": "offline",
  // Ours only: accepted and ignored (JSON mode is delta-only as in pi 1.6.0), so scripts written
  // for earlier versions of this port keep working.
  "--json-deltas": "jsonDeltas",
};

/** Flags that take one of a few values: the error texts when the value is missing or unknown. */
const CHOICE_FLAGS: Record<"--mode" | "--tui-mode", { values: string[]; label: string; missing: string }> = {
  "--mode": { values: ["text", "json", "rpc"], label: "mode", missing: "--mode requires text, json, or rpc" },
  "--tui-mode": {
    values: ["regular", "fullscreen"],
    label: "TUI mode",
    missing: "--tui-mode requires regular or fullscreen",
  },
};

/** A comma-separated list without blanks. */
function splitList(value: string): string[] {
  return value.split(",").map((s) => s.trim()).filter((entry) => entry.length > 0);
}

/** A following argument that is neither a flag nor an `@file` (what optional values accept). */
function isPlainValue(next: string | undefined): next is string {
  return next !== undefined && !next.startsWith("-") && !next.startsWith("@");
}

/**
 * Parses pi's arguments. Never throws and never exits: problems are returned as diagnostics
 * (`Unknown option: -x` errors, invalid `--thinking` warnings) for the caller to report.
 */
export function parseArgs(args: readonly string[]): CliArgs {
  const result: CliArgs = { messages: [], fileArgs: [], unknownFlags: new Map(), diagnostics: [] };
  const hasNext = (i: number) => i + 1 < args.length;
  const error = (message: string) => result.diagnostics.push({ type: "error", message });
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const bool = Object.hasOwn(BOOLEAN_FLAGS, arg) ? BOOLEAN_FLAGS[arg] : undefined;
    if (arg === "--") {
      // Everything after `--` is a message or an @file, even when it starts with a dash.
      for (const rest of args.slice(i + 1)) {
        if (rest.startsWith("@")) result.fileArgs.push(rest.slice(1));
        else result.messages.push(rest);
      }
      break;
    } else if (bool) {
      result[bool] = true;
    } else if (Object.hasOwn(STRING_FLAGS, arg) && hasNext(i)) {
      (result as unknown as Record<string, unknown>)[STRING_FLAGS[arg]] = args[++i];
    } else if (Object.hasOwn(REPEATABLE_FLAGS, arg) && hasNext(i)) {
      const key = REPEATABLE_FLAGS[arg];
      (result[key] ??= []).push(args[++i]);
    } else if (arg === "--mode" || arg === "--tui-mode") {
      const choice = CHOICE_FLAGS[arg];
      const value = args[i + 1];
      if (value === undefined || value.startsWith("-")) {
        error(choice.missing);
        continue;
      }
      i++;
      if (!choice.values.includes(value)) {
        error(`Invalid ${choice.label} "${value}". Valid values: ${choice.values.join(", ")}`);
      } else if (arg === "--mode") result.mode = value as CliMode;
      else result.tuiMode = value as "regular" | "fullscreen";
    } else if (arg === "--name" || arg === "-n") {
      if (hasNext(i)) result.name = args[++i];
      else error("--name requires a value");
    } else if (arg === "--use-theme") {
      const name = args[i + 1];
      if (name === undefined || name.startsWith("-")) error("--use-theme requires a theme name");
      else result.useTheme = args[++i];
    } else if (arg === "--sandbox") {
      const value = args[i + 1];
      if (value === undefined || value.startsWith("-")) {
        error(`--sandbox requires ${SANDBOX_PROFILES.join(", ")}`);
      } else if (!isSandboxProfile(args[++i])) {
        error(`Invalid sandbox profile "${value}". Valid values: ${SANDBOX_PROFILES.join(", ")}`);
      } else result.sandbox = value as CliArgs["sandbox"];
    } else if (arg === "--approve" || arg === "-a") {
      result.projectTrustOverride = true;
    } else if (arg === "--no-approve" || arg === "-na") {
      result.projectTrustOverride = false;
    } else if (arg === "--models" && hasNext(i)) {
      result.models = splitList(args[++i]);
    } else if ((arg === "--tools" || arg === "-t") && hasNext(i)) {
      const tools = splitList(args[++i]);
      const problem = toolListError(tools);
      if (problem) error(`${arg}: ${problem}`);
      else result.tools = tools;
    } else if ((arg === "--exclude-tools" || arg === "-xt") && hasNext(i)) {
      result.excludeTools = splitList(args[++i]);
    } else if (arg === "--thinking" && hasNext(i)) {
      const level = args[++i];
      if (isValidThinkingLevel(level)) {
        result.thinking = level;
      } else {
        result.diagnostics.push({
          type: "warning",
          message: `Invalid thinking level "${level}". Valid values: ${VALID_THINKING_LEVELS.join(", ")}`,
        });
      }
    } else if (arg === "--print" || arg === "-p") {
      result.print = true;
      // A following "---" line is YAML front matter text, not a flag.
      const next = args[i + 1];
      if (next !== undefined && !next.startsWith("@") && (!next.startsWith("-") || next.startsWith("---"))) {
        result.messages.push(next);
        i++;
      }
    } else if (arg === "--list-models") {
      result.listModels = isPlainValue(args[i + 1]) ? args[++i] : true;
    } else if (arg.startsWith("@")) {
      result.fileArgs.push(arg.slice(1));
    } else if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      if (eq !== -1) {
        result.unknownFlags.set(arg.slice(2, eq), arg.slice(eq + 1));
      } else if (isPlainValue(args[i + 1])) {
        result.unknownFlags.set(arg.slice(2), args[++i]);
      } else {
        result.unknownFlags.set(arg.slice(2), true);
      }
    } else if (arg.startsWith("-")) {
      result.diagnostics.push({ type: "error", message: `Unknown option: ${arg}` });
    } else {
      result.messages.push(arg);
    }
  }
  return result;
}
