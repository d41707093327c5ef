/**
 * The few `node:os` answers pi needs, read the way Node reads them, so start-up does not load
 * Deno's Node compatibility layer.
 *
 * @module
 */

/** Whether pi runs on Windows (Node's `process.platform === "win32"`). */
export function isWindows(): boolean {
  return Deno.build.os === "windows";
}

/**
 * The user's home folder like Node's `os.homedir()`: $HOME first (USERPROFILE on Windows),
 * else the account database entry of the current user.
 */
export function homeDir(): string {
  if (isWindows()) {
    const profile = Deno.env.get("USERPROFILE");
    if (profile) return profile;
    const drive = Deno.env.get("HOMEDRIVE") ?? "";
    const path = Deno.env.get("HOMEPATH") ?? "";
    return drive + path;
  }
  const home = Deno.env.get("HOME");
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
export function tmpDir(): string {
  if (isWindows()) {
    let path = Deno.env.get("TEMP") || Deno.env.get("TMP") ||
      `${Deno.env.get("SystemRoot") || Deno.env.get("windir")}\\temp`;
    if (path.length > 1 && path.endsWith("\\") && !path.endsWith(":\\")) path = path.slice(0, -1);
    return path;
  }
  let path = Deno.env.get("TMPDIR") || Deno.env.get("TMP") || Deno.env.get("TEMP") || "/tmp";
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  return path;
}
