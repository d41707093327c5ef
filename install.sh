#!/bin/sh
# Installs the standalone `pi` binary (pi for Deno) for Linux or macOS.
#
#   curl -fsSL https://raw.githubusercontent.com/OWNER/pi-deno/main/install.sh | sh
#   sh install.sh [--version vX.Y.Z] [--dir DIR]
#
# It picks the release asset for this machine (uname), downloads it and SHA256SUMS from the
# release, checks the SHA-256 sum, and only then moves the binary into place in one rename, so an
# existing pi is replaced only by a complete, verified binary that runs. docs/install.md has more.
#
# Environment (each option above wins over its variable):
#   PI_VERSION           release tag to install (default: the latest release)
#   PI_INSTALL_DIR       folder for the binary (default: $HOME/.local/bin)
#   PI_INSTALL_REPO      GitHub repository owner/name (default below)
#   PI_INSTALL_BASE_URL  releases root instead of https://github.com/$PI_INSTALL_REPO/releases
#                        (assets are fetched from <root>/latest/download/ or <root>/download/<tag>/)
#
# POSIX sh (dash, bash, zsh, busybox); needs curl or wget, and sha256sum or shasum.
set -eu

# The repository the releases live in. Set this once the project has its public home.
DEFAULT_REPO="OWNER/pi-deno"
# Asset names, as the release workflow uploads them: pi-<os>-<arch>[.exe].
SUPPORTED="Linux and macOS (Darwin) on x86_64/amd64 or aarch64/arm64; Windows x64 through install.ps1"

say() { printf '%s\n' "$*"; }
err() { printf 'pi install: %s\n' "$*" >&2; }
die() {
  err "$@"
  exit 1
}

usage() {
  cat <<EOF
Installs the pi binary for this machine.

Usage: sh install.sh [--version vX.Y.Z] [--dir DIR]

  --version TAG  release to install (default: the latest; also PI_VERSION)
  --dir DIR      where to put pi (default: \$HOME/.local/bin; also PI_INSTALL_DIR)
  -h, --help     this text

Also read: PI_INSTALL_REPO (owner/name, default $DEFAULT_REPO), PI_INSTALL_BASE_URL.
EOF
}

version="${PI_VERSION:-}"
install_dir="${PI_INSTALL_DIR:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --version) [ $# -ge 2 ] || die "--version needs a value, such as v1.6.0"; version=$2; shift 2 ;;
    --version=*) version=${1#--version=}; shift ;;
    --dir) [ $# -ge 2 ] || die "--dir needs a folder"; install_dir=$2; shift 2 ;;
    --dir=*) install_dir=${1#--dir=}; shift ;;
    -h | --help) usage; exit 0 ;;
    *) err "unknown option: $1"; usage >&2; exit 2 ;;
  esac
done

if [ -z "$install_dir" ]; then
  [ -n "${HOME:-}" ] || die "HOME is not set: name the install folder with --dir or PI_INSTALL_DIR"
  install_dir="$HOME/.local/bin"
fi
repo="${PI_INSTALL_REPO:-$DEFAULT_REPO}"
base="${PI_INSTALL_BASE_URL:-https://github.com/$repo/releases}"
base=${base%/}

# --- platform ------------------------------------------------------------------------------
os_name=$(uname -s)
arch_name=$(uname -m)
case "$os_name" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  MINGW* | MSYS* | CYGWIN* | Windows_NT)
    die "this is Windows ($os_name): run install.ps1 in PowerShell instead (see docs/install.md)" ;;
  *) os= ;;
esac
case "$arch_name" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) arch= ;;
esac
if [ -z "$os" ] || [ -z "$arch" ]; then
  die "no pi binary for this platform: uname says '$os_name $arch_name'. Binaries exist for $SUPPORTED. Elsewhere, run pi from source with Deno (see the README)."
fi
# A shell under Rosetta reports x86_64 on Apple silicon: the arm64 binary is the native one.
if [ "$os" = darwin ] && [ "$arch" = x64 ] && command -v sysctl >/dev/null 2>&1; then
  if [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then arch=arm64; fi
fi
asset="pi-$os-$arch"
target="$install_dir/pi"
if [ -e "$target" ]; then unchanged="$target is unchanged"; else unchanged="nothing was installed"; fi
# `mv` onto a folder would put the binary inside it.
[ ! -d "$target" ] || die "$target is a folder: remove it or choose another folder with --dir"

# --- where from ----------------------------------------------------------------------------
case "$version" in
  "" | latest) version=; from="$base/latest/download" ;;
  [0-9]*) version="v$version"; from="$base/download/$version" ;;
  *) from="$base/download/$version" ;;
esac

if command -v curl >/dev/null 2>&1; then
  fetch() { curl -fsSL -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q -O "$2" "$1"; }
else
  die "neither curl nor wget is installed: install one of them and run this again"
fi
if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1"; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1"; }
else
  die "neither sha256sum nor shasum is installed: cannot verify the download"
fi

# --- download and verify, in a temp folder ---------------------------------------------------
tmp_dir=
staged=
cleanup() {
  [ -z "$staged" ] || rm -f "$staged"
  [ -z "$tmp_dir" ] || rm -rf "$tmp_dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
tmp_dir=$(mktemp -d "${TMPDIR:-/tmp}/pi-install.XXXXXX") || die "cannot make a temp folder in ${TMPDIR:-/tmp}"

say "Downloading $asset (${version:-latest release}) from $from"
fetch "$from/SHA256SUMS" "$tmp_dir/SHA256SUMS" ||
  die "could not download $from/SHA256SUMS (no such release, or no network); $unchanged"
fetch "$from/$asset" "$tmp_dir/$asset" || die "could not download $from/$asset; $unchanged"

expected=
cr=$(printf '\r')
while read -r sum name rest || [ -n "${sum:-}" ]; do
  name=${name%"$cr"}
  name=${name#\*}
  if [ "$name" = "$asset" ]; then
    expected=$sum
    break
  fi
done <"$tmp_dir/SHA256SUMS"
[ -n "$expected" ] || die "SHA256SUMS of this release has no line for $asset; $unchanged"
actual=$(sha256 "$tmp_dir/$asset") || die "could not compute the SHA-256 sum of the download"
actual=${actual%% *}
expected=$(printf '%s' "$expected" | tr 'ABCDEF' 'abcdef')
if [ "$actual" != "$expected" ]; then
  die "checksum mismatch for $asset: SHA256SUMS says $expected, the download is $actual (damaged, or not the published file); $unchanged"
fi

# --- install: a temp file beside the target, checked, then one rename over it -------------------
cannot_write="cannot write to $install_dir: choose another folder with --dir (or PI_INSTALL_DIR); $unchanged"
mkdir -p "$install_dir" || die "$cannot_write"
staged=$(mktemp "$install_dir/.pi.XXXXXX") || die "$cannot_write"
cp "$tmp_dir/$asset" "$staged" || die "$cannot_write"
chmod 755 "$staged"
# </dev/null: under `curl … | sh` stdin is the rest of this script, which pi must not read.
if ! installed_version=$("$staged" --version 2>&1 </dev/null); then
  die "the downloaded $asset does not run on this machine: $installed_version; $unchanged"
fi
installed_version=${installed_version%%"
"*}
replaced=
[ ! -e "$target" ] || replaced=1
mv -f "$staged" "$target" || die "cannot move the new binary to $target"
staged=

if [ -n "$replaced" ]; then
  say "Replaced $target with pi $installed_version"
else
  say "Installed pi $installed_version to $target"
fi

# --- next step -----------------------------------------------------------------------------
case ":${PATH:-}:" in
  *":$install_dir:"* | *":$install_dir/:"*)
    found=$(command -v pi 2>/dev/null || true)
    if [ -n "$found" ] && [ "$found" != "$target" ]; then
      say "Note: another pi comes first on your PATH ($found); run $target, or put $install_dir earlier on PATH."
    else
      say "Run 'pi' in a project folder to start (pi --help lists the options)."
    fi
    ;;
  *)
    home=${HOME:-'~'}
    shell_name=${SHELL:-sh}
    shell_name=${shell_name##*/}
    case "$shell_name" in
      zsh) rc="$home/.zshrc" line="export PATH=\"$install_dir:\$PATH\"" ;;
      bash) rc="$home/.bashrc" line="export PATH=\"$install_dir:\$PATH\"" ;;
      fish) rc="$home/.config/fish/config.fish" line="fish_add_path \"$install_dir\"" ;;
      *) rc="$home/.profile" line="export PATH=\"$install_dir:\$PATH\"" ;;
    esac
    say "$install_dir is not on your PATH. Add it by putting this line in $rc, then open a new terminal:"
    say "  $line"
    say "Until then, run $target directly."
    ;;
esac
