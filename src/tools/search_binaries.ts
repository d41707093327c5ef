/**
 * Locates the external search programs (ripgrep, fd) the grep and find tools prefer.
 *
 * Lookup order follows the reference: pi's managed folder (`<agent dir>/bin`, honouring
 * PI_CODING_AGENT_DIR) first, then PATH under each known name (Debian ships fd as `fdfind`).
 * Unlike the reference we never download: a missing binary means the built-in walker is used.
 *
 * @module
 */
import { isWindows } from "../util/os.ts";
import { getBinDir } from "../config/paths.ts";
import { delimiter, join } from "../util/path.ts";
import { getToolSandbox } from "./sandbox_state.ts";

/** The search programs the tools know how to drive. */
export type SearchBinary = "rg" | "fd";

const SYSTEM_NAMES: Record<SearchBinary, string[]> = {
  rg: ["rg"],
  fd: ["fd", "fdfind"],
};

function isExecutableFile(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    if (!info.isFile) return false;
    return isWindows() || ((info.mode ?? 0o111) & 0o111) !== 0;
  } catch {
    return false;
  }
}

const cache = new Map<string, string | null>();

/**
 * Absolute path of `tool`, or null when neither the managed folder nor PATH has it.
 * Results are memoised per (tool, bin dir, PATH) so repeated tool calls stay cheap. `binDir`
 * replaces the managed folder (tests pass an empty one so a user's own binaries never count).
 */
export function findSearchBinary(tool: SearchBinary, binDir: string = getBinDir()): string | null {
  const exe = isWindows() ? ".exe" : "";
  const pathValue = Deno.env.get("PATH") ?? "";
  const key = `${tool}\0${binDir}\0${pathValue}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  let found: string | null = null;
  const local = join(binDir, tool + exe);
  if (isExecutableFile(local)) found = local;
  for (const name of SYSTEM_NAMES[tool]) {
    if (found) break;
    for (const dir of pathValue.split(delimiter)) {
      if (!dir) continue;
      const candidate = join(dir, name + exe);
      if (isExecutableFile(candidate)) {
        found = candidate;
        break;
      }
    }
  }
  cache.set(key, found);
  return found;
}

/**
 * How grep/find pick their backend: `undefined` = locate the binary, `null` = force the
 * built-in walker, a string = use that executable.
 */
export type SearchBinaryOption = string | null | undefined;

/** Resolves a {@link SearchBinaryOption} to an executable path or null (walker). */
export function resolveSearchBinary(
  tool: SearchBinary,
  option: SearchBinaryOption,
  binDir?: string,
): string | null {
  // A confined pi cannot confine rg or fd: the walker reads through pi's own permissions.
  if (option === null || getToolSandbox()) return null;
  if (typeof option === "string") return option;
  return findSearchBinary(tool, binDir);
}
