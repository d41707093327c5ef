/**
 * An early, user-facing stop of the CLI: the message goes to stderr (red on a colour terminal)
 * and the process ends with `exitCode`. Thrown instead of exiting so the flow stays testable.
 *
 * @module
 */

/** Stops the CLI with a message for stderr and an exit code. */
export class CliExit extends Error {
  /** Process exit code. */
  readonly exitCode: number;
  /** Whether the message is an error (red) rather than plain text. */
  readonly isError: boolean;

  constructor(message: string, exitCode = 1, isError = true) {
    super(message);
    this.name = "CliExit";
    this.exitCode = exitCode;
    this.isError = isError;
  }
}
