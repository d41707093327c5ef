/**
 * The CLI's colours, from `src/util/style.ts` (their one home, which config uses too).
 *
 * @module
 */
export { bold, colorEnabled, dim, red, yellow } from "../util/style.ts";
