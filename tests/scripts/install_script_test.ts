/**
 * install.sh against a fake release on 127.0.0.1 (tests/support/fake_release_server.ts), run by
 * `sh` and by every other POSIX shell this machine has (dash, bash), each in a sandbox: its own
 * HOME, TMPDIR and install folder, and a PATH holding only the programs install.sh may use
 * (coreutils, a downloader, a checksum tool, and a `uname` that reports the platform under test).
 *
 * Also checks that install.ps1, which cannot run here, asks for the same assets, checksum file,
 * addresses and environment variables as install.sh.
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertNotEquals,
  assertStringIncludes,
} from "../support/assert.ts";
import { join } from "node:path";
import { machineEnv } from "../support/agent_env.ts";
import {
  type FakeReleaseServer,
  RELEASE_ASSETS,
  startFakeReleaseServer,
  writeDownloaderStandIn,
} from "../support/fake_release_server.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const INSTALL_SH = join(ROOT, "install.sh");
const INSTALL_PS1 = join(ROOT, "install.ps1");

/** What install.sh runs besides the shell's built-ins and the downloader/checksum tool. */
const BASE_TOOLS = ["cat", "chmod", "cp", "mkdir", "mktemp", "mv", "rm", "tr"];

function hostTool(name: string): string | undefined {
  for (const dir of (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":")) {
    if (!dir) continue;
    const path = join(dir, name);
    try {
      const info = Deno.statSync(path);
      if (info.isFile && (info.mode ?? 0o111) & 0o111) return path;
    } catch { /* not here */ }
  }
  return undefined;
}

/**
 * `sh`, plus dash and bash when they are other programs than `sh` (on Debian, sh is dash), each
 * with a label naming the program behind it ("sh=dash").
 */
function shells(): { name: string; label: string }[] {
  const seen = new Set<string>();
  const out: { name: string; label: string }[] = [];
  for (const name of ["sh", "dash", "bash"]) {
    const path = hostTool(name);
    if (!path) continue;
    const real = Deno.realPathSync(path);
    if (seen.has(real)) continue;
    seen.add(real);
    const program = real.split("/").pop()!;
    out.push({ name, label: program === name ? name : `${name}=${program}` });
  }
  return out;
}

interface SandboxOptions {
  /** What `uname -s` / `uname -m` report. */
  uname?: { s: string; m: string };
  /** The download program on PATH. */
  downloader?: "curl" | "wget" | "none";
  /** The checksum program on PATH. */
  checksum?: "sha256sum" | "shasum";
  /** What `sysctl -n sysctl.proc_translated` prints (a Mac under Rosetta: "1"); none when unset. */
  sysctlTranslated?: string;
}

interface Sandbox {
  root: string;
  home: string;
  tmp: string;
  bin: string;
  installDir: string;
  target: string;
  env: Record<string, string>;
}

async function writeScript(path: string, body: string): Promise<void> {
  await Deno.writeTextFile(path, `#!/bin/sh\n${body}`);
  await Deno.chmod(path, 0o755);
}

async function linkTool(bin: string, name: string): Promise<void> {
  const path = hostTool(name);
  if (!path) throw new Error(`${name} is not on this machine's PATH (install.sh needs it: coreutils)`);
  await Deno.symlink(path, join(bin, name));
}

async function makeSandbox(server: FakeReleaseServer, options: SandboxOptions = {}): Promise<Sandbox> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-install-" }));
  const home = join(root, "home");
  const tmp = join(root, "tmp");
  const bin = join(root, "bin");
  const installDir = join(root, "install", "bin");
  for (const dir of [home, tmp, bin]) await Deno.mkdir(dir, { recursive: true });
  for (const tool of BASE_TOOLS) await linkTool(bin, tool);

  const uname = options.uname ?? { s: "Linux", m: "x86_64" };
  await writeScript(
    join(bin, "uname"),
    `case "$1" in -m) echo '${uname.m}' ;; *) echo '${uname.s}' ;; esac\n`,
  );

  const downloader = options.downloader ?? "curl";
  if (downloader !== "none") {
    if (hostTool(downloader)) await linkTool(bin, downloader);
    else await writeDownloaderStandIn(bin, downloader);
  }

  if ((options.checksum ?? "sha256sum") === "sha256sum") await linkTool(bin, "sha256sum");
  else {
    // `shasum -a 256 FILE` as macOS has it, made from sha256sum (whose output has the same form).
    await writeScript(
      join(bin, "shasum"),
      `[ "$1" = -a ] && [ "$2" = 256 ] || { echo "shasum stand-in: want -a 256" >&2; exit 2; }\n` +
        `exec '${hostTool("sha256sum")}' "$3"\n`,
    );
  }
  if (options.sysctlTranslated !== undefined) {
    await writeScript(join(bin, "sysctl"), `echo '${options.sysctlTranslated}'\n`);
  }

  const env: Record<string, string> = {
    ...machineEnv(),
    HOME: home,
    TMPDIR: tmp,
    PATH: bin,
    SHELL: "/bin/bash",
    PI_INSTALL_DIR: installDir,
    PI_INSTALL_BASE_URL: server.baseUrl,
    LANG: "C",
  };
  return { root, home, tmp, bin, installDir, target: join(installDir, "pi"), env };
}

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

async function runInstall(
  shell: string,
  sandbox: Sandbox,
  args: string[] = [],
  env: Record<string, string | undefined> = {},
): Promise<RunResult> {
  const merged: Record<string, string> = { ...sandbox.env };
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete merged[key];
    else merged[key] = value;
  }
  const out = await new Deno.Command(hostTool(shell)!, {
    args: [INSTALL_SH, ...args],
    env: merged,
    clearEnv: true,
    cwd: sandbox.root,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** Runs the installed binary as a user would (its own shebang), returning its first line. */
async function runInstalled(path: string): Promise<string> {
  const out = await new Deno.Command(path, {
    args: ["--version"],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

async function listDir(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return names.sort();
}

const OLD_PI = "#!/bin/sh\necho '0.9.0 (the old install)'\n";

async function placeOldInstall(sandbox: Sandbox): Promise<Deno.FileInfo> {
  await Deno.mkdir(sandbox.installDir, { recursive: true });
  await writeScript(sandbox.target, OLD_PI.slice("#!/bin/sh\n".length));
  return await Deno.stat(sandbox.target);
}

/** The old binary is byte for byte what it was, and neither folder holds a leftover temp file. */
async function assertOldInstallUntouched(sandbox: Sandbox, before: Deno.FileInfo): Promise<void> {
  assertEquals(await Deno.readTextFile(sandbox.target), OLD_PI);
  assertEquals((await Deno.stat(sandbox.target)).ino, before.ino);
  assertEquals(await listDir(sandbox.installDir), ["pi"]);
  assertEquals(await listDir(sandbox.tmp), [], "install.sh left files in TMPDIR");
}

async function withRelease(
  fn: (server: FakeReleaseServer, sandboxes: Sandbox[]) => Promise<void>,
): Promise<void> {
  const server = startFakeReleaseServer(["v1.5.0", "v2.0.0"]);
  const sandboxes: Sandbox[] = [];
  try {
    await fn(server, sandboxes);
  } finally {
    await server.close();
    for (const sandbox of sandboxes) await Deno.remove(sandbox.root, { recursive: true });
  }
}

async function sandboxIn(
  server: FakeReleaseServer,
  sandboxes: Sandbox[],
  options: SandboxOptions = {},
): Promise<Sandbox> {
  const sandbox = await makeSandbox(server, options);
  sandboxes.push(sandbox);
  return sandbox;
}

const SUPPORTED = "Binaries exist for Linux and macOS (Darwin) on x86_64/amd64 or aarch64/arm64; " +
  "Windows x64 through install.ps1. Elsewhere, run pi from source with Deno (see the README).";

const SHELLS = shells();

/** The requests of an install of the latest release: each address, then where it redirects. */
const LATEST_REQUESTS = (asset: string) => [
  "/releases/latest/download/SHA256SUMS",
  "/releases/download/v2.0.0/SHA256SUMS",
  `/releases/latest/download/${asset}`,
  `/releases/download/v2.0.0/${asset}`,
];

for (const { name: shell, label } of SHELLS) {
  // The platform table and option parsing are the same text under every shell: once is enough.
  const once = shell === SHELLS[0].name;
  Deno.test(`install.sh (${label}): a fresh install puts a verified, runnable pi in PI_INSTALL_DIR and says how to reach it`, async () => {
    await withRelease(async (server, sandboxes) => {
      const sandbox = await sandboxIn(server, sandboxes);
      const result = await runInstall(shell, sandbox);
      assertEquals(result.stderr, "");
      assertEquals(result.code, 0);
      assertEquals(
        result.stdout,
        `Downloading pi-linux-x64 (latest release) from ${server.baseUrl}/latest/download\n` +
          `Installed pi 2.0.0 (fake pi-linux-x64) to ${sandbox.target}\n` +
          `${sandbox.installDir} is not on your PATH. Add it by putting this line in ${sandbox.home}/.bashrc, then open a new terminal:\n` +
          `  export PATH="${sandbox.installDir}:$PATH"\n` +
          `Until then, run ${sandbox.target} directly.\n`,
      );
      assertEquals(server.requests, LATEST_REQUESTS("pi-linux-x64"));
      assertEquals(await Deno.readFile(sandbox.target), server.assetBody("v2.0.0", "pi-linux-x64"));
      assertEquals((await Deno.stat(sandbox.target)).mode! & 0o777, 0o755);
      assertEquals(await runInstalled(sandbox.target), "2.0.0 (fake pi-linux-x64)");
      assertEquals(await listDir(sandbox.installDir), ["pi"]);
      assertEquals(await listDir(sandbox.tmp), [], "install.sh left files in TMPDIR");
    });
  });

  if (once) {
    Deno.test(`install.sh (${label}): each supported uname maps to its release asset`, async () => {
      const cases: [SandboxOptions, string][] = [
        [{ uname: { s: "Linux", m: "x86_64" } }, "pi-linux-x64"],
        [{ uname: { s: "Linux", m: "amd64" } }, "pi-linux-x64"],
        [{ uname: { s: "Linux", m: "aarch64" } }, "pi-linux-arm64"],
        [{ uname: { s: "Linux", m: "arm64" } }, "pi-linux-arm64"],
        [{ uname: { s: "Darwin", m: "x86_64" } }, "pi-darwin-x64"],
        [{ uname: { s: "Darwin", m: "arm64" } }, "pi-darwin-arm64"],
        // A shell under Rosetta on Apple silicon says x86_64; the native binary is arm64.
        [{ uname: { s: "Darwin", m: "x86_64" }, sysctlTranslated: "1" }, "pi-darwin-arm64"],
        [{ uname: { s: "Darwin", m: "x86_64" }, sysctlTranslated: "0" }, "pi-darwin-x64"],
      ];
      await withRelease(async (server, sandboxes) => {
        for (const [options, asset] of cases) {
          const sandbox = await sandboxIn(server, sandboxes, options);
          server.requests.length = 0;
          const result = await runInstall(shell, sandbox);
          const label = `${options.uname!.s} ${options.uname!.m} sysctl=${options.sysctlTranslated}`;
          assertEquals(result.code, 0, `${label}: ${result.stderr}`);
          assertEquals(server.requests, LATEST_REQUESTS(asset));
          assertEquals(await runInstalled(sandbox.target), `2.0.0 (fake ${asset})`, label);
        }
      });
    });
  }

  Deno.test(`install.sh (${label}): an unknown platform is refused naming what uname said and what is supported`, async () => {
    const cases: [string, string, string][] = [
      ["FreeBSD", "amd64", "FreeBSD amd64"],
      ["Linux", "riscv64", "Linux riscv64"],
      // 32-bit ARM, armv8l included (a 32-bit userland on a 64-bit kernel: the arm64 binary's libc is missing).
      ["Linux", "armv7l", "Linux armv7l"],
      ["Linux", "armv8l", "Linux armv8l"],
      ["SunOS", "i86pc", "SunOS i86pc"],
    ];
    await withRelease(async (server, sandboxes) => {
      for (const [s, m, seen] of cases) {
        const sandbox = await sandboxIn(server, sandboxes, { uname: { s, m } });
        const result = await runInstall(shell, sandbox);
        assertEquals(result.code, 1, seen);
        assertEquals(result.stdout, "");
        assertEquals(
          result.stderr,
          `pi install: no pi binary for this platform: uname says '${seen}'. ${SUPPORTED}\n`,
        );
        assertEquals(await listDir(sandbox.installDir), []);
        assertEquals(await listDir(sandbox.tmp), []);
      }
      assertEquals(server.requests, [], "nothing is downloaded for an unknown platform");

      const windows = await sandboxIn(server, sandboxes, {
        uname: { s: "MINGW64_NT-10.0-19045", m: "x86_64" },
      });
      const result = await runInstall(shell, windows);
      assertEquals(result.code, 1);
      assertEquals(
        result.stderr,
        "pi install: this is Windows (MINGW64_NT-10.0-19045): run install.ps1 in PowerShell instead (see docs/install.md)\n",
      );
    });
  });

  Deno.test(`install.sh (${label}): a checksum mismatch is refused and the old install stays as it was`, async () => {
    await withRelease(async (server, sandboxes) => {
      const sandbox = await sandboxIn(server, sandboxes);
      const before = await placeOldInstall(sandbox);
      server.faults.set("pi-linux-x64", "corrupt");
      const result = await runInstall(shell, sandbox);
      assertEquals(result.code, 1);
      assertMatch(
        result.stderr,
        new RegExp(
          `^pi install: checksum mismatch for pi-linux-x64: SHA256SUMS says [0-9a-f]{64}, the download is [0-9a-f]{64} ` +
            `\\(damaged, or not the published file\\); ${
              sandbox.target.replaceAll(".", "\\.")
            } is unchanged\n$`,
        ),
      );
      const [, said, got] = result.stderr.match(/says ([0-9a-f]+), the download is ([0-9a-f]+)/)!;
      assertNotEquals(said, got);
      await assertOldInstallUntouched(sandbox, before);
      assertEquals(await runInstalled(sandbox.target), "0.9.0 (the old install)");
    });
  });

  Deno.test(`install.sh (${label}): an asset SHA256SUMS does not list is refused`, async () => {
    await withRelease(async (server, sandboxes) => {
      const sandbox = await sandboxIn(server, sandboxes);
      server.faults.set("pi-linux-x64", "unlisted");
      const result = await runInstall(shell, sandbox);
      assertEquals(result.code, 1);
      assertEquals(
        result.stderr,
        "pi install: SHA256SUMS of this release has no line for pi-linux-x64; nothing was installed\n",
      );
      assertEquals(await listDir(sandbox.installDir), []);
      assertEquals(await listDir(sandbox.tmp), []);
    });
  });

  Deno.test(`install.sh (${label}): an existing install is replaced by one rename, and only by a complete binary`, async () => {
    await withRelease(async (server, sandboxes) => {
      const sandbox = await sandboxIn(server, sandboxes);
      const before = await placeOldInstall(sandbox);

      // A 404 and a connection dropped halfway leave the old binary as it was.
      server.faults.set("pi-linux-x64", "not-found");
      let result = await runInstall(shell, sandbox);
      assertEquals(result.code, 1);
      assertStringIncludes(
        result.stderr,
        `pi install: could not download ${server.baseUrl}/latest/download/pi-linux-x64; ${sandbox.target} is unchanged\n`,
      );
      await assertOldInstallUntouched(sandbox, before);

      server.faults.set("pi-linux-x64", "drop");
      result = await runInstall(shell, sandbox);
      assertEquals(result.code, 1);
      assertStringIncludes(
        result.stderr,
        `pi install: could not download ${server.baseUrl}/latest/download/pi-linux-x64; ${sandbox.target} is unchanged\n`,
      );
      await assertOldInstallUntouched(sandbox, before);

      // A verified binary that cannot run here (another libc, say) does not replace a working one.
      server.faults.set("pi-linux-x64", "broken");
      result = await runInstall(shell, sandbox);
      assertEquals(result.code, 1);
      assertEquals(
        result.stderr,
        "pi install: the downloaded pi-linux-x64 does not run on this machine: " +
          `pi-linux-x64: cannot execute: required file not found; ${sandbox.target} is unchanged\n`,
      );
      await assertOldInstallUntouched(sandbox, before);

      // The good one replaces it: a new file renamed over the old path (a new inode), never the old
      // file rewritten in place, so a running pi or a reader never sees half a binary.
      server.faults.clear();
      const holder = await Deno.open(sandbox.target, { read: true });
      try {
        result = await runInstall(shell, sandbox);
        assertEquals(result.code, 0, result.stderr);
        assertStringIncludes(result.stdout, `Replaced ${sandbox.target} with pi 2.0.0 (fake pi-linux-x64)\n`);
        const after = await Deno.stat(sandbox.target);
        assertNotEquals(after.ino, before.ino);
        assertEquals(await runInstalled(sandbox.target), "2.0.0 (fake pi-linux-x64)");
        // The old file, still open, kept its whole content.
        const buffer = new Uint8Array(200);
        const n = (await holder.read(buffer)) ?? 0;
        assertEquals(new TextDecoder().decode(buffer.subarray(0, n)), OLD_PI);
      } finally {
        holder.close();
      }
      assertEquals(await listDir(sandbox.installDir), ["pi"]);
      assertEquals(await listDir(sandbox.tmp), []);
    });
  });

  Deno.test(`install.sh (${label}): a pinned version downloads from its tag, by PI_VERSION or --version`, async () => {
    await withRelease(async (server, sandboxes) => {
      const byEnv = await sandboxIn(server, sandboxes);
      let result = await runInstall(shell, byEnv, [], { PI_VERSION: "v1.5.0" });
      assertEquals(result.code, 0, result.stderr);
      assertStringIncludes(
        result.stdout,
        `Downloading pi-linux-x64 (v1.5.0) from ${server.baseUrl}/download/v1.5.0\n`,
      );
      assertEquals(server.requests, [
        "/releases/download/v1.5.0/SHA256SUMS",
        "/releases/download/v1.5.0/pi-linux-x64",
      ]);
      assertEquals(await runInstalled(byEnv.target), "1.5.0 (fake pi-linux-x64)");

      // The option wins over the variable, and a bare number means its v-tag.
      server.requests.length = 0;
      const byOption = await sandboxIn(server, sandboxes);
      result = await runInstall(shell, byOption, ["--version", "1.5.0"], { PI_VERSION: "v2.0.0" });
      assertEquals(result.code, 0, result.stderr);
      assertEquals(server.requests, [
        "/releases/download/v1.5.0/SHA256SUMS",
        "/releases/download/v1.5.0/pi-linux-x64",
      ]);
      assertEquals(await runInstalled(byOption.target), "1.5.0 (fake pi-linux-x64)");

      // A tag with no release.
      const missing = await sandboxIn(server, sandboxes);
      result = await runInstall(shell, missing, ["--version=v9.9.9"]);
      assertEquals(result.code, 1);
      assertStringIncludes(
        result.stderr,
        `pi install: could not download ${server.baseUrl}/download/v9.9.9/SHA256SUMS (no such release, or no network); nothing was installed\n`,
      );
      assertEquals(await listDir(missing.installDir), []);
    });
  });

  Deno.test(`install.sh (${label}): piped into the shell as \`curl … | sh -s -- --version v1.5.0\` does`, async () => {
    await withRelease(async (server, sandboxes) => {
      const sandbox = await sandboxIn(server, sandboxes);
      const child = new Deno.Command(hostTool(shell)!, {
        args: ["-s", "--", "--version", "v1.5.0"],
        env: sandbox.env,
        clearEnv: true,
        cwd: sandbox.root,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const writer = child.stdin.getWriter();
      await writer.write(await Deno.readFile(INSTALL_SH));
      await writer.close();
      const out = await child.output();
      const stdout = new TextDecoder().decode(out.stdout);
      assertEquals(new TextDecoder().decode(out.stderr), "");
      assertEquals(out.code, 0);
      // The whole script ran: the last line it prints is there.
      assert(stdout.endsWith(`Until then, run ${sandbox.target} directly.\n`), stdout);
      assertEquals(await runInstalled(sandbox.target), "1.5.0 (fake pi-linux-x64)");
    });
  });

  Deno.test(`install.sh (${label}): an install folder it cannot write is refused with what to do`, async () => {
    await withRelease(async (server, sandboxes) => {
      const sandbox = await sandboxIn(server, sandboxes);
      // A file where a parent folder should be: even root cannot create the folder.
      const blocked = join(sandbox.root, "file", "bin");
      await Deno.writeTextFile(join(sandbox.root, "file"), "");
      let result = await runInstall(shell, sandbox, ["--dir", blocked]);
      assertEquals(result.code, 1);
      assert(
        result.stderr.endsWith(
          `pi install: cannot write to ${blocked}: choose another folder with --dir (or PI_INSTALL_DIR); nothing was installed\n`,
        ),
        result.stderr,
      );
      assertEquals(await listDir(sandbox.tmp), []);

      // A folder named pi where the binary goes.
      await Deno.mkdir(join(sandbox.installDir, "pi"), { recursive: true });
      server.requests.length = 0;
      result = await runInstall(shell, sandbox);
      assertEquals(result.code, 1);
      assertEquals(
        result.stderr,
        `pi install: ${sandbox.target} is a folder: remove it or choose another folder with --dir\n`,
      );
      assertEquals(server.requests, []);
      assertEquals(await listDir(sandbox.target), []);
    });
  });

  Deno.test(`install.sh (${label}): without curl it downloads with wget; with neither it says so`, async () => {
    await withRelease(async (server, sandboxes) => {
      const viaWget = await sandboxIn(server, sandboxes, { downloader: "wget" });
      assertEquals(await listDir(viaWget.bin).then((names) => names.includes("curl")), false);
      let result = await runInstall(shell, viaWget);
      assertEquals(result.code, 0, result.stderr);
      assertEquals(server.requests, LATEST_REQUESTS("pi-linux-x64"));
      assertEquals(await runInstalled(viaWget.target), "2.0.0 (fake pi-linux-x64)");

      const neither = await sandboxIn(server, sandboxes, { downloader: "none" });
      result = await runInstall(shell, neither);
      assertEquals(result.code, 1);
      assertEquals(
        result.stderr,
        "pi install: neither curl nor wget is installed: install one of them and run this again\n",
      );
    });
  });

  Deno.test(`install.sh (${label}): without sha256sum it verifies with shasum -a 256 (macOS)`, async () => {
    await withRelease(async (server, sandboxes) => {
      const sandbox = await sandboxIn(server, sandboxes, { checksum: "shasum" });
      let result = await runInstall(shell, sandbox);
      assertEquals(result.code, 0, result.stderr);
      assertEquals(await runInstalled(sandbox.target), "2.0.0 (fake pi-linux-x64)");

      server.faults.set("pi-linux-x64", "corrupt");
      result = await runInstall(shell, sandbox);
      assertEquals(result.code, 1);
      assertStringIncludes(result.stderr, "pi install: checksum mismatch for pi-linux-x64:");
      assertEquals(await runInstalled(sandbox.target), "2.0.0 (fake pi-linux-x64)");
    });
  });

  Deno.test(`install.sh (${label}): the default folder is ~/.local/bin, --dir overrides, and PATH advice fits the case`, async () => {
    await withRelease(async (server, sandboxes) => {
      const byDefault = await sandboxIn(server, sandboxes);
      let result = await runInstall(shell, byDefault, [], {
        PI_INSTALL_DIR: undefined,
        SHELL: "/usr/bin/zsh",
      });
      assertEquals(result.code, 0, result.stderr);
      const defaultTarget = join(byDefault.home, ".local", "bin", "pi");
      assertStringIncludes(result.stdout, `Installed pi 2.0.0 (fake pi-linux-x64) to ${defaultTarget}\n`);
      assertStringIncludes(result.stdout, `in ${byDefault.home}/.zshrc, then open a new terminal:\n`);
      assertEquals(await runInstalled(defaultTarget), "2.0.0 (fake pi-linux-x64)");

      const byOption = await sandboxIn(server, sandboxes);
      const elsewhere = join(byOption.root, "tools");
      result = await runInstall(shell, byOption, ["--dir", elsewhere], { SHELL: "/usr/bin/fish" });
      assertEquals(result.code, 0, result.stderr);
      assertStringIncludes(result.stdout, `  fish_add_path "${elsewhere}"\n`);
      assertEquals(await runInstalled(join(elsewhere, "pi")), "2.0.0 (fake pi-linux-x64)");
      assertEquals(await listDir(byOption.installDir), []);

      // Already on PATH: no advice, just the next step.
      const onPath = await sandboxIn(server, sandboxes);
      result = await runInstall(shell, onPath, [], { PATH: `${onPath.bin}:${onPath.installDir}` });
      assertEquals(result.code, 0, result.stderr);
      assertEquals(
        result.stdout.split("\n").slice(2).join("\n"),
        "Run 'pi' in a project folder to start (pi --help lists the options).\n",
      );

      // Another pi earlier on PATH (the Node.js pi, say) is pointed out.
      const shadowed = await sandboxIn(server, sandboxes);
      await writeScript(join(shadowed.bin, "pi"), "echo other\n");
      result = await runInstall(shell, shadowed, [], { PATH: `${shadowed.bin}:${shadowed.installDir}` });
      assertEquals(result.code, 0, result.stderr);
      assertStringIncludes(
        result.stdout,
        `Note: another pi comes first on your PATH (${shadowed.bin}/pi); run ${shadowed.target}, or put ${shadowed.installDir} earlier on PATH.\n`,
      );
    });
  });

  if (once) {
    Deno.test(`install.sh (${label}): --help and a bad option`, async () => {
      await withRelease(async (server, sandboxes) => {
        const sandbox = await sandboxIn(server, sandboxes);
        let result = await runInstall(shell, sandbox, ["--help"]);
        assertEquals(result.code, 0);
        assertStringIncludes(result.stdout, "Usage: sh install.sh [--version vX.Y.Z] [--dir DIR]\n");
        result = await runInstall(shell, sandbox, ["--frobnicate"]);
        assertEquals(result.code, 2);
        assert(result.stderr.startsWith("pi install: unknown option: --frobnicate\n"), result.stderr);
        result = await runInstall(shell, sandbox, ["--version"]);
        assertEquals(result.code, 1);
        assertEquals(result.stderr, "pi install: --version needs a value, such as v1.6.0\n");
        assertEquals(server.requests, []);
      });
    });
  }
}

Deno.test("install.sh: on this machine's own uname it picks the matching asset", async () => {
  const expected = `pi-${Deno.build.os}-${Deno.build.arch === "x86_64" ? "x64" : "arm64"}`;
  await withRelease(async (server, sandboxes) => {
    const sandbox = await sandboxIn(server, sandboxes);
    await Deno.remove(join(sandbox.bin, "uname"));
    await linkTool(sandbox.bin, "uname");
    const result = await runInstall("sh", sandbox);
    assertEquals(result.code, 0, result.stderr);
    assertEquals(await runInstalled(sandbox.target), `2.0.0 (fake ${expected})`);
  });
});

// --- install.ps1: no PowerShell here (Debian has none, npm's "pwsh" downloads it from GitHub), so
// it is checked by reading: the same release contract as install.sh, a parse by tree-sitter's
// PowerShell grammar, and no variable or command that is not defined (StrictMode would stop on one).

Deno.test("install scripts: the assets they ask for are exactly the binaries scripts/build.ts compiles", async () => {
  const sh = await Deno.readTextFile(INSTALL_SH);
  const oses = [...sh.matchAll(/\) os=([a-z]+) ;;/g)].map((m) => m[1]);
  const arches = [...new Set([...sh.matchAll(/\) arch=([a-z0-9]+) ;;/g)].map((m) => m[1]))];
  assertEquals(oses, ["linux", "darwin"]);
  assertEquals(arches, ["x64", "arm64"]);
  assertStringIncludes(sh, 'asset="pi-$os-$arch"');
  const ps1 = await Deno.readTextFile(INSTALL_PS1);
  const ps1Arches = [...new Set([...ps1.matchAll(/\{ \$arch = '([a-z0-9]+)' \}/g)].map((m) => m[1]))];
  assertEquals(ps1Arches, ["x64"]);
  assertStringIncludes(ps1, '$asset = "pi-windows-$arch.exe"');
  const asked = [
    ...oses.flatMap((os) => arches.map((arch) => `pi-${os}-${arch}`)),
    ...ps1Arches.map((arch) => `pi-windows-${arch}.exe`),
  ].sort();
  assertEquals(asked, [...RELEASE_ASSETS].sort());
});

Deno.test("install.ps1 follows the same contract as install.sh: variables, addresses, checksum file, messages", async () => {
  const sh = await Deno.readTextFile(INSTALL_SH);
  const ps1 = await Deno.readTextFile(INSTALL_PS1);
  assertEquals(ps1.match(/^\$DefaultRepo = '([^']+)'$/m)?.[1], sh.match(/^DEFAULT_REPO="([^"]+)"$/m)?.[1]);
  for (const name of ["PI_VERSION", "PI_INSTALL_DIR", "PI_INSTALL_REPO", "PI_INSTALL_BASE_URL"]) {
    assertStringIncludes(sh, `\${${name}:-`);
    assertStringIncludes(ps1, `$env:${name}`);
  }
  // The same addresses: <root>/latest/download/<file> or <root>/download/<tag>/<file>, a bare
  // version number meaning its v-tag.
  assertStringIncludes(sh, 'base="${PI_INSTALL_BASE_URL:-https://github.com/$repo/releases}"');
  assertStringIncludes(ps1, '{ "https://github.com/$repo/releases" }');
  for (const text of [sh, ps1]) {
    assertStringIncludes(text, '"$base/latest/download"');
    assertStringIncludes(text, "/SHA256SUMS");
  }
  assertStringIncludes(sh, 'from="$base/download/$version"');
  assertStringIncludes(ps1, '$from = "$base/download/$Version"');
  assertStringIncludes(sh, '[0-9]*) version="v$version"');
  assertStringIncludes(ps1, "if ($Version -match '^[0-9]') { $Version = \"v$Version\" }");
  // The same steps: SHA-256 against SHA256SUMS, a staged file in the install folder that must run,
  // then one move over the target; and the user PATH.
  assertStringIncludes(ps1, "Invoke-WebRequest -Uri");
  assertStringIncludes(ps1, "Get-FileHash -Algorithm SHA256 -LiteralPath $assetPath");
  assertStringIncludes(ps1, "$staged = Join-Path $InstallDir");
  assertStringIncludes(ps1, "& $staged --version");
  assertStringIncludes(ps1, "Move-Item -LiteralPath $staged -Destination $target -Force");
  assertStringIncludes(ps1, "[Environment]::SetEnvironmentVariable('Path'");
  // The messages a user reads, word for word where both say the same thing.
  const messages = [
    "no pi binary for this platform: ",
    "Binaries exist for ",
    "Elsewhere, run pi from source with Deno (see the README).",
    "could not download $from/SHA256SUMS (no such release, or no network); $unchanged",
    "could not download $from/$asset; $unchanged",
    "SHA256SUMS of this release has no line for $asset; $unchanged",
    ": SHA256SUMS says $expected, the download is $actual (damaged, or not the published file); $unchanged",
    "does not run on this machine: ",
    "is unchanged",
    "nothing was installed",
    "with pi $installed",
    "Installed pi $installed",
    "Note: another pi comes first on your PATH (",
    "Run 'pi' in a project folder to start (pi --help lists the options).",
    " is a folder: remove it or choose another folder with -",
    ": choose another folder with -",
    " (or PI_INSTALL_DIR); $unchanged",
  ];
  const camel = (text: string) => text.replace("$installed", "$installedVersion");
  for (const message of messages) {
    assertStringIncludes(sh, message.replace("$installed", "$installed_version"));
    assertStringIncludes(ps1, camel(message));
  }
});

Deno.test("install.ps1 parses as PowerShell, and every variable it reads and command it runs is defined", async () => {
  const { Language, Parser } = await import("npm:web-tree-sitter@0.26.13");
  // Loaded only so the package (and the grammar's .wasm inside it) is installed; its own entry
  // point is a native addon this test does not use.
  await import("npm:tree-sitter-powershell@0.26.4/package.json", { with: { type: "json" } });
  const { createRequire } = await import("node:module");
  const wasm = createRequire(import.meta.url).resolve("tree-sitter-powershell/tree-sitter-powershell.wasm");
  await Parser.init();
  const parser = new Parser();
  parser.setLanguage(await Language.load(await Deno.readFile(wasm)));
  const tree = parser.parse(await Deno.readTextFile(INSTALL_PS1));
  assert(tree, "no parse tree");
  type Node = NonNullable<typeof tree.rootNode>;

  const nodes: Node[] = [];
  const walk = (node: Node) => {
    nodes.push(node);
    for (const child of node.children) if (child) walk(child);
  };
  walk(tree.rootNode);
  const errors = nodes.filter((n) => n.isError || n.isMissing).map((n) =>
    `install.ps1:${n.startPosition.row + 1}:${n.startPosition.column + 1}: ${
      n.isMissing ? "missing" : "cannot parse"
    } ${JSON.stringify(n.text.slice(0, 60))}`
  );
  assertEquals(errors, []);

  // Variables: each one read is assigned, a parameter, a foreach variable or automatic.
  const nameOf = (node: Node) =>
    node.text.replace(/^\$\{?|\}$/g, "").replace(/^(global|script|local):/i, "").toLowerCase();
  const automatic = new Set([
    "_",
    "true",
    "false",
    "null",
    "home",
    "pscommandpath",
    "lastexitcode",
    "erroractionpreference",
    "progresspreference",
  ]);
  const defined = new Set<string>(automatic);
  const firstVariable = (node: Node) => node.descendantsOfType("variable")[0];
  for (const node of nodes) {
    if (node.type === "left_assignment_expression" || node.type === "script_parameter") {
      const variable = firstVariable(node);
      if (variable) defined.add(nameOf(variable));
    }
    if (node.type === "foreach_statement") {
      const variable = node.children.find((c) => c?.type === "variable");
      if (variable) defined.add(nameOf(variable));
    }
  }
  const undefinedVariables = nodes
    .filter((n) => n.type === "variable" && !/^\$env:/i.test(n.text) && !defined.has(nameOf(n)))
    .map((n) => `install.ps1:${n.startPosition.row + 1}: ${n.text}`);
  assertEquals(undefinedVariables, []);

  // Commands: functions it defines, or cmdlets Windows PowerShell 5.1 and PowerShell 7 both have.
  const cmdlets = new Set([
    "Copy-Item",
    "Get-Command",
    "Get-Content",
    "Get-FileHash",
    "Invoke-WebRequest",
    "Join-Path",
    "Move-Item",
    "New-Item",
    "Out-Null",
    "Out-String",
    "Remove-Item",
    "Rename-Item",
    "Select-Object",
    "Set-StrictMode",
    "Split-Path",
    "Test-Path",
    "Where-Object",
    "Write-Host",
  ]);
  const functions = new Set(nodes.filter((n) => n.type === "function_name").map((n) => n.text));
  assertEquals([...functions].sort(), ["Install-Pi", "Write-Failure"]);
  const unknownCommands = nodes
    .filter((n) => n.type === "command_name" && !cmdlets.has(n.text) && !functions.has(n.text))
    .map((n) => `install.ps1:${n.startPosition.row + 1}: ${n.text}`);
  assertEquals(unknownCommands, []);
});
