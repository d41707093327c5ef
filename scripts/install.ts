/**
 * Installs a `pi` command that runs this checkout's `main.ts` from any folder: `deno task install`.
 *
 * Unlike `deno install -g` (which copies deno.json next to the shim, re-resolves every npm package
 * into a second node_modules and ignores deno.lock), the command uses this checkout's deno.json,
 * deno.lock and node_modules, with `--frozen`: exactly the locked versions, nothing downloaded
 * twice. The shim names the checkout's folder, so after moving the checkout run
 * `deno task install` again in its new place; until then the command says so and exits 1.
 *
 * Under a sandbox profile (`--sandbox read-only|project`, or `"sandbox"` in settings.json) the
 * command starts Deno with the profile's permission flags itself when pi recorded them for the
 * same inputs before, so a confined run is one process (src/cli/sandbox_plan_cache.ts explains the
 * cache and how pi checks what it was started with). The shim is POSIX sh using only coreutils.
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

/** The same flags without the permissions, which a cached sandbox plan supplies instead. */
const CONFINED_RUN_FLAGS = RUN_FLAGS.filter((flag) => !/^(-A|--allow-|--deny-|--no-prompt$)/.test(flag));

/** The first arguments that run a subcommand, which never runs confined (src/cli/sandbox.ts). */
const SUBCOMMANDS = "auth|install|remove|uninstall|update|list|config|mcp";

/** The permission flags a cached plan may hold (src/config/sandbox_profile.ts writes no others). */
const PLAN_FLAG_PATTERNS =
  "--no-prompt|--allow-env|--allow-sys|--allow-read=?*|--allow-write=?*|--allow-net=?*|--allow-run=?*|--deny-write=?*";

function option(name: string): string | undefined {
  const at = Deno.args.indexOf(name);
  return at >= 0 ? Deno.args[at + 1] : undefined;
}

/** Quotes `text` for a POSIX shell. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The shim's text: runs main.ts of `repo`, or says the checkout is gone. Under a sandbox profile it
 * looks up the plan pi recorded for this folder, profile, environment and settings (the entry's
 * name hashes them all, so changing any of them is a miss) and execs Deno confined with it, telling
 * pi which plan it used; pi checks it against its current plan before it does anything.
 */
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
# Sandbox profiles (docs/security.md): start Deno with the permissions pi recorded for the same
# inputs, in one process; pi checks them against its current plan and stops on any difference.
agent=\${PI_CODING_AGENT_DIR:-\${HOME-}/.pi/agent}
case $agent in "~") agent=\${HOME-} ;; "~/"*) agent=\${HOME-}/\${agent#"~/"} ;; esac
plans=$agent/sandbox-plans
sandbox= launcher=1 prev=
case \${1-} in ${SUBCOMMANDS}) launcher= ;; esac
for arg in "$@"; do
  case $prev in --sandbox) sandbox=$arg ;; esac
  case $arg in --session|--fork|--session-dir) launcher= ;; esac
  prev=$arg
done
[ "$sandbox" = full ] && launcher=
if [ -n "$launcher" ]; then
  PI_SANDBOX_LAUNCHER=1
  export PI_SANDBOX_LAUNCHER
fi
if [ -n "$launcher" ] && { [ -n "$sandbox" ] || [ -d "$plans" ]; }; then
  bwrap= nl='
'
  set -f
  IFS=:
  for dir in \${PATH-}; do
    if [ -n "$dir" ] && [ -f "$dir/bwrap" ] && [ -x "$dir/bwrap" ]; then bwrap=$dir/bwrap; break; fi
  done
  unset IFS
  name=$({ printf '%s\\n' 'pi sandbox plan 1' "$repo" "$(pwd -P)" "$sandbox" "\${HOME-}" \\
    "\${PI_CODING_AGENT_DIR-}" "\${PI_CODING_AGENT_SESSION_DIR-}" "\${TMPDIR-}" "\${TMP-}" "\${TEMP-}" "$bwrap"
    sha256sum -- "$agent/settings.json" "$agent/models.json" 2>/dev/null; } | sha256sum 2>/dev/null) || name=
  name=\${name%% *}
  plan=$plans/$name
  stale=$agent/cache/sandbox-plans/$name.stale
  if [ -e "$stale" ]; then rm -f -- "$plan" "$stale"; fi
  if [ -n "$name" ] && [ -f "$plan" ]; then
    flags= ok=1
    while IFS= read -r line; do
      case $line in ${PLAN_FLAG_PATTERNS}) ;; *) ok= ;; esac
      flags=$flags$line$nl
    done <"$plan"
    if [ -n "$ok" ] && [ -n "$flags" ]; then
      PI_SANDBOX_FLAGS=\${flags%"$nl"} PI_SANDBOX_PLAN_FILE=$plan
      export PI_SANDBOX_FLAGS PI_SANDBOX_PLAN_FILE
      IFS=$nl
      exec deno run ${
    CONFINED_RUN_FLAGS.join(" ")
  } --config "$repo/deno.json" $PI_SANDBOX_FLAGS "$repo/main.ts" "$@"
    fi
    rm -f -- "$plan"
  fi
  set +f
  [ -n "$name" ] && PI_SANDBOX_PLAN_FILE=$plan && export PI_SANDBOX_PLAN_FILE
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
