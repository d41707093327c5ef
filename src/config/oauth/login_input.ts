/**
 * Small pieces every browser/device login flow needs on top of {@link OAuthLoginCallbacks}: choosing
 * the login method, the manual-code prompt in the shape the callback server races, reading what the
 * user pasted, and showing a device code.
 *
 * @module
 */

import type { OAuthDeviceCodeInfo, OAuthLoginCallbacks, OAuthSelectOption } from "../oauth_registry.ts";
import type { ManualCodeInput } from "./callback_server.ts";

/** What a pasted answer contained: the code and, when present, the state. */
export interface AuthorizationInput {
  code?: string;
  state?: string;
}

/**
 * Reads the user's paste as 1.6.0 does: a full redirect URL (`…?code=…&state=…`), `code#state`, a
 * query string containing `code=`, or the bare code. Empty input gives `{}`.
 */
export function parseAuthorizationInput(input: string): AuthorizationInput {
  const value = input.trim();
  if (!value) return {};
  if (URL.canParse(value)) {
    const url = new URL(value);
    return {
      code: url.searchParams.get("code") ?? undefined,
      state: url.searchParams.get("state") ?? undefined,
    };
  }
  if (value.includes("#")) {
    const [code, state] = value.split("#", 2);
    return { code, state };
  }
  if (value.includes("code=")) {
    const params = new URLSearchParams(value);
    return { code: params.get("code") ?? undefined, state: params.get("state") ?? undefined };
  }
  return { code: value };
}

/**
 * Asks which login method to use through `onSelect`; the first option when the caller has no selector.
 * Throws `Login cancelled` when the selector returns nothing.
 */
export async function chooseLoginMethod(
  callbacks: OAuthLoginCallbacks,
  message: string,
  options: OAuthSelectOption[],
): Promise<string> {
  if (!callbacks.onSelect) return options[0].id;
  const chosen = await callbacks.onSelect({ message, options });
  if (chosen === undefined) throw new Error("Login cancelled");
  return chosen;
}

/**
 * The manual-code prompt as the callback-server race wants it: `onManualCodeInput` (given the race's
 * signal), else `onPrompt` with the message and placeholder; undefined when the caller has neither.
 */
export function manualCodeInputFrom(callbacks: OAuthLoginCallbacks): ManualCodeInput | undefined {
  if (callbacks.onManualCodeInput) {
    const ask = callbacks.onManualCodeInput;
    return ({ signal, message, placeholder }) => ask(signal, { message, placeholder });
  }
  return ({ message, placeholder }) => callbacks.onPrompt({ message, placeholder });
}

/** Shows a device code through `onDeviceCode`, else as an `onAuth` URL with "Enter code: …". */
export function showDeviceCode(callbacks: OAuthLoginCallbacks, info: OAuthDeviceCodeInfo): void {
  if (callbacks.onDeviceCode) callbacks.onDeviceCode(info);
  else callbacks.onAuth({ url: info.verificationUri, instructions: `Enter code: ${info.userCode}` });
}

/** The login's abort signal, or one that never aborts. */
export function loginSignal(callbacks: OAuthLoginCallbacks): AbortSignal {
  return callbacks.signal ?? new AbortController().signal;
}
