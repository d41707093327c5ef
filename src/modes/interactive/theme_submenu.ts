/**
 * The Theme entry of `/settings`, as pi 1.6.0 draws it: one theme for every terminal, or
 * "automatic", a light and a dark theme picked by the terminal's appearance (saved as
 * `light/dark`). Moving the cursor previews the theme; Escape restores the one in use.
 *
 * @module
 */
import {
  type Component,
  Container,
  type Focusable,
  type SelectItem,
  SettingsList,
  Spacer,
  Text,
} from "../../tui/mod.ts";
import { parseAutoThemeSetting, type TerminalAppearance } from "../../resources/themes/theme_setting.ts";
import { SYSTEM_THEME_NAME } from "../../resources/themes/system_theme.ts";
import { SelectSubmenu } from "./settings_submenu.ts";
import type { Theme } from "./theme.ts";
import type { ThemeController } from "./theme_controller.ts";
import { settingsListTheme } from "./settings_selector.ts";

/** The value of the "automatic" row (no theme name can contain `/`). */
const AUTOMATIC = "/";
/** The theme a menu starts on when the setting names none offered: the generated `system` theme. */
const DEFAULT_THEME = SYSTEM_THEME_NAME;

/** What the menu works with. */
export interface ThemeMenuOptions {
  /** The theme setting now (a name or `light/dark`). */
  current: string;
  /** The offered theme names, sorted. */
  available: string[];
  /** Whether the terminal counts as light or dark. */
  appearance: TerminalAppearance;
  /** Shows a setting's theme for a moment. */
  preview(setting: string): void;
}

function themeItems(available: string[], current: string): SelectItem[] {
  return available.map((name) => ({
    value: name,
    label: `${name === current ? "✓ " : "  "}${name}`,
    ...(name === SYSTEM_THEME_NAME ? { description: "Theme created from your terminal's colors" } : {}),
  }));
}

/** The single-theme list: `system` first, then the automatic row, then the other themes (as 1.6.0). */
function singleModeItems(available: string[], current: string): SelectItem[] {
  const items = themeItems(available, current);
  const at = items.findIndex((item) => item.value === SYSTEM_THEME_NAME);
  const system = at === -1 ? [] : items.splice(at, 1);
  return [
    ...system,
    {
      value: AUTOMATIC,
      label: "  automatic",
      description: "Use separate themes for light and dark terminal appearance",
    },
    ...items,
  ];
}

function preferred(available: string[], name: string | undefined): string {
  if (name && available.includes(name)) return name;
  return available.includes(DEFAULT_THEME) ? DEFAULT_THEME : available[0] ?? DEFAULT_THEME;
}

/** The submenu; `onDone(setting)` saves, `onDone()` cancels. */
export class ThemeSubmenu extends Container implements Focusable {
  #input?: Component & { focused?: boolean };
  #focused = false;
  #mode: "single" | "automatic";
  #single: string;
  #light: string;
  #dark: string;

  /** Opens on the current setting's mode. */
  constructor(
    private readonly theme: Theme,
    private readonly options: ThemeMenuOptions,
    private readonly onDone: (setting?: string) => void,
  ) {
    super();
    const auto = parseAutoThemeSetting(options.current);
    const fixed = auto || options.current.includes("/") ? undefined : options.current;
    const start = preferred(options.available, fixed);
    this.#light = auto?.lightTheme ?? start;
    this.#dark = auto?.darkTheme ?? start;
    this.#mode = auto ? "automatic" : "single";
    this.#single = preferred(options.available, fixed ?? (auto ? this.#activeAutomatic() : undefined));
    if (this.#mode === "automatic") this.#showAutomatic();
    else this.#showSingle();
  }

  /** Passed on to the list shown, which draws the cursor of its filter field. */
  get focused(): boolean {
    return this.#focused;
  }
  set focused(value: boolean) {
    this.#focused = value;
    if (this.#input) this.#input.focused = value;
  }

  /** Keys go to the list shown. */
  handleInput(data: string): void {
    this.#input?.handleInput?.(data);
  }

  #show(render: Component, input: Component & { focused?: boolean } = render): void {
    this.clear();
    this.addChild(render);
    this.#input = input;
    input.focused = this.#focused;
  }

  #activeAutomatic(): string {
    return this.options.appearance === "light" ? this.#light : this.#dark;
  }

  #automaticSetting(): string {
    return `${this.#light}/${this.#dark}`;
  }

  #setting(): string {
    return this.#mode === "automatic" ? this.#automaticSetting() : this.#single;
  }

  #cancel(): void {
    this.options.preview(this.options.current);
    this.onDone();
  }

  #showSingle(): void {
    this.#mode = "single";
    const items = singleModeItems(this.options.available, this.#single);
    const menu = new SelectSubmenu(
      this.theme,
      "Theme",
      "Select a theme, or choose automatic to follow terminal appearance.",
      items,
      this.#single,
      (value) => {
        if (value === AUTOMATIC) {
          this.#mode = "automatic";
          this.options.preview(this.#setting());
          this.#showAutomatic();
          return;
        }
        this.#single = value;
        this.onDone(value);
      },
      () => this.#cancel(),
      {
        onHighlight: (value) => this.options.preview(value === AUTOMATIC ? this.#automaticSetting() : value),
      },
    );
    this.#show(menu);
  }

  #themeSelect(
    title: string,
    description: string,
    current: string,
    pick: (value: string) => void,
    back: () => void,
  ) {
    return new SelectSubmenu(
      this.theme,
      title,
      description,
      themeItems(this.options.available, current),
      current,
      pick,
      () => {
        this.options.preview(this.#setting());
        back();
      },
      { onHighlight: (value) => this.options.preview(value) },
    );
  }

  #showAutomatic(): void {
    this.#mode = "automatic";
    const theme = this.theme;
    const content = new Container();
    content.addChild(new Text(theme.bold(theme.fg("accent", "Automatic Theme")), 0, 0));
    content.addChild(new Spacer(1));
    content.addChild(
      new Text(theme.fg("muted", "Choose themes for terminal light and dark appearance."), 0, 0),
    );
    content.addChild(new Text(theme.fg("muted", "Light/dark detection requires terminal support."), 0, 0));
    content.addChild(new Spacer(1));
    const list = new SettingsList(
      [
        {
          id: "light-theme",
          label: "Light theme",
          description: "Theme to use in automatic mode when the terminal is light",
          currentValue: this.#light,
          submenu: (current, done) =>
            this.#themeSelect(
              "Light Theme",
              "Select the theme to use for light terminal appearance",
              current,
              (value) => {
                this.#light = value;
                this.options.preview(this.#setting());
                done(value);
              },
              () => done(),
            ),
        },
        {
          id: "dark-theme",
          label: "Dark theme",
          description: "Theme to use in automatic mode when the terminal is dark",
          currentValue: this.#dark,
          submenu: (current, done) =>
            this.#themeSelect(
              "Dark Theme",
              "Select the theme to use for dark terminal appearance",
              current,
              (value) => {
                this.#dark = value;
                this.options.preview(this.#setting());
                done(value);
              },
              () => done(),
            ),
        },
        {
          id: "apply",
          label: "Apply",
          description: "Save and go back",
          currentValue: "save and go back",
          values: ["save and go back"],
        },
        {
          id: "single-mode",
          label: "Change mode",
          description: "Switch to one theme for light and dark",
          currentValue: "switch to single theme",
          values: ["switch to single theme"],
        },
      ],
      4,
      settingsListTheme(theme),
      (id) => {
        if (id === "apply") this.onDone(this.#automaticSetting());
        else if (id === "single-mode") {
          this.#mode = "single";
          this.#single = this.#activeAutomatic();
          this.options.preview(this.#single);
          this.#showSingle();
        }
      },
      () => this.#cancel(),
    );
    content.addChild(list);
    this.#show(content, list);
  }
}

/** The Theme row of `/settings` over `themes`: the setting shown, and the submenu with its preview. */
export function themeSettingsRow(
  theme: Theme,
  themes: ThemeController,
): { current: string; submenu(current: string, done: (value?: string) => void): Component } {
  return {
    current: themes.selection,
    submenu: (current, done) =>
      new ThemeSubmenu(theme, {
        current,
        available: themes.availableThemes(),
        appearance: themes.appearance,
        preview: (setting) => themes.preview(setting),
      }, done),
  };
}
