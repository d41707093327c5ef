/**
 * The llama.cpp router's address as pi 1.6.0 writes it: `http(s)://host[:port][/path]` without
 * `/v1`, a query, a fragment or a trailing slash; the OpenAI-compatible API is at `<url>/v1`.
 * Also the byte sizes its `/llama` shows.
 *
 * @module
 */

/** The provider id, the key of auth.json and models-store.json. */
export const LLAMA_PROVIDER_ID = "llama.cpp";

/** Where the router listens unless told otherwise (`llama serve`'s default port). */
export const DEFAULT_LLAMA_SERVER_URL = "http://127.0.0.1:9931";

/** `value` as a router URL; throws for a URL that is not http or https. */
export function normalizeLlamaServerUrl(value: string): string {
  const url = new URL(value.trim());
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error("Server URL must use http or https");
  }
  url.hash = "";
  url.search = "";
  url.pathname = url.pathname.replace(/\/+$/u, "").replace(/\/v1$/u, "") || "/";
  return url.toString().replace(/\/$/u, "");
}

/** The OpenAI-compatible base URL of the router at `serverUrl`. */
export function llamaInferenceUrl(serverUrl: string): string {
  return `${normalizeLlamaServerUrl(serverUrl)}/v1`;
}

/** Bytes in binary units: `512 B`, `1.50 KiB`, `12.3 GiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = bytes / 1024;
  let unit = units[0];
  for (let index = 1; index < units.length && value >= 1024; index++) {
    value /= 1024;
    unit = units[index];
  }
  return `${value >= 10 ? value.toFixed(1) : value.toFixed(2)} ${unit}`;
}
