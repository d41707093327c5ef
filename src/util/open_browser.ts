/**
 * Opening a URL in the user's browser, as pi 1.6.0 does when a sign-in flow shows its URL (`pi auth login`,
 * `/login`). The platform's opener is started and forgotten; without one (a server, a test) nothing happens
 * and the URL, which the caller also shows, is the way in.
 *
 * @module
 */

/** Starts the platform's URL opener for `url`; failures (no opener installed) are ignored. */
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
