/**
 * The Editor's autocomplete: when typing opens the popup (slash commands at the message start,
 * trigger characters such as `@` at a token start), requests to the provider (debounced for `@`
 * paths, stale answers dropped), the SelectList popup, and applying a chosen item.
 *
 * @module
 */
import type { AutocompleteItem, AutocompleteProvider, AutocompleteSuggestions } from "../autocomplete.ts";
import type { KeybindingsManager } from "../keybindings.ts";
import { autocompleteBoundaryRegex, autocompleteSeparatorRegex, isCjkBreak } from "../utils_chars.ts";
import { isWhitespaceChar } from "../utils_text.ts";
import type { EditorModel } from "./editor_model.ts";
import { SelectList, type SelectListLayoutOptions, type SelectListTheme } from "./select_list.ts";

/** Keys an open popup takes for moving its selection. */
const POPUP_NAVIGATION = [
  "tui.select.up",
  "tui.select.down",
  "tui.select.pageUp",
  "tui.select.pageDown",
] as const;
/** Slash-command menus get a primary column wide enough for command names. */
const SLASH_COMMAND_LAYOUT: SelectListLayoutOptions = {
  minPrimaryColumnWidth: 12,
  maxPrimaryColumnWidth: 32,
};
/** Typing an `@` path waits this long so a burst of keys costs one file search. */
const ATTACHMENT_DEBOUNCE_MS = 20;
const DEFAULT_TRIGGER_CHARACTERS = ["@", "#"];

// An unquoted completion runs to whitespace or CJK punctuation; a quoted path may hold either.
const unquotedSuffix = () => `(?:(?!${autocompleteSeparatorRegex().source}).)*`;
// A trigger may be wrapped in prose: "(@src/foo" or "`@src/foo".
const tokenStart = () => `${autocompleteBoundaryRegex().source}[([{<\`]*`;

function escapeClass(value: string): string {
  return value.replace(/[\\^$.*+?()[\]{}|-]/g, "\\$&");
}

/** Text before the cursor that ends in a trigger token (`@"quoted`, or a trigger char and a word). */
function triggerPattern(chars: readonly string[]): RegExp {
  return new RegExp(
    `${tokenStart()}(?:@"[^"]*|[${chars.map(escapeClass).join("")}]${unquotedSuffix()})$`,
    "u",
  );
}

/** The trigger tokens whose requests are debounced: `@` paths and provider-added triggers. */
function debouncePattern(chars: readonly string[]): RegExp {
  const others = chars.filter((c) => c !== "@").map(escapeClass).join("");
  const suffix = unquotedSuffix();
  return new RegExp(`${tokenStart()}(?:@(?:"[^"]*|${suffix})|[${others}]${suffix})$`, "u");
}

/** How a request was asked for: Tab (explicit), and whether file completion is forced. */
export interface RequestOptions {
  /** File completion asked for by Tab (the provider's `force`). */
  force: boolean;
  /** Asked for by Tab rather than by typing (never debounced). */
  explicitTab: boolean;
}

/** What the autocomplete needs from its Editor. */
export interface AutocompleteHost {
  /** The text and cursor completions read and change. */
  readonly model: EditorModel;
  /** The popup's colours. */
  selectListTheme(): SelectListTheme;
  /** How many popup items show. */
  maxVisible(): number;
  /** Asks for a frame (an answer arrived). */
  requestRender(): void;
}

/** Autocomplete state and requests of one Editor (see the module comment). */
export class EditorAutocomplete {
  /** Where completions come from. */
  provider?: AutocompleteProvider;
  /** The open popup. */
  list?: SelectList;
  /** null while closed; "force" when opened by Tab file completion (updates keep forcing). */
  state: "regular" | "force" | null = null;
  /** The text before the cursor the open popup's items replace. */
  prefix = "";
  /** Characters that open the popup at a token start (`@`, `#` and the provider's). */
  triggerCharacters: string[] = [...DEFAULT_TRIGGER_CHARACTERS];
  /** Text before the cursor that ends in a trigger token. */
  triggerPattern: RegExp = triggerPattern(this.triggerCharacters);
  #debouncePattern = debouncePattern(this.triggerCharacters);
  #abort?: AbortController;
  #debounceTimer?: ReturnType<typeof setTimeout>;
  #task: Promise<void> = Promise.resolve();
  #startToken = 0;
  #requestId = 0;

  /** Autocomplete for the Editor that `host` stands for. */
  constructor(private readonly host: AutocompleteHost) {}

  /** Installs a provider (closing any open popup) and its extra trigger characters. */
  setProvider(provider: AutocompleteProvider): void {
    this.cancel();
    this.provider = provider;
    const chars = [...DEFAULT_TRIGGER_CHARACTERS];
    for (const c of provider.triggerCharacters ?? []) {
      if (c.length === 1 && c !== "/" && !isWhitespaceChar(c) && !chars.includes(c)) chars.push(c);
    }
    this.triggerCharacters = chars;
    this.triggerPattern = triggerPattern(chars);
    this.#debouncePattern = debouncePattern(chars);
  }

  /** Slash commands open only on the first line. */
  #slashAllowed(): boolean {
    return this.host.model.state.cursorLine === 0;
  }

  /** Whether only blanks, or a lone "/", stand before the cursor on the first line. */
  isAtStartOfMessage(): boolean {
    if (!this.#slashAllowed()) return false;
    const before = this.host.model.textBeforeCursor().trim();
    return before === "" || before === "/";
  }

  /** Inside a slash command (its name or its arguments). */
  isInSlashCommandContext(before: string): boolean {
    return this.#slashAllowed() && before.trimStart().startsWith("/");
  }

  /** Typing a slash command's name: "/mo", not "/model cla" or "/open /tm". */
  isInSlashCommandNameContext(before: string): boolean {
    return this.isInSlashCommandContext(before) && !before.trimStart().includes(" ");
  }

  /** After a character was typed: opens the popup where that character starts or continues a completion. */
  afterTyping(char: string): void {
    if (this.state) {
      this.update();
      return;
    }
    const before = this.host.model.textBeforeCursor();
    if (char === "/" && this.isAtStartOfMessage()) {
      this.request({ force: false, explicitTab: false });
    } else if (this.triggerCharacters.includes(char)) {
      if (this.triggerPattern.test(before)) this.request({ force: false, explicitTab: false });
    } else if (/[a-zA-Z0-9.\-_]/.test(char) || isCjkBreak(char)) {
      this.retrigger(before);
    }
  }

  /** After a delete: refreshes an open popup, or reopens one in a completable context. */
  afterDelete(): void {
    if (this.state) this.update();
    else this.retrigger(this.host.model.textBeforeCursor());
  }

  /** Opens the popup when `before` (the text before the cursor) is in a slash command or trigger token. */
  retrigger(before: string): void {
    if (this.isInSlashCommandContext(before) || this.triggerPattern.test(before)) {
      this.request({ force: false, explicitTab: false });
    }
  }

  /** Tab with no popup open: slash-command names, else a forced file completion. */
  tab(): void {
    if (!this.provider) return;
    const before = this.host.model.textBeforeCursor();
    this.request({ force: !this.isInSlashCommandNameContext(before), explicitTab: true });
  }

  /** Re-queries an open popup for the text as it is now. */
  update(): void {
    if (!this.state || !this.provider) return;
    this.request({ force: this.state === "force", explicitTab: false });
  }

  /** Asks the provider for suggestions now (or after the `@` debounce), superseding any earlier request. */
  request(options: RequestOptions): void {
    const provider = this.provider;
    if (!provider) return;
    const m = this.host.model;
    if (
      options.force && provider.shouldTriggerFileCompletion &&
      !provider.shouldTriggerFileCompletion(m.state.lines, m.state.cursorLine, m.state.cursorCol)
    ) return;
    this.cancelRequest();
    const token = ++this.#startToken;
    const debounce = options.explicitTab || options.force
      ? 0
      : this.#debouncePattern.test(m.textBeforeCursor())
      ? ATTACHMENT_DEBOUNCE_MS
      : 0;
    if (debounce > 0) {
      this.#debounceTimer = setTimeout(() => {
        this.#debounceTimer = undefined;
        void this.#start(token, options);
      }, debounce);
      return;
    }
    void this.#start(token, options);
  }

  async #start(token: number, options: RequestOptions): Promise<void> {
    const previous = this.#task;
    this.#task = (async () => {
      // Requests run one after another; one superseded while waiting never starts.
      await previous;
      if (token !== this.#startToken || !this.provider) return;
      const controller = new AbortController();
      this.#abort = controller;
      const id = ++this.#requestId;
      const m = this.host.model;
      const snapshot = { text: m.text(), line: m.state.cursorLine, col: m.state.cursorCol };
      await this.#run(id, controller, snapshot, options);
    })();
    await this.#task;
  }

  async #run(
    id: number,
    controller: AbortController,
    snapshot: { text: string; line: number; col: number },
    options: RequestOptions,
  ): Promise<void> {
    const provider = this.provider;
    if (!provider) return;
    const m = this.host.model;
    const suggestions = await provider.getSuggestions(m.state.lines, m.state.cursorLine, m.state.cursorCol, {
      signal: controller.signal,
      force: options.force,
    });
    // An answer for text or a cursor that has moved on since is dropped.
    const current = !controller.signal.aborted && id === this.#requestId && m.text() === snapshot.text &&
      m.state.cursorLine === snapshot.line && m.state.cursorCol === snapshot.col;
    if (!current) return;
    this.#abort = undefined;
    if (!suggestions || !Array.isArray(suggestions.items) || suggestions.items.length === 0) {
      this.cancel();
      this.host.requestRender();
      return;
    }
    if (options.force && options.explicitTab && suggestions.items.length === 1) {
      // Tab with a single match completes it without a popup.
      this.apply(suggestions.items[0], suggestions.prefix);
      this.host.requestRender();
      return;
    }
    this.#show(suggestions, options.force ? "force" : "regular");
    this.host.requestRender();
  }

  #show(suggestions: AutocompleteSuggestions, state: "regular" | "force"): void {
    this.prefix = suggestions.prefix;
    const layout = suggestions.prefix.startsWith("/") ? SLASH_COMMAND_LAYOUT : undefined;
    const list = new SelectList(
      suggestions.items,
      this.host.maxVisible(),
      this.host.selectListTheme(),
      layout,
    );
    list.onSelect = (selected) => {
      if (!this.apply(selected, this.prefix, false)) return;
      this.cancel();
      this.host.model.notifyChange();
    };
    this.list = list;
    const best = bestMatchIndex(suggestions.items, suggestions.prefix);
    if (best >= 0) list.setSelectedIndex(best);
    this.state = state;
  }

  /**
   * Applies an item through the provider (an undoable step) and reports the change. Returns false
   * when there is no provider.
   */
  apply(item: AutocompleteItem, prefix: string, notify = true): boolean {
    const provider = this.provider;
    if (!provider) return false;
    const m = this.host.model;
    m.pushUndoSnapshot();
    m.lastAction = null;
    const result = provider.applyCompletion(
      m.state.lines,
      m.state.cursorLine,
      m.state.cursorCol,
      item,
      prefix,
    );
    m.state.lines = result.lines;
    m.state.cursorLine = result.cursorLine;
    m.setCursorCol(result.cursorCol);
    if (notify) m.notifyChange();
    return true;
  }

  /**
   * Keys while the popup is open: Escape closes it, arrows and page keys move in it, Tab completes,
   * Enter completes (and on a command name falls through to submit). Returns whether the key was used up.
   */
  handleKey(data: string, kb: KeybindingsManager): boolean {
    const list = this.list;
    if (!this.state || !list) return false;
    if (kb.matches(data, "tui.select.cancel")) {
      this.cancel();
      return true;
    }
    if (POPUP_NAVIGATION.some((id) => kb.matches(data, id))) {
      list.handleInput(data);
      return true;
    }
    if (kb.matches(data, "tui.input.tab")) {
      const selected = list.getSelectedItem();
      if (selected && this.apply(selected, this.prefix, false)) {
        this.cancel();
        this.host.model.notifyChange();
      }
      return true;
    }
    if (!kb.matches(data, "tui.select.confirm")) return false;
    const selected = list.getSelectedItem();
    if (!selected || !this.provider) return false;
    // Enter runs a slash command only from the command-name menu ("/mo"), judged before the
    // completion adds its space; path and argument menus just complete.
    const submits = this.prefix.startsWith("/") &&
      this.isInSlashCommandNameContext(this.host.model.textBeforeCursor());
    this.apply(selected, this.prefix, false);
    this.cancel();
    if (submits) return false;
    this.host.model.notifyChange();
    return true;
  }

  /** Stops a pending or running request (its answer will be dropped). */
  cancelRequest(): void {
    this.#startToken += 1;
    if (this.#debounceTimer) {
      clearTimeout(this.#debounceTimer);
      this.#debounceTimer = undefined;
    }
    this.#abort?.abort();
    this.#abort = undefined;
  }

  /** Closes the popup and stops any request. */
  cancel(): void {
    this.cancelRequest();
    this.state = null;
    this.list = undefined;
    this.prefix = "";
  }
}

/**
 * The item to preselect for `prefix`: an exact value match wins, else the first value starting
 * with it; -1 keeps the list's default. Case-sensitive, on values only.
 */
function bestMatchIndex(items: readonly AutocompleteItem[], prefix: string): number {
  if (!prefix) return -1;
  let firstPrefix = -1;
  for (let i = 0; i < items.length; i++) {
    if (items[i].value === prefix) return i;
    if (firstPrefix === -1 && items[i].value.startsWith(prefix)) firstPrefix = i;
  }
  return firstPrefix;
}
