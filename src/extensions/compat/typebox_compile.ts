/**
 * `typebox/compile` for extensions: the host's own copy.
 *
 * @module
 */
export * from "npm:typebox@1.4.3/compile";
