/**
 * What a mode must do before it exits on SIGTERM/SIGHUP: end the process trees of the commands
 * tools still run (the model's bash calls, the user's `!cmd`). Modes reach tools only through
 * core (tests/architecture_test.ts), so this is their way to it.
 *
 * @module
 */
export { killTrackedDetachedChildren } from "../tools/shell.ts";
