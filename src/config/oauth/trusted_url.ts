/**
 * Guard for URLs that come from an OAuth server and are shown to the user or opened in a browser.
 *
 * @module
 */

/**
 * The normalized `http:`/`https:` URL that `value` names, or null for anything else (not a string,
 * unparsable, `file:`, `javascript:`, custom schemes). Login flows print and may open URLs supplied by
 * the server (device verification pages); the platform opener would also launch other schemes.
 * Normalizing percent-encodes control characters, so the result is safe inside a terminal hyperlink.
 */
export function trustedHttpUrl(value: unknown): string | null {
  if (typeof value !== "string" || !URL.canParse(value)) return null;
  const url = new URL(value);
  return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
}
