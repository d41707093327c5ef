/**
 * The fake provider server: scripted turns in, real wire formats out.
 *
 * @module
 */
export * from "./script.ts";
export * from "./server.ts";
