/**
 * Command-line argument parsing with the flags, short forms and quirks of pi 0.73.1 (CLI-02…08):
 * value flags only consume a following argument when there is one, `-p` may swallow the next
 * argument as a message, unknown `--long` flags are kept for extensions, unknown `-x` is an error.
 *
 * @module
 */
import type { ModelThinkingLevel } from "../ai/types.ts";

/** Output modes selectable with `--mode`. */
export type CliMode = "text" | "json" | "rpc";

/** A problem found while parsing or starting; errors stop the run with exit code 1. */
export interface CliDiagnostic {
  type: "error" | "warning" | "info";
  message: string;
}

/** Everything the command line asked for. */
export interface CliArgs {
  provider?: string;
  model?: string;
  apiKey?: string;
  systemPrompt?: string;
  appendSystemPrompt?: string[];
  thinking?: ModelThinkingLevel;
  continue?: boolean;
  resume?: boolean;
  help?: boolean;
  version?: boolean;
  mode?: CliMode;
  /** `--json-deltas`: with `--mode json`, write `message_update` records without the cumulative message. */
  jsonDeltas?: boolean;
  noSession?: boolean;
  session?: string;
  fork?: string;
  sessionDir?: string;
  models?: string[];
  tools?: string[];
  noTools?: boolean;
  noBuiltinTools?: boolean;
  extensions?: string[];
  noExtensions?: boolean;
  print?: boolean;
  export?: string;
  noSkills?: boolean;
  skills?: string[];
  promptTemplates?: string[];
  noPromptTemplates?: boolean;
  themes?: string[];
  noThemes?: boolean;
  noContextFiles?: boolean;
  /** `true` without a search pattern, the pattern otherwise. */
  listModels?: string | true;
  verbose?: boolean;
  offline?: boolean;
  /** Positional messages, in order (the first becomes part of the initial message). */
  messages: string[];
  /** `@file` arguments without the `@`. */
  fileArgs: string[];
  /** Unknown `--name[=value]` flags, for extension-registered flags. */
  unknownFlags: Map<string, boolean | string>;
  diagnostics: CliDiagnostic[];
}

/** Thinking levels accepted by `--thinking`, in the order the warning lists them. */
export const VALID_THINKING_LEVELS: readonly ModelThinkingLevel[] = [
  "off",
  "minimal",
  "low",
  "medium",
  "high",
  "xhigh",
];

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
  "--no-skills": "noSkills",
  "-ns": "noSkills",
  "--no-prompt-templates": "noPromptTemplates",
  "-np": "noPromptTemplates",
  "--no-themes": "noThemes",
  "--no-context-files": "noContextFiles",
  "-nc": "noContextFiles",
  "--verbose": "verbose",
  "--offline": "offline",
  // Ours only (not in pi 0.73.1): the delta-only JSON stream of later pi releases.
  "--json-deltas": "jsonDeltas",
};

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
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const bool = Object.hasOwn(BOOLEAN_FLAGS, arg) ? BOOLEAN_FLAGS[arg] : undefined;
    if (bool) {
      result[bool] = true;
    } else if (Object.hasOwn(STRING_FLAGS, arg) && hasNext(i)) {
      (result as unknown as Record<string, unknown>)[STRING_FLAGS[arg]] = args[++i];
    } else if (Object.hasOwn(REPEATABLE_FLAGS, arg) && hasNext(i)) {
      const key = REPEATABLE_FLAGS[arg];
      (result[key] ??= []).push(args[++i]);
    } else if (arg === "--mode" && hasNext(i)) {
      // Unknown modes are dropped silently, as in the reference.
      const mode = args[++i];
      if (mode === "text" || mode === "json" || mode === "rpc") result.mode = mode;
    } else if (arg === "--models" && hasNext(i)) {
      result.models = args[++i].split(",").map((s) => s.trim());
    } else if ((arg === "--tools" || arg === "-t") && hasNext(i)) {
      result.tools = args[++i].split(",").map((s) => s.trim()).filter((name) => name.length > 0);
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
