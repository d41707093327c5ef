#!/usr/bin/env bash
# Runs the suite as a new user on a fresh machine would, to show that the README's commands
# install what is needed: a clone of the committed HEAD in a temp folder, run by `.ci/run` with
#   - a new, empty HOME (so empty npm and Deno caches) and a new TMPDIR;
#   - a PATH of the system's tools without deno, rg, fd and fdfind (a folder of symlinks to
#     everything else in /usr/bin, /bin, /usr/sbin, /sbin), and an npm global prefix inside the
#     temp folder, where `.ci/run` installs Deno from npm;
#   - no reference pi installed and no PI_REFERENCE_* variables (`deno task test` installs it);
#   - the date a year from now (libfaketime's `faketime`, from Debian's package of that name;
#     the test helpers pass its variables on to every child they spawn). libfaketime moves the
#     clocks but not the times the kernel stamps on files (it cannot intercept statx), so a file
#     made now looks a year old; code that compares a file's age with the clock must not trust the
#     kernel's stamp (src/config/file_lock.ts stamps its locks with the process clock).
#   - once with CI=true and once without (each in its own clone, HOME and caches).
# Ends with the line "N passed, N failed" (both runs added up) and exits 0 only when both passed.
#
# Usage: bash scripts/fresh_machine_check.sh [ci|plain]   (default: both, one after the other)
# Needs: git, node/npm, faketime (installed with apt-get when missing and we are root).
set -uo pipefail

repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(ci plain)
work=$(mktemp -d "${TMPDIR:-/tmp}/pi-fresh-XXXXXX")
commit=$(git -C "$repo" rev-parse HEAD)
echo "fresh-machine check of ${commit:0:7} in $work"

if ! command -v faketime >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    (apt-get update -qq && apt-get install -y -qq faketime) >/dev/null 2>&1
  fi
  command -v faketime >/dev/null 2>&1 || {
    echo "faketime is missing (apt-get install faketime)"
    echo "0 passed, 1 failed"
    exit 1
  }
fi
FAKE="+365d"
# The runtimes must work under the faked date, and see it (Deno is checked only where this
# machine has one: the runs below install their own).
want=$(($(date -u +%Y) + 1))
check_year() {
  local got
  got=$(faketime -f "$FAKE" "$@" 2>&1)
  if [ "$got" != "$want" ] && [ "$got" != "$((want + 1))" ]; then
    echo "faketime does not work with '$*' (got '$got', want $want)"
    echo "0 passed, 1 failed"
    exit 1
  fi
}
check_year date -u +%Y
check_year node -e 'console.log(new Date().getUTCFullYear())'
if command -v deno >/dev/null 2>&1; then
  check_year deno eval 'console.log(new Date().getUTCFullYear())'
fi

# The system's tools, without the ones a fresh machine lacks.
sysbin="$work/sysbin"
mkdir -p "$sysbin"
for dir in /usr/bin /bin /usr/sbin /sbin; do
  for tool in "$dir"/*; do
    name=${tool##*/}
    case "$name" in deno | rg | fd | fdfind) continue ;; esac
    [ -x "$tool" ] && [ ! -e "$sysbin/$name" ] && ln -s "$tool" "$sysbin/$name"
  done
done

total_passed=0
total_failed=0
status=0
for mode in "${modes[@]}"; do
  case "$mode" in ci | plain) ;; *)
    echo "unknown mode '$mode' (ci or plain)"
    exit 2
    ;;
  esac
  dir="$work/$mode"
  mkdir -p "$dir/home" "$dir/tmp"
  # Both runs test the same commit, whatever lands meanwhile.
  git clone -q --no-local "$repo" "$dir/repo" && git -C "$dir/repo" checkout -q "$commit"
  # The machine's environment (certificates, locale …) less what a fresh user would not have:
  # no caches, no reference, no CI flag unless asked for.
  unset_vars=()
  for name in $(compgen -e); do
    case "$name" in
      HOME | PATH | TMPDIR | CI | OLDPWD | PWD | _ | DENO_* | PI_* | XDG_* | NPM_CONFIG_* | npm_* | LD_PRELOAD | FAKETIME*)
        unset_vars+=("-u" "$name")
        ;;
    esac
  done
  env_vars=(
    "HOME=$dir/home"
    "TMPDIR=$dir/tmp"
    "PATH=$sysbin"
    "NPM_CONFIG_PREFIX=$dir/npm-global"
  )
  [ "$mode" = ci ] && env_vars+=("CI=true")
  echo "=== $mode: $(faketime -f "$FAKE" date -u +%Y-%m-%dT%H:%MZ), CI=$([ "$mode" = ci ] && echo true || echo unset), no deno/rg/fd on PATH, empty HOME"
  start=$(date +%s)
  log="$dir/ci.log"
  (cd "$dir/repo" && env "${unset_vars[@]}" "${env_vars[@]}" faketime -f "$FAKE" bash .ci/run </dev/null >"$log" 2>&1)
  code=$?
  secs=$(($(date +%s) - start))
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)
  [ -n "$line" ] || line="0 passed, 1 failed"
  grep -E '^ci: |^!!! |^reference pi' "$log" | sed 's/^/  /'
  sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E ' => \./' | sort -u | sed 's/^/  failed: /'
  # A type error anywhere stops deno test before any test runs: name where.
  if grep -q "Type checking failed" "$log"; then
    sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^TS[0-9]+ \[ERROR\]|^    at file://' | head -10 | sed 's/^ */  type error: /'
  fi
  echo "=== $mode: $line, exit $code, ${secs}s (log: $log)"
  p=${line%% passed*}
  f=${line#*, }
  f=${f%% failed*}
  total_passed=$((total_passed + p))
  total_failed=$((total_failed + f))
  [ "$code" -eq 0 ] || status=1
done

[ "$status" -eq 0 ] || [ "$total_failed" -gt 0 ] || total_failed=1
echo "$total_passed passed, $total_failed failed"
exit "$status"
