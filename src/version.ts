/**
 * The version pi reports. It tracks the reference release whose behaviour this implementation
 * matches, so clients that check `pi --version` see the protocol level they expect.
 *
 * @module
 */

/** The version printed by `pi --version` and written nowhere else implicitly. */
export const VERSION = "1.6.0";
