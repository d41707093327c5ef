/**
 * Program Status Protocol (OSC 7501): a program tells the terminal whether it is idle, working,
 * blocked on the user, done, or failed. Only the root record is supported. Mirrors pi-tui 1.6.0's
 * `program-status.js`.
 *
 * Spec: https://www.superlogical.com/rex/docs/build/program-status
 *
 * @module
 */
import { toBase64 } from "../util/bytes.ts";
import { replaceControlCharacters } from "./utils_text.ts";

/** One status report. */
export interface ProgramStatus {
  /** `clear` removes the status instead of reporting one. */
  state: "idle" | "working" | "blocked" | "done" | "error" | "clear";
  /** Stable program name, `[A-Za-z0-9_.+-]{1,32}`. Other values are omitted. */
  app?: string;
  /** What a blocked program waits for. Omitted for other states. */
  kind?: "permission" | "question" | "auth";
  /** One human-readable line. Control characters become spaces; longer text is cut to the spec limit. */
  message?: string;
}

/** Feature detection query. A supporting terminal replies with the same body. */
export const PROGRAM_STATUS_QUERY = "\x1b]7501;?\x1b\\";

// deno-lint-ignore no-control-regex
const QUERY_REPLY = /^\x1b\]7501;\?[^\x07\x1b]*(?:\x07|\x1b\\)$/;

/** The reply to {@link PROGRAM_STATUS_QUERY}. Later spec revisions may add pairs after the `?`. */
export function isProgramStatusReply(sequence: string): boolean {
  return QUERY_REPLY.test(sequence);
}

const APP_NAME = /^[A-Za-z0-9_.+-]{1,32}$/;
/** The decoded `msg` limit: its base64 stays under the spec's 2732 encoded bytes. */
const MAX_MESSAGE_BYTES = 2048;

/** The longest prefix of `bytes` (UTF-8 of some text) that ends on a character boundary within `max`. */
function utf8Prefix(bytes: Uint8Array, max: number): Uint8Array {
  if (bytes.length <= max) return bytes;
  let end = max;
  // Step back over continuation bytes (10xxxxxx) to the start of the character that would be cut.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

/** Encode a status report. Terminals discard reports whose text contains control characters, so they are replaced. */
export function formatProgramStatus(status: ProgramStatus): string {
  const pairs = [`state=${status.state}`];
  if (status.app !== undefined && APP_NAME.test(status.app)) pairs.push(`app=${status.app}`);
  if (status.state === "blocked" && status.kind) pairs.push(`kind=${status.kind}`);
  const text = replaceControlCharacters(status.message ?? "").trim();
  if (text) pairs.push(`msg=${toBase64(utf8Prefix(new TextEncoder().encode(text), MAX_MESSAGE_BYTES))}`);
  return `\x1b]7501;${pairs.join(":")}\x1b\\`;
}
