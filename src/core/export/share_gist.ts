/**
 * Sharing a session as pi 1.6.0's `/share` does when the destination is a GitHub gist: export the
 * session to HTML in a temporary folder, check `gh auth status`, run `gh gist create
 * --public=false <file>`, and answer the viewer link (`https://pi.dev/session/#<gist id>`, or
 * `$PI_SHARE_VIEWER_URL#<id>`) and the gist's URL. Uses the real `gh` CLI; the interactive mode
 * calls this and shows the result.
 *
 * 1.6.0's other destination, a Radius artifact, needs the Radius provider and its login, which this
 * build does not have: with `sessionShareDestination: "radius"` this answers 1.6.0's "not
 * configured" error, and "auto" goes straight to the gist.
 *
 * @module
 */
import { readEnv } from "../../util/env.ts";
import { join } from "../../util/path.ts";
import type { ThemeJson } from "../../resources/themes/theme_schema.ts";

/** The viewer pi 1.6.0 links shared gists to. */
export const DEFAULT_SHARE_VIEWER_URL = "https://pi.dev/session/";

/** The part of a session sharing needs. */
export interface ShareableSession {
  /** Writes the session's HTML page to `outputPath` in `options.theme`'s colours; resolves the path. */
  exportToHtml(outputPath?: string, options?: { theme?: ThemeJson }): Promise<string>;
}

/** Options of {@link shareSessionAsGist}. */
export interface ShareOptions {
  /** The `sessionShareDestination` setting (default "auto"). */
  destination?: "auto" | "gist" | "radius";
  /** Environment additions for `gh` (e.g. its PATH), on top of the process's. */
  env?: Record<string, string>;
  /** Ends a running `gh gist create` (the user cancelled). */
  signal?: AbortSignal;
  /** The viewer URL; default `$PI_SHARE_VIEWER_URL` or {@link DEFAULT_SHARE_VIEWER_URL}. */
  viewerUrl?: string;
  /** The theme whose colours the shared page takes (1.6.0 shares in the theme in use). */
  theme?: ThemeJson;
}

/** A created share. */
export interface ShareResult {
  /** The viewer link for the gist. */
  shareUrl: string;
  /** The gist itself. */
  gistUrl: string;
}

/** A share that could not be made; the message is what 1.6.0 shows the user. */
export class ShareError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ShareError";
  }
}

interface GhRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function runGh(args: string[], options: ShareOptions): Promise<GhRun> {
  const child = new Deno.Command("gh", {
    args,
    env: options.env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const onAbort = () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already ended */ }
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const out = await child.output();
    const decoder = new TextDecoder();
    return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * Exports `session` and uploads it as a private gist. Throws a {@link ShareError} with 1.6.0's text
 * when `gh` is missing or not logged in, the export fails, or `gh gist create` fails (its stderr).
 */
export async function shareSessionAsGist(
  session: ShareableSession,
  options: ShareOptions = {},
): Promise<ShareResult> {
  if (options.destination === "radius") {
    throw new ShareError("Radius authentication is not configured. Run '/login radius' first.");
  }
  const dir = await Deno.makeTempDir({ prefix: "pi-share-" });
  try {
    let auth: GhRun;
    try {
      auth = await runGh(["auth", "status"], options);
    } catch {
      throw new ShareError("GitHub CLI (gh) is not installed. Install it from https://cli.github.com/");
    }
    if (auth.code !== 0) throw new ShareError("GitHub CLI is not logged in. Run 'gh auth login' first.");
    const htmlFile = join(dir, "session.html");
    try {
      await session.exportToHtml(htmlFile, { theme: options.theme });
    } catch (error) {
      throw new ShareError(
        `Failed to export session: ${error instanceof Error ? error.message : "Unknown error"}`,
      );
    }
    let created: GhRun;
    try {
      created = await runGh(["gist", "create", "--public=false", htmlFile], options);
    } catch (error) {
      throw new ShareError(
        `Failed to create gist: ${error instanceof Error ? error.message : "Unknown error"}`,
      );
    }
    if (created.code !== 0) {
      throw new ShareError(`Failed to create gist: ${created.stderr.trim() || "Unknown error"}`);
    }
    const gistUrl = created.stdout.trim();
    const gistId = gistUrl.split("/").pop();
    if (!gistId) throw new ShareError("Failed to parse gist ID from gh output");
    const viewer = options.viewerUrl ?? (readEnv("PI_SHARE_VIEWER_URL") || DEFAULT_SHARE_VIEWER_URL);
    return { shareUrl: `${viewer}#${gistId}`, gistUrl };
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
