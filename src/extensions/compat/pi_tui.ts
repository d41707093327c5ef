/**
 * `@earendil-works/pi-tui` for extensions: our terminal UI kit (components such as `Text` and
 * `Container` that tool renderers build).
 *
 * @module
 */
export * from "../../tui/mod.ts";
