/**
 * Installs a `pi` command that runs this checkout's `main.ts` from any folder: `deno task install`.
 *
 * Unlike `deno install -g` (which copies deno.json next to the shim, re-resolves every npm package
 * into a second node_modules and ignores deno.lock), the command uses this checkout's deno.json,
 * deno.lock and node_modules, with `--frozen`: exactly the locked versions, nothing downloaded
 * twice. The shim names the checkout's folder, so after moving the checkout run
 * `deno task install` again in its new place; until then the command says so and exits 1.
 *
 * Usage: `deno run -A scripts/install.ts [--root DIR] [--name NAME]`
 * (default root: `$DENO_INSTALL_ROOT`, else `~/.deno`; the command goes into `<root>/bin`).
 *
 * @module
 */
import { REPO_ROOT } from "./reference/locate.ts";
import { readPiTask } from "./release/pi_task.ts";

/**
 * The flags `deno task pi` runs main.ts with, read from its task (scripts/release/pi_task.ts, as the
 * release build does); the shim uses the same, but for `--quiet`, so that deno's own errors show.
 */
const RUN_FLAGS = (await readPiTask()).flags.filter((flag) => flag !== "--quiet");

function option(name: string): string | undefined {
  const at = Deno.args.indexOf(name);
  return at >= 0 ? Deno.args[at + 1] : undefined;
}

/** Quotes `text` for a POSIX shell. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The shim's text: runs main.ts of `repo`, or says the checkout is gone. */
export function shimText(repo: string): string {
  const q = shellQuote(repo);
  return `#!/bin/sh
# pi for Deno: runs main.ts of the checkout below with its deno.json and deno.lock.
# Written by scripts/install.ts; after moving the checkout, run \`deno task install\` there again.
repo=${q}
if [ ! -f "$repo/main.ts" ] || [ ! -f "$repo/deno.json" ]; then
  echo "pi: the checkout at $repo is gone (moved or deleted): run 'deno task install' in its new place" >&2
  exit 1
fi
exec deno run ${RUN_FLAGS.join(" ")} --config "$repo/deno.json" "$repo/main.ts" "$@"
`;
}

async function main(): Promise<number> {
  const home = Deno.env.get("HOME") ?? "";
  const root = option("--root") ?? Deno.env.get("DENO_INSTALL_ROOT") ?? `${home}/.deno`;
  const name = option("--name") ?? "pi";
  // Fill node_modules with exactly the locked versions of what main.ts imports (lazy imports too).
  const install = await new Deno.Command(Deno.execPath(), {
    args: ["install", "--frozen", "--entrypoint", "main.ts"],
    cwd: REPO_ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!install.success) {
    const why = new TextDecoder().decode(install.stderr).trim();
    console.error(`deno install --frozen --entrypoint main.ts failed:\n${why}`);
    return 1;
  }
  const bin = `${root}/bin`;
  const shim = `${bin}/${name}`;
  await Deno.mkdir(bin, { recursive: true });
  await Deno.writeTextFile(shim, shimText(REPO_ROOT), { mode: 0o755 });
  await Deno.chmod(shim, 0o755);
  console.log(`installed ${shim} (runs ${REPO_ROOT}/main.ts)`);
  const path = (Deno.env.get("PATH") ?? "").split(":");
  if (!path.includes(bin)) console.log(`add ${bin} to PATH to run it as \`${name}\``);
  return 0;
}

if (import.meta.main) Deno.exit(await main());
