/**
 * pi 1.6.0's tmux keyboard check: inside tmux (TMUX set), extended keys off means modified Enter
 * keys (Alt+Enter for a follow-up) do not reach pi, and the xterm key format is worse than
 * csi-u; either gives a warning in the chat. A tmux that cannot be asked gives none.
 *
 * @module
 */

async function tmuxOption(option: string): Promise<string | undefined> {
  try {
    const child = new Deno.Command("tmux", { args: ["show", "-gv", option], stdout: "piped", stderr: "null" })
      .spawn();
    const timer = setTimeout(() => child.kill(), 2000);
    const out = await child.output().finally(() => clearTimeout(timer));
    return out.success ? new TextDecoder().decode(out.stdout).trim() : undefined;
  } catch {
    return undefined;
  }
}

/** The warning for this tmux's keyboard set-up, if any (undefined outside tmux). */
export async function tmuxKeyboardWarning(env: { TMUX?: string } = { TMUX: Deno.env.get("TMUX") }): Promise<
  string | undefined
> {
  if (!env.TMUX) return undefined;
  const [extendedKeys, format] = await Promise.all([
    tmuxOption("extended-keys"),
    tmuxOption("extended-keys-format"),
  ]);
  if (extendedKeys === undefined) return undefined;
  if (extendedKeys !== "on" && extendedKeys !== "always") {
    return "tmux extended-keys is off. Modified Enter keys may not work. Add `set -g extended-keys on` to ~/.tmux.conf and restart tmux.";
  }
  if (format === "xterm") {
    return "tmux extended-keys-format is xterm. Pi works best with csi-u. Add `set -g extended-keys-format csi-u` to ~/.tmux.conf and restart tmux.";
  }
  return undefined;
}
