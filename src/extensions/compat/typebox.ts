/**
 * `typebox` for extensions: the host's own copy (the version `src/ai/validation.ts` uses), so a
 * schema an extension builds is checked by the same library.
 *
 * @module
 */
export * from "npm:typebox@1.4.3";
export { default } from "npm:typebox@1.4.3";
export { CanComposite } from "./typebox_can_composite.ts";
