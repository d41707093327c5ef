/**
 * The display settings the interactive mode applies at start-up and again when /settings changes
 * them: the hardware cursor, clearing rows when the screen shrinks, the editor's padding and
 * autocomplete height, and the footer's `(auto)` compaction mark.
 *
 * @module
 */
import type { SettingsManager } from "../../config/settings_manager.ts";

/** The parts of the interactive mode the display settings act on. */
export interface DisplayTargets {
  readonly ui: { setShowHardwareCursor(enabled: boolean): void; setClearOnShrink(enabled: boolean): void };
  readonly editor: {
    setPaddingX(padding: number): void;
    setAutocompleteMaxVisible(maxVisible: number): void;
  };
  readonly footer: { autoCompactEnabled: boolean };
}

/** Applies the saved display settings to `targets` (1.6.0 reads them when it builds its screen). */
export function applyDisplaySettings(targets: DisplayTargets, settings: SettingsManager): void {
  targets.ui.setShowHardwareCursor(settings.getShowHardwareCursor());
  targets.ui.setClearOnShrink(settings.getClearOnShrink());
  targets.editor.setPaddingX(settings.getEditorPaddingX());
  targets.editor.setAutocompleteMaxVisible(settings.getAutocompleteMaxVisible());
  targets.footer.autoCompactEnabled = settings.getCompactionEnabled();
}
