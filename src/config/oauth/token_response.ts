/**
 * Reading OAuth token-endpoint replies without ever putting a token into an error message: a failure
 * names the HTTP status and the server's `error` / `error_description` (or a short cut of a non-JSON
 * body), never the whole body, and a malformed success reply is described, not quoted.
 *
 * @module
 */

/** Each token request gives up after this long (1.6.0's 30 s). */
export const TOKEN_REQUEST_TIMEOUT_MS = 30_000;

/** Longest excerpt of a non-JSON error body quoted in a message. */
const BODY_EXCERPT = 200;

/**
 * `HTTP <status>` plus what the server said: `error: error_description` from a JSON body (OAuth's
 * `{error, error_description}` or OpenAI's `{error: {code, message}}`), else the first 200
 * characters of a text body. Consumes the body.
 */
export async function describeTokenError(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  let detail = "";
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    const error = json.error;
    if (typeof error === "string") {
      detail = typeof json.error_description === "string" ? `${error}: ${json.error_description}` : error;
    } else if (typeof error === "object" && error !== null) {
      const { code, message } = error as Record<string, unknown>;
      detail = [code, message].filter((part) => typeof part === "string").join(": ");
    }
  } catch {
    detail = text.trim().slice(0, BODY_EXCERPT);
  }
  return `HTTP ${response.status}${detail ? ` (${detail})` : ""}`;
}

/** The reply's JSON object; throws `<what> reply is not a JSON object` (without quoting it) otherwise. */
export async function readTokenJson(response: Response, what: string): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    const json = JSON.parse(text);
    if (typeof json === "object" && json !== null && !Array.isArray(json)) return json;
  } catch {
    // fall through to the error below
  }
  throw new Error(`${what} reply is not a JSON object`);
}
