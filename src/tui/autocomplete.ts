/**
 * Autocomplete for the Editor: the provider interface and pi's CombinedAutocompleteProvider, which
 * completes slash commands (names fuzzily, arguments through the command), `@` file attachments
 * (fuzzy, through `fd`) and plain paths (the directory listing).
 *
 * @module
 */
import { basename, dirname, join } from "../util/path.ts";
import { homeDir } from "../util/os.ts";
import { isDirectorySync, readDirSorted } from "../util/fs.ts";
import {
  buildCompletionValue,
  extractQuotedPrefix,
  findLastDelimiter,
  parsePathPrefix,
  scoreEntry,
  stripLeadingWrappers,
  toDisplayPath,
  tokenStartRegex,
  walkDirectoryWithFd,
} from "./autocomplete_paths.ts";
import { fuzzyFilter } from "./fuzzy.ts";

/** One completion: the value inserted, the label shown, an optional description. */
export interface AutocompleteItem {
  /** Inserted in place of the prefix. */
  value: string;
  /** Shown in the popup. */
  label: string;
  /** Shown beside the label. */
  description?: string;
}

type Awaitable<T> = T | Promise<T>;

/** A slash command offered by name, with optional completions of its argument. */
export interface SlashCommand {
  /** The command's name, typed after "/". */
  name: string;
  /** Shown beside the name. */
  description?: string;
  /** Shown before the description, e.g. "<file>". */
  argumentHint?: string;
  /** Completions of the argument typed so far after "/name ". */
  getArgumentCompletions?(argumentPrefix: string): Awaitable<AutocompleteItem[] | null>;
}

/** Completions for the text before the cursor and the prefix of it they replace. */
export interface AutocompleteSuggestions {
  /** The choices, best first. */
  items: AutocompleteItem[];
  /** The text before the cursor that a chosen item replaces. */
  prefix: string;
}

/** A source of completions for the Editor. */
export interface AutocompleteProvider {
  /** Characters that should naturally trigger this provider at token boundaries. */
  triggerCharacters?: string[];
  /** Completions for the text before the cursor; `force` is a Tab asking for file completion. */
  getSuggestions(
    lines: string[],
    cursorLine: number,
    cursorCol: number,
    options: { signal: AbortSignal; force?: boolean },
  ): Promise<AutocompleteSuggestions | null>;
  /** The lines and cursor after `item` replaces `prefix` before the cursor. */
  applyCompletion(
    lines: string[],
    cursorLine: number,
    cursorCol: number,
    item: AutocompleteItem,
    prefix: string,
  ): { lines: string[]; cursorLine: number; cursorCol: number };
  /** Whether Tab should ask for file completion here. */
  shouldTriggerFileCompletion?(lines: string[], cursorLine: number, cursorCol: number): boolean;
}

/** Home-relative paths ("~", "~/x") made absolute. */
function expandHomePath(path: string): string {
  if (path.startsWith("~/")) {
    const expanded = join(homeDir(), path.slice(2));
    return path.endsWith("/") && !expanded.endsWith("/") ? `${expanded}/` : expanded;
  }
  return path === "~" ? homeDir() : path;
}

/** Sorts by fewer path segments, then shorter, then by name (ties after the score). */
function byDepthThenName(a: { path: string }, b: { path: string }): number {
  const depth = (p: string) => toDisplayPath(p).split("/").filter(Boolean).length;
  return depth(a.path) - depth(b.path) || a.path.length - b.path.length || a.path.localeCompare(b.path);
}

/** Combined provider that handles both slash commands and file paths. */
export class CombinedAutocompleteProvider implements AutocompleteProvider {
  #commands: (SlashCommand | AutocompleteItem)[];
  #basePath: string;
  #fdPath: string | null;

  /**
   * A provider of slash commands and of paths under `basePath`.
   *
   * @param commands slash commands (or plain items) offered after "/"
   * @param basePath the directory paths are completed in
   * @param fdPath the `fd` binary for `@` fuzzy file search; without it `@` offers nothing
   */
  constructor(
    commands: (SlashCommand | AutocompleteItem)[] = [],
    basePath: string,
    fdPath: string | null = null,
  ) {
    this.#commands = commands;
    this.#basePath = basePath;
    this.#fdPath = fdPath;
  }

  /** Suggestions for the text before the cursor: an `@` path, a slash command, or a path. */
  async getSuggestions(
    lines: string[],
    cursorLine: number,
    cursorCol: number,
    options: { signal: AbortSignal; force?: boolean },
  ): Promise<AutocompleteSuggestions | null> {
    const before = (lines[cursorLine] || "").slice(0, cursorCol);
    const atPrefix = this.#extractAtPrefix(before);
    if (atPrefix) {
      const { rawPrefix, isQuotedPrefix } = parsePathPrefix(atPrefix);
      const items = await this.#fuzzyFileSuggestions(rawPrefix, isQuotedPrefix, options.signal);
      return items.length === 0 ? null : { items, prefix: atPrefix };
    }
    const commandText = before.trimStart();
    if (!options.force && commandText.startsWith("/")) {
      const space = commandText.indexOf(" ");
      if (space === -1) return this.#commandSuggestions(commandText);
      const name = commandText.slice(1, space);
      const argument = commandText.slice(space + 1);
      const command = this.#commands.find((c) => ("name" in c ? c.name : c.value) === name);
      if (!command || !("getArgumentCompletions" in command) || !command.getArgumentCompletions) return null;
      const items = await command.getArgumentCompletions(argument);
      return !Array.isArray(items) || items.length === 0 ? null : { items, prefix: argument };
    }
    const pathPrefix = this.#extractPathPrefix(before, options.force ?? false);
    if (pathPrefix === null) return null;
    const items = this.#fileSuggestions(pathPrefix);
    return items.length === 0 ? null : { items, prefix: pathPrefix };
  }

  /** Command names matching "/prefix" fuzzily; `skill:` commands also match by their bare name. */
  #commandSuggestions(commandText: string): AutocompleteSuggestions | null {
    const query = commandText.slice(1);
    const items = this.#commands.map((c) => {
      const name = "name" in c ? c.name : c.value;
      const hint = "argumentHint" in c && c.argumentHint ? c.argumentHint : undefined;
      const desc = c.description ?? "";
      const full = hint ? (desc ? `${hint} — ${desc}` : hint) : desc;
      return { name, label: name, description: full || undefined };
    });
    const bare = fuzzyFilter(
      items,
      query,
      (i) => i.name.startsWith("skill:") ? i.name.slice("skill:".length) : i.name,
    );
    const bareSet = new Set(bare);
    const fullOnly = fuzzyFilter(
      items.filter((i) => i.name.startsWith("skill:") && !bareSet.has(i)),
      query,
      (i) => i.name,
    );
    const filtered = [...bare, ...fullOnly].map((i) => ({
      value: i.name,
      label: i.label,
      ...(i.description ? { description: i.description } : {}),
    }));
    return filtered.length === 0 ? null : { items: filtered, prefix: commandText };
  }

  /** Replaces the prefix before the cursor with the item (a command gets "/" and a space; a file a space). */
  applyCompletion(
    lines: string[],
    cursorLine: number,
    cursorCol: number,
    item: AutocompleteItem,
    prefix: string,
  ): { lines: string[]; cursorLine: number; cursorCol: number } {
    const line = lines[cursorLine] || "";
    const beforePrefix = line.slice(0, cursorCol - prefix.length);
    let after = line.slice(cursorCol);
    // A quoted completion brings its own closing quote: drop the one already after the cursor.
    if (
      (prefix.startsWith('"') || prefix.startsWith('@"')) && item.value.endsWith('"') && after.startsWith('"')
    ) {
      after = after.slice(1);
    }
    const replaced = (text: string, col: number) => {
      const next = [...lines];
      next[cursorLine] = text;
      return { lines: next, cursorLine, cursorCol: col };
    };
    if (prefix.startsWith("/") && beforePrefix.trim() === "" && !prefix.slice(1).includes("/")) {
      return replaced(`${beforePrefix}/${item.value} ${after}`, beforePrefix.length + item.value.length + 2);
    }
    const isDirectory = item.label.endsWith("/");
    // In a quoted directory the cursor stays before the closing quote, to go on completing.
    const offset = isDirectory && item.value.endsWith('"') ? item.value.length - 1 : item.value.length;
    if (prefix.startsWith("@")) {
      const suffix = isDirectory ? "" : " ";
      return replaced(
        `${beforePrefix + item.value}${suffix}${after}`,
        beforePrefix.length + offset + suffix.length,
      );
    }
    return replaced(beforePrefix + item.value + after, beforePrefix.length + offset);
  }

  #extractAtPrefix(text: string): string | null {
    const quoted = extractQuotedPrefix(text);
    if (quoted?.startsWith('@"')) return quoted;
    const last = findLastDelimiter(text);
    const token = stripLeadingWrappers(last === -1 ? text : text.slice(last + 1));
    return token.startsWith("@") ? token : null;
  }

  /**
   * The path-like token before the cursor. Tab (force) takes any token; typing only one that looks
   * like a path, or an empty one after whitespace.
   */
  #extractPathPrefix(text: string, force: boolean): string | null {
    const quoted = extractQuotedPrefix(text);
    if (quoted) return quoted;
    const last = findLastDelimiter(text);
    const prefix = stripLeadingWrappers(last === -1 ? text : text.slice(last + 1));
    if (force || prefix.includes("/") || prefix.startsWith(".") || prefix.startsWith("~/")) return prefix;
    return prefix === "" && text !== "" && tokenStartRegex().test(text) ? prefix : null;
  }

  /** For "dir/que": the existing directory to search in, the query in it, and the shown base. */
  #scopedQuery(raw: string): { baseDir: string; query: string; displayBase: string } | null {
    const normalized = toDisplayPath(raw);
    const slash = normalized.lastIndexOf("/");
    if (slash === -1) return null;
    const displayBase = normalized.slice(0, slash + 1);
    const baseDir = displayBase.startsWith("~/")
      ? expandHomePath(displayBase)
      : displayBase.startsWith("/")
      ? displayBase
      : join(this.#basePath, displayBase);
    if (!isDirectorySync(baseDir)) return null;
    return { baseDir, query: normalized.slice(slash + 1), displayBase };
  }

  /** Entries of the directory a path prefix names, directories first. */
  #fileSuggestions(prefix: string): AutocompleteItem[] {
    try {
      const { rawPrefix, isAtPrefix, isQuotedPrefix } = parsePathPrefix(prefix);
      const expanded = rawPrefix.startsWith("~") ? expandHomePath(rawPrefix) : rawPrefix;
      const absolute = rawPrefix.startsWith("~") || expanded.startsWith("/");
      const listWhole = ["", "./", "../", "~", "~/", "/"].includes(rawPrefix) || rawPrefix.endsWith("/");
      const dirPart = listWhole ? expanded : dirname(expanded);
      const searchDir = absolute ? dirPart : join(this.#basePath, dirPart);
      const searchPrefix = listWhole ? "" : basename(expanded).toLowerCase();
      const items: AutocompleteItem[] = [];
      for (const entry of readDirSorted(searchDir)) {
        if (!entry.name.toLowerCase().startsWith(searchPrefix)) continue;
        // A link to a directory counts as one; a broken link as a file.
        const isDirectory = entry.isDirectory ||
          (entry.isSymlink && isDirectorySync(join(searchDir, entry.name)));
        const path = toDisplayPath(this.#displayPathFor(rawPrefix, entry.name));
        items.push({
          value: buildCompletionValue(isDirectory ? `${path}/` : path, { isAtPrefix, isQuotedPrefix }),
          label: entry.name + (isDirectory ? "/" : ""),
        });
      }
      items.sort((a, b) => {
        const aDir = a.label.endsWith("/");
        const bDir = b.label.endsWith("/");
        if (aDir !== bDir) return aDir ? -1 : 1;
        return a.label.localeCompare(b.label);
      });
      return items;
    } catch {
      return []; // no such directory, or not readable
    }
  }

  /** How an entry is written back, in the same form as the prefix (relative, ./, ~/ or absolute). */
  #displayPathFor(prefix: string, name: string): string {
    if (prefix.endsWith("/")) return prefix + name;
    if (prefix.includes("/") || prefix.includes("\\")) {
      if (prefix.startsWith("~/")) {
        const dir = dirname(prefix.slice(2));
        return `~/${dir === "." ? name : join(dir, name)}`;
      }
      if (prefix.startsWith("/")) {
        const dir = dirname(prefix);
        return dir === "/" ? `/${name}` : `${dir}/${name}`;
      }
      const joined = join(dirname(prefix), name);
      // join drops a leading "./"; keep it as typed.
      return prefix.startsWith("./") && !joined.startsWith("./") ? `./${joined}` : joined;
    }
    return prefix.startsWith("~") ? `~/${name}` : name;
  }

  /** `@` completion: fd matches in the base directory first, then deeper ones, best 20 by score. */
  async #fuzzyFileSuggestions(
    query: string,
    isQuotedPrefix: boolean,
    signal: AbortSignal,
  ): Promise<AutocompleteItem[]> {
    const fdPath = this.#fdPath;
    if (!fdPath || signal.aborted) return [];
    try {
      const scoped = this.#scopedQuery(query);
      const baseDir = scoped?.baseDir ?? this.#basePath;
      const fdQuery = scoped?.query ?? query;
      const top = await walkDirectoryWithFd(baseDir, fdPath, fdQuery, 100, signal, 1);
      const deep = signal.aborted ? [] : await walkDirectoryWithFd(baseDir, fdPath, fdQuery, 100, signal);
      const seen = new Set(top.map((e) => e.path));
      const entries = [...top, ...deep.filter((e) => !seen.has(e.path) && seen.add(e.path))];
      if (signal.aborted) return [];
      const scored = entries
        .map((e) => ({
          ...e,
          score: fdQuery ? scoreEntry(e.path, basename(e.path), fdQuery, e.isDirectory) : 1,
        }))
        .filter((e) => e.score > 0)
        .sort((a, b) => b.score - a.score || byDepthThenName(a, b));
      return scored.slice(0, 20).map(({ path, isDirectory }) => {
        const bare = isDirectory ? path.slice(0, -1) : path;
        const display = scoped ? this.#scopedDisplay(scoped.displayBase, bare) : bare;
        return {
          value: buildCompletionValue(isDirectory ? `${display}/` : display, {
            isAtPrefix: true,
            isQuotedPrefix,
          }),
          label: basename(bare) + (isDirectory ? "/" : ""),
          description: display,
        };
      });
    } catch {
      return [];
    }
  }

  #scopedDisplay(displayBase: string, relative: string): string {
    const path = toDisplayPath(relative);
    return displayBase === "/" ? `/${path}` : `${toDisplayPath(displayBase)}${path}`;
  }

  /** Tab completes files except while a slash command's name is being typed. */
  shouldTriggerFileCompletion(lines: string[], cursorLine: number, cursorCol: number): boolean {
    const before = (lines[cursorLine] || "").slice(0, cursorCol).trim();
    return !(before.startsWith("/") && !before.includes(" "));
  }
}
