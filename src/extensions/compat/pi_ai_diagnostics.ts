/**
 * 1.6.0 pi-ai's error helpers for extensions: turning a thrown value into text or a diagnostic
 * record, attaching diagnostics to an assistant message, and `ModelsError`, the error its model
 * collections throw (its `code` says which layer failed).
 *
 * @module
 */
import type { AssistantMessageDiagnostic, JsonObject } from "../../ai/types.ts";

/** A thrown value as diagnostic data (the stack kept when it is an Error). */
export interface DiagnosticError {
  /** The error's name; "ThrownValue" for a value that is not an Error. */
  name?: string;
  /** Its message (the name when the message is empty). */
  message: string;
  /** The stack of an Error. */
  stack?: string;
  /** A string or number `code` property (Node's system errors, SDK errors). */
  code?: string | number;
}

/** The text of a thrown value: an Error's message (or name), a string itself, else `String()`. */
export function formatThrownValue(value: unknown): string {
  if (value instanceof Error) return value.message || value.name;
  if (typeof value === "string") return value;
  return String(value);
}

/** A thrown value as a {@link DiagnosticError}. */
export function extractDiagnosticError(error: unknown): DiagnosticError {
  if (!(error instanceof Error)) return { name: "ThrownValue", message: formatThrownValue(error) };
  const code = (error as { code?: unknown }).code;
  return {
    name: error.name || undefined,
    message: error.message || error.name,
    stack: error.stack,
    code: typeof code === "string" || typeof code === "number" ? code : undefined,
  };
}

/** A diagnostic of kind `type` for `error`, stamped now. */
export function createAssistantMessageDiagnostic(
  type: string,
  error: unknown,
  details?: JsonObject,
): AssistantMessageDiagnostic {
  return { type, timestamp: Date.now(), error: extractDiagnosticError(error), details };
}

/** Adds `diagnostic` to the message's diagnostics (a new array, so earlier copies stay as they were). */
export function appendAssistantMessageDiagnostic<T extends { diagnostics?: AssistantMessageDiagnostic[] }>(
  message: T,
  diagnostic: AssistantMessageDiagnostic,
): void {
  message.diagnostics = [...(message.diagnostics ?? []), diagnostic];
}

/** What failed, for a {@link ModelsError} (1.6.0's codes). */
export type ModelsErrorCode = "model_source" | "model_validation" | "provider" | "stream" | "auth" | "oauth";

/**
 * The error 1.6.0's `Models` operations throw. Callers show only `message`, so the cause's text
 * is appended to it unless it already says so.
 */
export class ModelsError extends Error {
  /** Which layer failed. */
  readonly code: ModelsErrorCode;

  /** An error with `code` and `message`; `options.cause` is kept and its text appended. */
  constructor(code: ModelsErrorCode, message: string, options?: { cause?: unknown }) {
    super(withCauseDetail(message, options?.cause), options);
    this.name = "ModelsError";
    this.code = code;
  }
}

function withCauseDetail(message: string, cause: unknown): string {
  if (cause === undefined || cause === null) return message;
  const detail = formatThrownValue(cause).trim();
  if (!detail || message.includes(detail)) return message;
  return `${message}: ${detail}`;
}
