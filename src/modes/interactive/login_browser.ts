/**
 * Opens a sign-in URL in the user's browser for `/login`, as pi 1.6.0 does when a flow shows its URL.
 * The platform's opener is started and forgotten; without one (a server, a test) nothing happens and
 * the URL on screen is the way in.
 *
 * @module
 */

/** Starts the platform's URL opener for `url` (http/https only); failures are ignored. */
export function openBrowser(url: string): void {
  const [cmd, args] = Deno.build.os === "darwin"
    ? ["open", [url]]
    : Deno.build.os === "windows"
    ? ["rundll32", ["url.dll,FileProtocolHandler", url]]
    : ["xdg-open", [url]];
  try {
    const child = new Deno.Command(cmd, { args, cwd: "/", stdin: "null", stdout: "null", stderr: "null" })
      .spawn();
    child.status.catch(() => {});
    child.unref();
  } catch {
    // Best effort: the URL is on screen anyway.
  }
}
