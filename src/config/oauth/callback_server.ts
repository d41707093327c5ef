/**
 * Loopback HTTP server that receives the browser's OAuth redirect (`/callback?code=…&state=…`) for the
 * browser sign-in flows, plus the race between that redirect and a code the user pastes by hand (a
 * browser on another machine cannot reach 127.0.0.1). Uses `Deno.serve`; only the lazily loaded login
 * flows import this file.
 *
 * @module
 */

/** Options of {@link startOAuthCallbackServer}. */
export interface OAuthCallbackServerOptions<T> {
  /** Provider name shown on the browser page and in errors, e.g. `Anthropic`. */
  providerName: string;
  /** Address to listen on, normally `127.0.0.1`. */
  host: string;
  /** Port to listen on; `0` picks a free one. A busy port rejects (callers fall back to `0` as 1.6.0). */
  port: number;
  /** The only path answered, e.g. `/callback`; other paths get a 404 page. */
  path: string;
  /** Host written into `redirectUri` when it differs from `host`, e.g. `localhost`. */
  redirectHost?: string;
  /** Expected `state` query value; a different one gets a 400 page and the wait goes on. Omit when none is sent. */
  state?: string;
  /**
   * Finishes the sign-in with the received code before the page is sent, so the page can show an
   * exchange failure. Pass `async (code) => code` to exchange later.
   */
  complete: (code: string) => Promise<T>;
  /** Aborting rejects `wait()` with `Login cancelled`. */
  signal?: AbortSignal;
  /** Rejects `wait()` with `<providerName> sign-in timed out` after this many ms. */
  timeoutMs?: number;
}

/** A running callback server. */
export interface OAuthCallbackServer<T> {
  /** `http://<redirectHost or host>:<bound port><path>`, IPv6 hosts in brackets. */
  redirectUri: string;
  /**
   * Resolves with `complete`'s result, or `undefined` after `cancel()`. Rejects when the provider
   * redirects with `error` (`<providerName> authorization failed: <description>`), `complete` throws,
   * the signal aborts, the timeout elapses or the server is closed first.
   */
  wait(): Promise<T | undefined>;
  /** Stops waiting (wait() resolves `undefined`) unless a callback is already being completed. */
  cancel(): void;
  /** Settles a pending wait with an error and stops the server; the promise resolves once it has stopped. */
  close(): Promise<void>;
}

/** Title and heading of the page sent after a successful sign-in. */
const SUCCESS_TITLE = "Authentication successful";
/** Title and heading of the page sent when sign-in failed. */
const FAILURE_TITLE = "Authentication failed";

function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

/**
 * The small self-contained page the browser shows after the redirect: `title` as title and heading,
 * `message` below, optional `details` in monospace. Every text is HTML-escaped.
 */
export function oauthResultPage(title: string, message: string, details?: string): string {
  const extra = details ? `\n    <pre>${escapeHtml(details)}</pre>` : "";
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>${escapeHtml(title)}</title>
  <style>
    body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center;
      background: #09090b; color: #fafafa; font-family: system-ui, sans-serif; text-align: center; }
    p, pre { color: #a1a1aa; }
    pre { white-space: pre-wrap; word-break: break-word; }
  </style>
</head>
<body>
  <main>
    <h1>${escapeHtml(title)}</h1>
    <p>${escapeHtml(message)}</p>${extra}
  </main>
</body>
</html>
`;
}

function page(status: number, title: string, message: string, details?: string): Response {
  return new Response(oauthResultPage(title, message, details), {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}

type Settlement<T> = { value: T | undefined } | { error: Error };

/**
 * Starts the loopback server and resolves once it listens. Rejects with `Login cancelled` when the
 * signal has already aborted, and with the bind error (e.g. `Deno.errors.AddrInUse`) when the port
 * cannot be bound. The first valid `GET <path>?code=…` is "claimed": later callbacks get a 409 page.
 * Answers: wrong method/path 404, state mismatch 400, missing code 400, provider `error` 400 (and the
 * wait rejects), `complete` failure 502 (and the wait rejects), success 200.
 */
// async so that a synchronous bind error from Deno.serve becomes a rejection, as callers chain `.catch`.
// deno-lint-ignore require-await
export async function startOAuthCallbackServer<T>(
  options: OAuthCallbackServerOptions<T>,
): Promise<OAuthCallbackServer<T>> {
  const { providerName, signal } = options;
  if (signal?.aborted) throw new Error("Login cancelled");
  let settle!: (result: Settlement<T>) => void;
  const settled = new Promise<Settlement<T>>((resolve) => settle = resolve);
  let done = false;
  let claimed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const finish = (result: Settlement<T>) => {
    if (done) return;
    done = true;
    if (timer !== undefined) clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
    settle(result);
  };
  const onAbort = () => finish({ error: new Error("Login cancelled") });

  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (request.method !== "GET" || url.pathname !== options.path) {
      return page(404, FAILURE_TITLE, "Callback route not found.");
    }
    if (options.state !== undefined && url.searchParams.get("state") !== options.state) {
      return page(400, FAILURE_TITLE, "State mismatch.");
    }
    if (claimed || done) return page(409, FAILURE_TITLE, "This sign-in has already been handled.");
    const error = url.searchParams.get("error");
    if (error) {
      const description = url.searchParams.get("error_description") ?? error;
      finish({ error: new Error(`${providerName} authorization failed: ${description}`) });
      return page(400, FAILURE_TITLE, `${providerName} authorization failed.`, description);
    }
    const code = url.searchParams.get("code");
    if (!code) return page(400, FAILURE_TITLE, "Missing authorization code.");
    claimed = true;
    try {
      const value = await options.complete(code);
      finish({ value });
      return page(200, SUCCESS_TITLE, `Signed in to ${providerName}. You may now close this page.`);
    } catch (caught) {
      const failure = caught instanceof Error ? caught : new Error(String(caught));
      finish({ error: failure });
      return page(502, FAILURE_TITLE, `${providerName} sign-in failed.`, failure.message);
    }
  };

  // Deno.serve throws synchronously when the port is taken; onListen is silenced because Deno
  // would otherwise print "Listening on …" to stdout.
  const server = Deno.serve({ hostname: options.host, port: options.port, onListen: () => {} }, handler);
  signal?.addEventListener("abort", onAbort, { once: true });
  if (options.timeoutMs !== undefined) {
    timer = setTimeout(
      () => finish({ error: new Error(`${providerName} sign-in timed out`) }),
      options.timeoutMs,
    );
  }
  const redirectHost = options.redirectHost ?? options.host;
  const hostPart = redirectHost.includes(":") ? `[${redirectHost}]` : redirectHost;
  let closed: Promise<void> | undefined;
  return {
    redirectUri: `http://${hostPart}:${server.addr.port}${options.path}`,
    wait: async () => {
      const result = await settled;
      if ("error" in result) throw result.error;
      return result.value;
    },
    cancel: () => {
      if (!claimed) finish({ value: undefined });
    },
    close: () => {
      finish({ error: new Error("OAuth callback server closed") });
      closed ??= server.shutdown();
      return closed;
    },
  };
}

/** Asks the user to paste the code or redirect URL; rejects when cancelled. `signal` aborts when the callback won. */
export type ManualCodeInput = (prompt: {
  message: string;
  placeholder: string;
  signal: AbortSignal;
}) => Promise<string>;

/** Which way the code arrived: the callback server's value, or the text the user pasted. */
export type CallbackOrManualResult<T> = { type: "callback"; value: T } | { type: "manual"; input: string };

/**
 * Races the browser callback against the manual prompt, as 1.6.0. The prompt (when given) starts at
 * once; an answer cancels the callback wait, a callback aborts the prompt's signal. Returns the
 * callback value when one arrived, else the pasted text ("" when there was neither). Throws the
 * callback's error, or the prompt's rejection (e.g. the user cancelled).
 */
export async function waitForCallbackOrManualInput<T>(
  manual: ManualCodeInput | undefined,
  callback: OAuthCallbackServer<T> | undefined,
  prompt: { message: string; placeholder: string },
): Promise<CallbackOrManualResult<T>> {
  const manualAbort = new AbortController();
  let manualError: Error | undefined;
  const manualAnswer = manual
    ? manual({ ...prompt, signal: manualAbort.signal }).then(
      (input) => {
        callback?.cancel();
        return input;
      },
      (error) => {
        manualError = error instanceof Error ? error : new Error(String(error));
        callback?.cancel();
        return undefined;
      },
    )
    : Promise.resolve(undefined);
  try {
    const value = await callback?.wait();
    if (manualError) throw manualError;
    if (value !== undefined) return { type: "callback", value };
    const input = await manualAnswer;
    if (manualError) throw manualError;
    return { type: "manual", input: input ?? "" };
  } finally {
    manualAbort.abort();
  }
}
