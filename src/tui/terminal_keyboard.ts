/**
 * Keyboard facts of the terminal layer: the replies of keyboard protocol negotiation (Kitty flags
 * or device attributes), Shift+Enter on terminals that send plain Enter, and how long a lone ESC
 * waits for the rest of a sequence.
 *
 * @module
 */
import { readEnv } from "../util/env.ts";

/** A negotiation reply: the Kitty keyboard flags in effect, or a device attributes (DA1) reply. */
export type KeyboardProtocolNegotiationSequence =
  | { type: "kitty-flags"; flags: number }
  | { type: "device-attributes" };

// deno-lint-ignore no-control-regex
const KITTY_FLAGS_REPLY = /^\x1b\[\?(\d+)u$/;
// deno-lint-ignore no-control-regex
const DEVICE_ATTRIBUTES_REPLY = /^\x1b\[\?[\d;]*c$/;
// deno-lint-ignore no-control-regex
const NEGOTIATION_PREFIX = /^\x1b\[\?[\d;]*$/;

/** Parses a Kitty flags reply (CSI ? flags u) or a DA1 reply (CSI ? … c). */
export function parseKeyboardProtocolNegotiationSequence(
  sequence: string,
): KeyboardProtocolNegotiationSequence | undefined {
  const kitty = KITTY_FLAGS_REPLY.exec(sequence);
  if (kitty) return { type: "kitty-flags", flags: Number.parseInt(kitty[1], 10) };
  if (DEVICE_ATTRIBUTES_REPLY.test(sequence)) return { type: "device-attributes" };
  return undefined;
}

/** Whether a sequence may be the start of a negotiation reply split across reads. */
export function isKeyboardProtocolNegotiationSequencePrefix(sequence: string): boolean {
  return sequence === "\x1b[" || NEGOTIATION_PREFIX.test(sequence);
}

/** Whether this is macOS's Terminal.app. */
export function isAppleTerminalSession(): boolean {
  return Deno.build.os === "darwin" && readEnv("TERM_PROGRAM") === "Apple_Terminal";
}

const NATIVE_SHIFT_ENTER_SEQUENCE = "\x1b[13;2u";

/** Enter, or ESC+CR, which some Apple Terminal setups send for Shift+Enter (#11559). */
export function isNativeShiftEnterCandidate(data: string): boolean {
  return data === "\r" || data === "\x1b\r";
}

/** Turns Enter into Shift+Enter (Kitty form) when the platform says Shift is held. */
export function normalizeNativeShiftEnterInput(
  data: string,
  shouldDetectNativeShiftEnter: boolean,
  isShiftPressed: boolean,
): string {
  if (shouldDetectNativeShiftEnter && isNativeShiftEnterCandidate(data) && isShiftPressed) {
    return NATIVE_SHIFT_ENTER_SEQUENCE;
  }
  return data;
}

/** {@link normalizeNativeShiftEnterInput} for Apple Terminal. */
export function normalizeAppleTerminalInput(
  data: string,
  isAppleTerminal: boolean,
  isShiftPressed: boolean,
): string {
  return normalizeNativeShiftEnterInput(data, isAppleTerminal, isShiftPressed);
}

const DEFAULT_ESCAPE_TIMEOUT_MS = 10;
const DEFAULT_SSH_ESCAPE_TIMEOUT_MS = 100;

/** Environment variables, as `process.env` or a plain record. */
export type EnvRecord = Record<string, string | undefined>;

function processEnv(): EnvRecord {
  return {
    PI_TUI_ESC_TIMEOUT: readEnv("PI_TUI_ESC_TIMEOUT"),
    SSH_CONNECTION: readEnv("SSH_CONNECTION"),
    SSH_TTY: readEnv("SSH_TTY"),
  };
}

/**
 * Resolve how long to wait for the rest of an escape sequence before
 * dispatching a lone ESC as the Escape key. Legacy Alt+key input is ESC plus
 * another byte, so high-latency transports need a longer reassembly window.
 */
export function resolveEscapeTimeoutMs(env: EnvRecord = processEnv()): number {
  const configured = Number(env.PI_TUI_ESC_TIMEOUT);
  if (Number.isFinite(configured) && configured > 0) return configured;
  if (env.SSH_CONNECTION || env.SSH_TTY) return DEFAULT_SSH_ESCAPE_TIMEOUT_MS;
  return DEFAULT_ESCAPE_TIMEOUT_MS;
}
