/**
 * The /settings menu of pi 1.6.0 in its order, labels, descriptions and values, limited to the
 * settings this build acts on (see settings_command.ts for what each change does). Enter or Space
 * moves a value to the next one, typing filters the list, Escape closes; "Default thinking level
 * per model" opens a two-step submenu (model, then level).
 *
 * @module
 */
import { getSupportedThinkingLevels } from "../../ai/thinking.ts";
import type { Model } from "../../ai/types.ts";
import { type Component, Container, type Focusable, type SettingItem, SettingsList } from "../../tui/mod.ts";
import { APP_KEYS } from "./app_keys.ts";
import { keyDisplayText } from "./hotkeys.ts";
import { BorderLine } from "./model_selector.ts";
import { SteppedSubmenu, type SubmenuStep } from "./settings_submenu.ts";
import type { Theme } from "./theme.ts";
import { LEVEL_DESCRIPTIONS } from "./thinking_selector.ts";

/** The HTTP idle timeout choices (1.6.0's `HTTP_IDLE_TIMEOUT_CHOICES`). */
export const HTTP_IDLE_TIMEOUT_CHOICES: readonly { label: string; timeoutMs: number }[] = [
  { label: "30 sec", timeoutMs: 30_000 },
  { label: "1 min", timeoutMs: 60_000 },
  { label: "2 min", timeoutMs: 120_000 },
  { label: "5 min", timeoutMs: 300_000 },
  { label: "disabled", timeoutMs: 0 },
];

/** A timeout as the menu shows it: a choice's label, else seconds. */
export function formatHttpIdleTimeoutMs(timeoutMs: number): string {
  return HTTP_IDLE_TIMEOUT_CHOICES.find((c) => c.timeoutMs === timeoutMs)?.label ?? `${timeoutMs / 1000} sec`;
}

type ProjectTrust = "ask" | "always" | "never";
type QueueMode = "one-at-a-time" | "all";

const TRUST_LABELS: Readonly<Record<ProjectTrust, string>> = {
  ask: "Ask",
  always: "Always trust",
  never: "Never trust",
};

const CLEAR_OVERRIDE = "__clear__";
const NO_MODELS = "__none__";
const MODEL_PICKER_LAYOUT = { minPrimaryColumnWidth: 12, maxPrimaryColumnWidth: 46 };

/** The values the menu opens with. */
export interface SettingsValues {
  autoCompact: boolean;
  autoResizeImages: boolean;
  blockImages: boolean;
  enableSkillCommands: boolean;
  showHardwareCursor: boolean;
  editorPaddingX: number;
  autocompleteMaxVisible: number;
  clearOnShrink: boolean;
  steeringMode: QueueMode;
  followUpMode: QueueMode;
  httpIdleTimeoutMs: number;
  hideThinkingBlock: boolean;
  quietStartup: boolean | "header";
  defaultProjectTrust: ProjectTrust;
  /** The global default thinking level (named by "clear override"). */
  thinkingLevel: string;
  modelThinkingLevels: Record<string, string>;
  /** Models with credentials, for the per-model thinking submenu. */
  models: Model[];
  currentModel?: Model;
  /** `provider/id` of the saved default model, if any. */
  defaultModel?: string;
  /** The Theme row (last, as 1.6.0): the setting shown and its submenu. */
  theme?: { current: string; submenu(current: string, done: (value?: string) => void): Component };
}

/** One change made in the menu. */
export type SettingsChange =
  | {
    id:
      | "autocompact"
      | "auto-resize-images"
      | "block-images"
      | "skill-commands"
      | "show-hardware-cursor"
      | "clear-on-shrink"
      | "hide-thinking";
    value: boolean;
  }
  | { id: "editor-padding" | "autocomplete-max-visible" | "http-idle-timeout"; value: number }
  | { id: "steering-mode" | "follow-up-mode"; value: QueueMode }
  | { id: "quiet-startup"; value: boolean | "header" }
  | { id: "default-project-trust"; value: ProjectTrust }
  | { id: "model-thinking"; model: Model; value: string | undefined }
  | { id: "theme"; value: string };

const bool = (value: boolean) => (value ? "true" : "false");
const BOOL = ["true", "false"];
const key = (model: Model) => `${model.provider}/${model.id}`;

/** The settings menu: borders around a searchable {@link SettingsList}. */
export class SettingsSelector extends Container implements Focusable {
  readonly #list: SettingsList;
  #focused = false;

  /** A menu over `values`; `onChange` hears each change, `onCancel` the Escape key. */
  constructor(
    private readonly theme: Theme,
    values: SettingsValues,
    onChange: (change: SettingsChange) => void,
    onCancel: () => void,
  ) {
    super();
    const overrides = { ...values.modelThinkingLevels };
    const items: SettingItem[] = [
      {
        id: "autocompact",
        label: "Auto-compact",
        description: "Automatically compact context when it gets too large",
        currentValue: bool(values.autoCompact),
        values: BOOL,
      },
      {
        id: "auto-resize-images",
        label: "Auto-resize images",
        description: "Resize large images to 2000x2000 max for better model compatibility",
        currentValue: bool(values.autoResizeImages),
        values: BOOL,
      },
      {
        id: "block-images",
        label: "Block images",
        description: "Prevent images from being sent to LLM providers",
        currentValue: bool(values.blockImages),
        values: BOOL,
      },
      {
        id: "skill-commands",
        label: "Skill commands",
        description: "Register skills as /skill:name commands",
        currentValue: bool(values.enableSkillCommands),
        values: BOOL,
      },
      {
        id: "show-hardware-cursor",
        label: "Show hardware cursor",
        description: "Use the terminal cursor instead of Pi's drawn cursor",
        currentValue: bool(values.showHardwareCursor),
        values: BOOL,
      },
      {
        id: "editor-padding",
        label: "Editor padding",
        description: "Horizontal padding for input editor (0-3)",
        currentValue: String(values.editorPaddingX),
        values: ["0", "1", "2", "3"],
      },
      {
        id: "autocomplete-max-visible",
        label: "Autocomplete max items",
        description: "Max visible items in autocomplete dropdown (3-20)",
        currentValue: String(values.autocompleteMaxVisible),
        values: ["3", "5", "7", "10", "15", "20"],
      },
      {
        id: "clear-on-shrink",
        label: "Clear on shrink",
        description: "Clear empty rows when content shrinks (may cause flicker)",
        currentValue: bool(values.clearOnShrink),
        values: BOOL,
      },
      {
        id: "steering-mode",
        label: "Steering mode",
        description:
          "Enter while streaming queues steering messages. 'one-at-a-time': deliver one, wait for response. 'all': deliver all at once.",
        currentValue: values.steeringMode,
        values: ["one-at-a-time", "all"],
      },
      {
        id: "follow-up-mode",
        label: "Follow-up mode",
        description: `${
          keyDisplayText(APP_KEYS["app.message.followUp"])
        } queues follow-up messages until agent stops. 'one-at-a-time': deliver one, wait for response. 'all': deliver all at once.`,
        currentValue: values.followUpMode,
        values: ["one-at-a-time", "all"],
      },
      {
        id: "http-idle-timeout",
        label: "HTTP idle timeout",
        description:
          "Maximum idle gap while waiting for HTTP headers or body chunks. Disable for local models that pause longer than five minutes.",
        currentValue: formatHttpIdleTimeoutMs(values.httpIdleTimeoutMs),
        values: HTTP_IDLE_TIMEOUT_CHOICES.map((c) => c.label),
      },
      {
        id: "hide-thinking",
        label: "Hide thinking",
        description: "Hide thinking blocks in assistant responses",
        currentValue: bool(values.hideThinkingBlock),
        values: BOOL,
      },
      {
        id: "quiet-startup",
        label: "Quiet startup",
        description: "Disable verbose printing at startup (header: keep only the startup header)",
        currentValue: String(values.quietStartup),
        values: ["true", "header", "false"],
      },
      {
        id: "default-project-trust",
        label: "Default project trust",
        description: "Fallback behavior when no extension or saved trust decision decides project trust",
        currentValue: TRUST_LABELS[values.defaultProjectTrust],
        values: Object.values(TRUST_LABELS),
      },
      {
        id: "model-thinking",
        label: "Default thinking level per model",
        description: `Override the default thinking level for specific models. ${
          keyDisplayText(APP_KEYS["app.thinking.cycle"])
        } cycles in-session.`,
        currentValue: overridesSummary(overrides),
        submenu: (_current, done) =>
          this.#modelThinkingSubmenu(values, overrides, onChange, () => done(overridesSummary(overrides))),
      },
    ];
    const themeRow = values.theme;
    if (themeRow) {
      items.push({
        id: "theme",
        label: "Theme",
        description: "Color theme for the interface",
        currentValue: themeRow.current,
        submenu: (current, done) => themeRow.submenu(current, done),
      });
    }
    this.addChild(new BorderLine(theme));
    this.#list = new SettingsList(
      items,
      10,
      settingsListTheme(theme),
      (id, value) => {
        const change = parseChange(id, value);
        if (change) onChange(change);
      },
      onCancel,
      { enableSearch: true },
    );
    this.addChild(this.#list);
    this.addChild(new BorderLine(theme));
  }

  /** The list takes the keys (and the focus, for its search field's cursor). */
  get focused(): boolean {
    return this.#focused;
  }
  set focused(value: boolean) {
    this.#focused = value;
    (this.#list as { focused?: boolean }).focused = value;
  }

  /** Keys go to the list (or its open submenu). */
  handleInput(data: string): void {
    this.#list.handleInput(data);
  }

  /** Sets a row's value (a change refused after it was shown). */
  updateValue(id: string, value: string): void {
    this.#list.updateValue(id, value);
  }

  #modelThinkingSubmenu(
    values: SettingsValues,
    overrides: Record<string, string>,
    onChange: (change: SettingsChange) => void,
    close: () => void,
  ): Component {
    const byKey = new Map(values.models.map((m) => [key(m), m]));
    const currentKey = values.currentModel ? key(values.currentModel) : undefined;
    const defaultKey = values.defaultModel && byKey.has(values.defaultModel)
      ? values.defaultModel
      : undefined;
    const theme = this.theme;
    const rank = (k: string) => (k === currentKey ? 0 : k === defaultKey ? 1 : 2);
    const steps: SubmenuStep[] = [
      {
        key: "model",
        title: "Per-Model Thinking Level",
        description: "Select a model to configure",
        options: () => {
          const sorted = [...values.models].sort((a, b) =>
            rank(key(a)) - rank(key(b)) || a.provider.localeCompare(b.provider)
          );
          const items = sorted.map((m) => ({
            value: key(m),
            label: `${m.id} ${theme.fg("muted", `[${m.provider}]`)}`,
            description: overrides[key(m)],
          }));
          if (items.length === 0) {
            items.push({
              value: NO_MODELS,
              label: "No models available",
              description: "Log in to a provider or configure an API key first",
            });
          }
          return items;
        },
        preselect: () => currentKey ?? defaultKey,
        searchable: true,
        layout: MODEL_PICKER_LAYOUT,
      },
      {
        key: "level",
        title: (ctx) => {
          const m = byKey.get(ctx.model);
          return `Thinking Level for ${m ? `${m.id} [${m.provider}]` : ctx.model}`;
        },
        description: "Select default thinking level for this model",
        options: (ctx) => {
          const model = byKey.get(ctx.model);
          if (!model) return [];
          const levels: string[] = model.reasoning ? getSupportedThinkingLevels(model) : ["off"];
          const active = overrides[ctx.model];
          const items = levels.map((level) => ({
            value: level,
            label: `${level === active ? "✓ " : "  "}${level}`,
            description: LEVEL_DESCRIPTIONS[level],
          }));
          if (active !== undefined) {
            items.push({
              value: CLEAR_OVERRIDE,
              label: "  (clear override)",
              description: `Revert to global default (${values.thinkingLevel})`,
            });
          }
          return items;
        },
        preselect: (ctx) => overrides[ctx.model],
      },
    ];
    return new SteppedSubmenu(
      theme,
      steps,
      (picked) => {
        const model = byKey.get(picked.model);
        if (!model) return;
        const level = picked.level === CLEAR_OVERRIDE ? undefined : picked.level;
        if (level === undefined) delete overrides[picked.model];
        else overrides[picked.model] = level;
        onChange({ id: "model-thinking", model, value: level });
      },
      close,
      true,
    );
  }
}

function overridesSummary(overrides: Record<string, string>): string {
  const count = Object.keys(overrides).length;
  return count === 0 ? "none" : `${count} configured`;
}

/** 1.6.0's `getSettingsListTheme()`. */
export function settingsListTheme(theme: Theme) {
  return {
    label: (text: string, selected: boolean) => (selected ? theme.fg("accent", text) : text),
    value: (
      text: string,
      selected: boolean,
    ) => (selected ? theme.fg("accent", text) : theme.fg("muted", text)),
    description: (text: string) => theme.fg("dim", text),
    cursor: theme.fg("accent", "→ "),
    hint: (text: string) => theme.fg("dim", text),
  };
}

function parseChange(id: string, value: string): SettingsChange | undefined {
  switch (id) {
    case "autocompact":
    case "auto-resize-images":
    case "block-images":
    case "skill-commands":
    case "show-hardware-cursor":
    case "clear-on-shrink":
    case "hide-thinking":
      return { id, value: value === "true" };
    case "editor-padding":
    case "autocomplete-max-visible":
      return { id, value: Number.parseInt(value, 10) };
    case "http-idle-timeout": {
      const choice = HTTP_IDLE_TIMEOUT_CHOICES.find((c) => c.label === value);
      return choice ? { id, value: choice.timeoutMs } : undefined;
    }
    case "steering-mode":
    case "follow-up-mode":
      return { id, value: value === "all" ? "all" : "one-at-a-time" };
    case "quiet-startup":
      return { id, value: value === "header" ? "header" : value === "true" };
    case "theme":
      return { id, value };
    case "default-project-trust": {
      const trust = (Object.keys(TRUST_LABELS) as ProjectTrust[]).find((t) => TRUST_LABELS[t] === value);
      return trust ? { id, value: trust } : undefined;
    }
  }
  return undefined;
}
