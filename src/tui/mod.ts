/**
 * The terminal UI kit: pi-tui 1.6.0's API (`@earendil-works/pi-tui`) on Deno APIs.
 *
 * Each section below is owned by one area of the kit; keep exports grouped by the file they come from.
 *
 * @module
 */

// --- text utilities (text_*.ts) ---
export {
  getOsc8LinkAtColumn,
  replaceControlCharacters,
  sliceByColumn,
  stripTerminalSequences,
  truncateToWidth,
  visibleWidth,
  wrapTextWithAnsi,
} from "./utils_text.ts";

// --- keys, keybindings, stdin (keys*.ts, keybindings.ts, stdin_buffer.ts) ---
export {
  getKeybindings,
  getSelectPageIndex,
  type Keybinding,
  type KeybindingConflict,
  type KeybindingDefinition,
  type KeybindingDefinitions,
  type Keybindings,
  type KeybindingsConfig,
  type KeybindingsLike,
  KeybindingsManager,
  setKeybindings,
  TUI_KEYBINDINGS,
} from "./keybindings.ts";
export {
  decodeKittyPrintable,
  isKeyRelease,
  isKeyRepeat,
  isKittyProtocolActive,
  Key,
  type KeyEventType,
  type KeyId,
  matchesKey,
  parseKey,
  setKittyProtocolActive,
} from "./keys.ts";
export { StdinBuffer, type StdinBufferEventMap, type StdinBufferOptions } from "./stdin_buffer.ts";

// --- colours, capabilities, images (colors.ts, oklab.ts, terminal_*.ts) ---
export {
  backgroundAnsi,
  type Color,
  type ColorMixSpace,
  colorToHex,
  colorToOkhsl,
  colorToOklch,
  colorToRgb,
  foregroundAnsi,
  type IndexedColor,
  indexedColor,
  mixColors,
  type OkhslChannels,
  okhslColor,
  type OklchChannels,
  oklchColor,
  type OklchColorValue,
  parseColor,
  rgbColor,
  type RgbColorValue,
  styleText,
  styleTextWithAnsi,
  type TerminalColorMode,
  type TextAttributes,
  type TextStyle,
} from "./colors.ts";
export { oklabToOkhslLightness } from "./oklab.ts";
export {
  parseTerminalColorSchemeReport,
  type RgbColor,
  type TerminalColors,
  type TerminalColorScheme,
} from "./terminal_colors.ts";
export {
  allocateImageId,
  calculateImageRows,
  type CellDimensions,
  deleteAllKittyImages,
  deleteKittyImage,
  detectCapabilities,
  encodeITerm2,
  encodeKitty,
  getCapabilities,
  getCellDimensions,
  getGifDimensions,
  getImageDimensions,
  getJpegDimensions,
  getPngDimensions,
  getTerminalColorMode,
  getWebpDimensions,
  hyperlink,
  type ImageDimensions,
  imageFallback,
  type ImageProtocol,
  type ImageRenderOptions,
  renderImage,
  resetCapabilitiesCache,
  setCapabilities,
  setCapabilityOverrides,
  setCellDimensions,
  type TerminalCapabilities,
} from "./terminal_image.ts";
export { formatProgramStatus, type ProgramStatus } from "./program_status.ts";
export { fuzzyFilter, type FuzzyMatch, fuzzyMatch } from "./fuzzy.ts";
export { getNativeClipboard, type NativeClipboard } from "./native_platform.ts";
export {
  Image,
  type ImageOptions,
  type ImageTheme,
  type ImageTranscoder,
  setImageTranscoder,
} from "./components/image.ts";

// --- core: components, TUI, terminal (tui*.ts, terminal.ts) ---
export {
  type Component,
  compositeTuiLine,
  Container,
  CURSOR_MARKER,
  type Focusable,
  isFocusable,
  isViewportTUI,
  type OverlayAnchor,
  type OverlayBounds,
  type OverlayHandle,
  type OverlayMargin,
  type OverlayOptions,
  type OverlayUnfocusOptions,
  renderFakeCursor,
  type SizeValue,
  type TUI,
  type TuiInputListener,
  type TuiInputListenerResult,
  type TuiMode,
  type TuiMouseButton,
  type TuiMouseEvent,
  type TuiMouseEventResult,
  type TuiMouseEventType,
  type TuiStopOptions,
  type ViewportTUI,
} from "./tui.ts";
export { TuiMainScreen, type TuiMainScreenRenderState } from "./tui_main_screen.ts";
export { isAppleTerminalSession, ProcessTerminal, type Terminal } from "./terminal.ts";

// --- fullscreen: layout, stacks, scroll view (layout*.ts, stack.ts, scroll_view.ts, alt_screen*.ts) ---
export { HStack } from "./components/h_stack.ts";
export { MouseRegion, type MouseRegionHandler } from "./components/mouse_region.ts";
export {
  ScrollView,
  type ScrollViewOptions,
  type ScrollViewScrollbar,
  type ScrollViewScrollToOptions,
} from "./components/scroll_view.ts";
export {
  type StackChild,
  type StackEntry,
  type StackEntryOptions,
  type StackOptions,
  VStack,
} from "./components/v_stack.ts";
export { TuiAltScreen, type TuiAltScreenOptions } from "./tui_alt_screen.ts";
export type { WheelScrollLines } from "./wheel_scroll.ts";

// --- editor, input, autocomplete (editor*.ts, input.ts, autocomplete.ts) ---
export {
  type AutocompleteItem,
  type AutocompleteProvider,
  type AutocompleteSuggestions,
  CombinedAutocompleteProvider,
  type SlashCommand,
} from "./autocomplete.ts";
export { Editor, type EditorOptions, type EditorTheme } from "./components/editor.ts";
export { Input } from "./components/input.ts";
export type { EditorComponent } from "./editor_component.ts";

// --- markdown, latex (markdown*.ts, latex*.ts) ---
export { Marked, type Token, type Tokens } from "npm:marked@18.0.11";
export {
  type DefaultTextStyle,
  Markdown,
  type MarkdownOptions,
  type MarkdownTheme,
} from "./components/markdown.ts";
export { renderLatex, type RenderLatexOptions } from "./latex.ts";

// --- simple components (text.ts, box.ts, select_list.ts, settings_list.ts, loader.ts, image.ts…) ---
export { Box } from "./components/box.ts";
export { CancellableLoader } from "./components/cancellable_loader.ts";
export { Loader, type LoaderIndicatorOptions } from "./components/loader.ts";
export {
  type SelectItem,
  SelectList,
  type SelectListLayoutOptions,
  type SelectListTheme,
  type SelectListTruncatePrimaryContext,
} from "./components/select_list.ts";
export { type SettingItem, SettingsList, type SettingsListTheme } from "./components/settings_list.ts";
export { Spacer } from "./components/spacer.ts";
export { Text } from "./components/text.ts";
export { TruncatedText } from "./components/truncated_text.ts";

export {};
