/**
 * `app.clipboard.pasteImage` (Ctrl+V; pi 1.6.0's handleClipboardPaste): an image on the system
 * clipboard is saved as `pi-clipboard-<uuid>.<ext>` in the temp folder and its path typed into the
 * editor (the `@`/path handling then attaches it); otherwise the clipboard's text is typed in. On
 * Linux the clipboard is read with `wl-paste` (Wayland or WSL) and `xclip`, as 1.6.0 does; this build
 * has no native clipboard helper, so elsewhere (macOS, Windows) there is nothing to paste from.
 *
 * @module
 */
import { tmpDir } from "../../util/os.ts";
import { join } from "../../util/path.ts";

/** The image types pi attaches as they are, in 1.6.0's order of preference. */
const SUPPORTED = ["image/png", "image/jpeg", "image/webp", "image/gif"];
const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
};

/** `image/png; charset=…` → `image/png`. */
function baseType(mime: string): string {
  return (mime.split(";")[0] ?? mime).trim().toLowerCase();
}

/**
 * Runs a clipboard tool from `/` with a deadline; its output, or undefined when it is missing,
 * fails or takes too long (1.6.0's runClipboardCommand).
 */
async function runTool(command: string, args: string[], timeoutMs = 3000): Promise<Uint8Array | undefined> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(command, { args, cwd: "/", stdin: "null", stdout: "piped", stderr: "null" })
      .spawn();
  } catch {
    return undefined;
  }
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }, timeoutMs);
  try {
    const output = await child.output();
    return output.success ? output.stdout : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/** The supported image type to ask for among `types` (any image type when none is supported). */
function preferredType(types: string[]): string | null {
  for (const wanted of SUPPORTED) {
    const match = types.find((t) => baseType(t) === wanted);
    if (match) return match;
  }
  return types.find((t) => baseType(t).startsWith("image/")) ?? null;
}

/** Undefined: the tool failed; null: no image. */
async function imageVia(
  list: [string, string[]],
  read: (type: string) => [string, string[]],
): Promise<{ bytes: Uint8Array; mimeType: string } | null | undefined> {
  const listed = await runTool(list[0], list[1], 1000);
  if (listed === undefined) return undefined;
  const types = new TextDecoder().decode(listed).split(/\r?\n/).map((t) => t.trim()).filter(Boolean);
  const type = preferredType(types);
  if (!type) return null;
  const [command, args] = read(type);
  const bytes = await runTool(command, args);
  if (bytes === undefined) return undefined;
  return bytes.length === 0 ? null : { bytes, mimeType: baseType(type) };
}

/** The clipboard's image on Linux (wl-paste on Wayland/WSL, then xclip), or null. */
export async function readClipboardImage(
  env: Readonly<Record<string, string | undefined>> = Deno.env.toObject(),
): Promise<{ bytes: Uint8Array; mimeType: string } | null> {
  if (env.TERMUX_VERSION || Deno.build.os !== "linux") return null;
  let image: { bytes: Uint8Array; mimeType: string } | null | undefined;
  const wsl = Boolean(env.WSL_DISTRO_NAME || env.WSL_INTEROP);
  if (env.WAYLAND_DISPLAY || env.XDG_SESSION_TYPE === "wayland" || wsl) {
    image = await imageVia(
      ["wl-paste", ["--list-types"]],
      (t) => ["wl-paste", ["--type", t, "--no-newline"]],
    );
  }
  if (image === undefined) {
    image = await imageVia(
      ["xclip", ["-selection", "clipboard", "-t", "TARGETS", "-o"]],
      (t) => ["xclip", ["-selection", "clipboard", "-t", t, "-o"]],
    );
  }
  // Other formats would need converting to PNG, which this build cannot do: nothing to paste.
  if (!image || !SUPPORTED.includes(image.mimeType)) return null;
  return image;
}

/** The clipboard's text (wl-paste, xclip, xsel as the session has them), or null. */
export async function readClipboardText(
  env: Readonly<Record<string, string | undefined>> = Deno.env.toObject(),
): Promise<string | null> {
  const commands: [string, string[]][] = [];
  if (env.TERMUX_VERSION) commands.push(["termux-clipboard-get", []]);
  if (Deno.build.os === "linux") {
    if (env.WAYLAND_DISPLAY) commands.push(["wl-paste", ["--no-newline", "--type", "text"]]);
    if (env.DISPLAY) {
      commands.push(["xclip", ["-selection", "clipboard", "-out"]], ["xsel", ["--clipboard", "--output"]]);
    }
  }
  for (const [command, args] of commands) {
    const bytes = await runTool(command, args, 5000);
    if (bytes !== undefined) return new TextDecoder().decode(bytes) || null;
  }
  return null;
}

/** What pasting needs from the interactive mode. */
export interface ClipboardPasteHost {
  readonly editor: { insertTextAtCursor(text: string): void };
  readonly chat: { addNotice(kind: "error", text: string): void };
  requestRender(): void;
}

/** Ctrl+V: the clipboard's image (as a temp file's path), else its text, at the cursor. */
export async function pasteFromClipboard(app: ClipboardPasteHost): Promise<void> {
  try {
    const image = await readClipboardImage();
    if (image) {
      const path = join(
        tmpDir(),
        `pi-clipboard-${crypto.randomUUID()}.${EXTENSIONS[image.mimeType] ?? "png"}`,
      );
      await Deno.writeFile(path, image.bytes);
      app.editor.insertTextAtCursor(path);
      app.requestRender();
      return;
    }
    const text = await readClipboardText();
    if (text) {
      app.editor.insertTextAtCursor(text);
      app.requestRender();
    }
  } catch (error) {
    app.chat.addNotice(
      "error",
      `Failed to paste from clipboard: ${error instanceof Error ? error.message : String(error)}`,
    );
    app.requestRender();
  }
}
