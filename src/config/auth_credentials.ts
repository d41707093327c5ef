/**
 * The records of auth.json (1.6.0's format, field for field) and the check that tells a usable
 * entry from one to skip with a warning.
 *
 * @module
 */

import type { OAuthCredentials } from "./oauth_registry.ts";

/**
 * A stored API key: literal text with `$NAME` / `${NAME}` variables, or `!command`. `env` supplies variables
 * for this entry only (they win over the process environment).
 */
export type ApiKeyCredential = { type: "api_key"; key?: string; env?: Record<string, string> };
/** Stored OAuth tokens. */
export type OAuthCredential = { type: "oauth" } & OAuthCredentials;
/** One auth.json record. */
export type AuthCredential = ApiKeyCredential | OAuthCredential;
/** The whole auth.json document, keyed by provider id. */
export type AuthStorageData = Record<string, AuthCredential>;

function isStringRecord(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    Object.values(value).every((entry) => typeof entry === "string");
}

/** Why an auth.json entry is not a usable credential (1.6.0's rules), or undefined when it is. */
export function credentialProblem(entry: unknown): string | undefined {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
    return 'expected an object such as {"type": "api_key", "key": "..."}';
  }
  const value = entry as Record<string, unknown>;
  if (value.type === "api_key") {
    if (value.key !== undefined && typeof value.key !== "string") return '"key" must be a string';
    if (value.env !== undefined && !isStringRecord(value.env)) return '"env" must be an object of strings';
    return undefined;
  }
  if (value.type === "oauth") {
    const ok = typeof value.access === "string" && typeof value.refresh === "string" &&
      typeof value.expires === "number" && Number.isFinite(value.expires);
    return ok ? undefined : 'OAuth entries need "access" and "refresh" strings and an "expires" number';
  }
  return '"type" must be "api_key" or "oauth"';
}
