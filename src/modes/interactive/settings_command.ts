/**
 * `/settings`: opens the settings menu in the editor's place and applies each change at once, as
 * pi 1.6.0 does — saved to the user's settings.json through the settings manager (its locked
 * read-modify-write of only the keys that changed) and applied to the running session and screen.
 * Loaded when the command first runs.
 *
 * @module
 */
import type { AgentThinkingLevel } from "../../agent/types.ts";
import { DEFAULT_THINKING_LEVEL } from "../../config/model_resolver.ts";
import { DEFAULT_HTTP_IDLE_TIMEOUT_MS } from "../../config/settings_manager_extras.ts";
import type { AgentSession } from "../../core/agent_session.ts";
import type { Container, TUI } from "../../tui/mod.ts";
import type { ChatView } from "./chat_view.ts";
import type { DisplayTargets } from "./display_settings.ts";
import { formatHttpIdleTimeoutMs, type SettingsChange, SettingsSelector } from "./settings_selector.ts";
import type { Theme } from "./theme.ts";
import type { ThemeController } from "./theme_controller.ts";
import { themeSettingsRow } from "./theme_submenu.ts";

/** What the settings menu acts on: the running interactive mode. */
export interface SettingsHost extends DisplayTargets {
  readonly session: AgentSession;
  readonly theme: Theme;
  /** The run's themes, for the Theme row. */
  readonly themes?: ThemeController;
  readonly chat: ChatView;
  readonly ui: TUI;
  showSelector(component: Container & { focused?: boolean }): () => void;
  updateEditorBorder(): void;
  requestRender(): void;
}

/** Opens the menu over the current settings; Escape closes it. */
export function openSettings(app: SettingsHost): void {
  const session = app.session;
  const settings = session.settingsManager;
  const provider = settings.getDefaultProvider();
  const modelId = settings.getDefaultModel();
  let done = () => {};
  const selector = new SettingsSelector(
    app.theme,
    {
      autoCompact: session.autoCompactionEnabled,
      autoResizeImages: settings.getImageAutoResize(),
      blockImages: settings.getBlockImages(),
      enableSkillCommands: settings.getEnableSkillCommands(),
      showHardwareCursor: settings.getShowHardwareCursor(),
      editorPaddingX: settings.getEditorPaddingX(),
      autocompleteMaxVisible: settings.getAutocompleteMaxVisible(),
      clearOnShrink: settings.getClearOnShrink(),
      steeringMode: settings.getSteeringMode(),
      followUpMode: settings.getFollowUpMode(),
      httpIdleTimeoutMs: httpIdleTimeoutMs(app),
      hideThinkingBlock: app.chat.thinkingHidden,
      quietStartup: settings.getQuietStartup(),
      defaultProjectTrust: settings.getDefaultProjectTrust(),
      thinkingLevel: settings.getDefaultThinkingLevel() ?? DEFAULT_THINKING_LEVEL,
      modelThinkingLevels: settings.getAllModelThinkingLevels(),
      models: session.modelRegistry.getAvailable(),
      currentModel: session.model,
      defaultModel: provider && modelId ? `${provider}/${modelId}` : undefined,
      theme: app.themes ? themeSettingsRow(app.theme, app.themes) : undefined,
    },
    (change) => applyChange(app, change),
    () => done(),
  );
  done = app.showSelector(selector);
}

/** A malformed saved timeout (reported at start-up) shows as the default it falls back to. */
function httpIdleTimeoutMs(app: SettingsHost): number {
  try {
    return app.session.settingsManager.getHttpIdleTimeoutMs();
  } catch {
    return DEFAULT_HTTP_IDLE_TIMEOUT_MS;
  }
}

/** Saves one change and makes it take effect (the next request, the screen, or the next start). */
function applyChange(app: SettingsHost, change: SettingsChange): void {
  const session = app.session;
  const settings = session.settingsManager;
  switch (change.id) {
    case "autocompact":
      session.setAutoCompactionEnabled(change.value);
      app.footer.autoCompactEnabled = change.value;
      break;
    case "auto-resize-images":
      // Read by the read tool and `@file` images when a session starts (1.6.0 alike).
      settings.setImageAutoResize(change.value);
      break;
    case "block-images":
      // Read on every request.
      settings.setBlockImages(change.value);
      break;
    case "skill-commands":
      // Read whenever a prompt starts with /skill:.
      settings.setEnableSkillCommands(change.value);
      break;
    case "show-hardware-cursor":
      settings.setShowHardwareCursor(change.value);
      app.ui.setShowHardwareCursor(change.value);
      break;
    case "clear-on-shrink":
      settings.setClearOnShrink(change.value);
      app.ui.setClearOnShrink(change.value);
      break;
    case "editor-padding":
      settings.setEditorPaddingX(change.value);
      app.editor.setPaddingX(change.value);
      break;
    case "autocomplete-max-visible":
      settings.setAutocompleteMaxVisible(change.value);
      app.editor.setAutocompleteMaxVisible(change.value);
      break;
    case "steering-mode":
      session.setSteeringMode(change.value);
      break;
    case "follow-up-mode":
      session.setFollowUpMode(change.value);
      break;
    case "http-idle-timeout":
      // Read by every provider request.
      settings.setHttpIdleTimeoutMs(change.value);
      app.chat.addNotice("status", `HTTP idle timeout: ${formatHttpIdleTimeoutMs(change.value)}`);
      break;
    case "hide-thinking":
      settings.setHideThinkingBlock(change.value);
      app.chat.setHideThinking(change.value);
      break;
    case "quiet-startup":
      settings.setQuietStartup(change.value);
      break;
    case "theme": {
      // Saved as chosen (a name or light/dark) and drawn at once, as 1.6.0.
      settings.setTheme(change.value);
      const result = app.themes?.applySetting(change.value);
      if (result && !result.success) {
        const name = app.themes?.nameFor(change.value) ?? change.value;
        app.chat.addNotice(
          "error",
          `Failed to load theme "${name}": ${result.error}\nFell back to dark theme.`,
        );
      }
      break;
    }
    case "default-project-trust":
      settings.setDefaultProjectTrust(change.value);
      break;
    case "model-thinking":
      setModelThinking(app, change.model, change.value);
      break;
  }
  app.requestRender();
}

/** Saves (or with undefined removes) a model's default level; the current model takes it at once. */
function setModelThinking(
  app: SettingsHost,
  model: { provider: string; id: string },
  level: string | undefined,
): void {
  const settings = app.session.settingsManager;
  if (level === undefined) settings.removeModelThinkingLevel(model.provider, model.id);
  else settings.setModelThinkingLevel(model.provider, model.id, level as AgentThinkingLevel);
  const current = app.session.model;
  if (!current || current.provider !== model.provider || current.id !== model.id) return;
  const effective = level ?? settings.getDefaultThinkingLevel() ?? DEFAULT_THINKING_LEVEL;
  app.session.setThinkingLevel(effective as AgentThinkingLevel);
  app.updateEditorBorder();
}
