/**
 * The few `node:os` answers pi needs, read the way Node reads them, so start-up does not load
 * Deno's Node compatibility layer.
 *
 * @module
 */

/** Where the functions below read environment variables: `Deno.env`, or a test's own map. */
export interface EnvSource {
  /** The variable's value, or undefined when it is not set. */
  get(name: string): string | undefined;
}

/** Whether pi runs on Windows (Node's `process.platform === "win32"`). */
export function isWindows(): boolean {
  return Deno.build.os === "windows";
}

/**
 * The user's home folder like Node's `os.homedir()`: $HOME first (USERPROFILE on Windows),
 * else the account database entry of the current user.
 */
export function homeDir(env: EnvSource = Deno.env): string {
  if (isWindows()) {
    const profile = env.get("USERPROFILE");
    if (profile) return profile;
    const drive = env.get("HOMEDRIVE") ?? "";
    const path = env.get("HOMEPATH") ?? "";
    return drive + path;
  }
  const home = env.get("HOME");
  if (home) return home;
  return passwdHome() ?? "";
}

/** The home folder of the current uid from /etc/passwd, as getpwuid would give it. */
function passwdHome(): string | undefined {
  try {
    const uid = String(Deno.uid());
    for (const line of Deno.readTextFileSync("/etc/passwd").split("\n")) {
      const fields = line.split(":");
      if (fields.length >= 6 && fields[2] === uid) return fields[5];
    }
  } catch {
    // No readable account database: Node would fail too; callers get "".
  }
  return undefined;
}

/**
 * The temp folder like Node's `os.tmpdir()`: TMPDIR, TMP, TEMP, else /tmp, without a trailing
 * separator (TEMP, TMP, %SystemRoot%\temp on Windows).
 */
export function tmpDir(env: EnvSource = Deno.env): string {
  if (isWindows()) {
    let path = env.get("TEMP") || env.get("TMP") ||
      `${env.get("SystemRoot") || env.get("windir")}\\temp`;
    if (path.length > 1 && path.endsWith("\\") && !path.endsWith(":\\")) path = path.slice(0, -1);
    return path;
  }
  let path = env.get("TMPDIR") || env.get("TMP") || env.get("TEMP") || "/tmp";
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  return path;
}
