/**
 * Wire encoder (placeholder until implemented).
 *
 * @module
 */
export {};
