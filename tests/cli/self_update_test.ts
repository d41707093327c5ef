/**
 * PKG-04 / issue 18: `pi update` for pi itself. A compiled binary cannot be built here, so the
 * binary branch runs through `runSelfUpdate` with the inputs a binary has (form "binary", its path,
 * its platform) against a real HTTP server started here that serves a release as GitHub lays it
 * out; the "binaries" are small shell scripts that print their version. The configured command
 * (`PI_SELF_UPDATE_COMMAND`, `selfUpdateCommand`) and the source checkout's answer run through the
 * real CLI.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes, assertThrows } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { spawnPi } from "../support/spawn_pi.ts";
import { runSelfUpdate, type SelfUpdateOptions } from "../../src/cli/self_update.ts";
import {
  configuredSelfUpdateArgv,
  fillSelfUpdateCommand,
  PACKAGE_NAME,
} from "../../src/cli/self_update_command.ts";
import { assetForPlatform, parseChecksums, releaseBaseUrl } from "../../src/cli/self_update_release.ts";
import { sha256Hex } from "../../src/ai/providers/bedrock_sigv4.ts";
import { TARGETS } from "../../scripts/build.ts";

const ESC = String.fromCharCode(27);
const plain = (text: string) => text.replaceAll(new RegExp(`${ESC}\\[[0-9;]*m`, "g"), "");

/** A stand-in binary: a shell script whose `--version` prints `<version> (binary)`, or fails. */
function fakeBinary(version: string, works = true): Uint8Array {
  return new TextEncoder().encode(
    works
      ? `#!/bin/sh\necho '${version} (binary)'\n`
      : `#!/bin/sh\necho 'pi: cannot execute binary file: Exec format error' >&2\nexit 126\n`,
  );
}

/** A release server: `<url>/releases/latest` redirects to the latest tag, assets under download/. */
function startReleaseServer(latest: string, assets: Record<string, Uint8Array>, sums?: string) {
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const path = new URL(request.url).pathname;
    requests.push(path);
    if (path === "/releases/latest") {
      return new Response(null, { status: 302, headers: { location: `/releases/tag/${latest}` } });
    }
    const match = path.match(/^\/releases\/download\/([^/]+)\/([^/]+)$/);
    if (!match || match[1] !== latest) return new Response("Not Found", { status: 404 });
    if (match[2] === "SHA256SUMS") {
      if (sums !== undefined) return new Response(sums);
      const lines = await Promise.all(
        Object.entries(assets).map(async ([name, b]) => `${await sha256Hex(b)}  ${name}`),
      );
      return new Response(lines.join("\n") + "\n");
    }
    const body = assets[match[2]];
    return body ? new Response(body as Uint8Array<ArrayBuffer>) : new Response("Not Found", { status: 404 });
  });
  return { base: `http://127.0.0.1:${server.addr.port}/releases`, requests, close: () => server.shutdown() };
}

function captureIo() {
  const out = { stdout: "", stderr: "" };
  const io = {
    stdout: (text: string) => void (out.stdout += text),
    stderr: (text: string) => void (out.stderr += text),
    stdinIsTerminal: () => false,
    stdoutIsTerminal: () => false,
    readPipedStdin: () => Promise.resolve(undefined),
    readLine: () => Promise.resolve(undefined),
  };
  return { io, out };
}

/** A folder with the running "binary" `pi` (version 1.6.0) in it. */
async function installedBinary(): Promise<{ dir: string; path: string; cleanup: () => Promise<void> }> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-self-update-" }));
  const path = join(dir, "pi");
  await Deno.writeFile(path, fakeBinary("1.6.0"), { mode: 0o755 });
  return { dir, path, cleanup: () => Deno.remove(dir, { recursive: true }) };
}

async function binaryUpdate(base: string, path: string, over: Partial<SelfUpdateOptions> = {}) {
  const { io, out } = captureIo();
  const env: Record<string, string> = { PI_INSTALL_BASE_URL: base };
  const options: SelfUpdateOptions = {
    force: false,
    selfUpdateSetting: undefined,
    form: "binary",
    execPath: path,
    version: "1.6.0",
    env: (name) => env[name],
    platform: { os: "linux", arch: "x86_64" },
    ...over,
  };
  let code: number | undefined;
  let error: Error | undefined;
  try {
    code = await runSelfUpdate({ io, cwd: Deno.cwd(), agentDir: "/nonexistent" }, options);
  } catch (e) {
    error = e as Error;
  }
  return { code, error: error?.message, stdout: plain(out.stdout), stderr: plain(out.stderr) };
}

Deno.test("PKG-04 self-update: platform assets are the release's names (scripts/build.ts TARGETS)", () => {
  assertEquals(
    [
      assetForPlatform("linux", "x86_64"),
      assetForPlatform("linux", "aarch64"),
      assetForPlatform("darwin", "x86_64"),
      assetForPlatform("darwin", "aarch64"),
      assetForPlatform("windows", "x86_64"),
    ],
    Object.values(TARGETS),
  );
  assertEquals([assetForPlatform("windows", "aarch64"), assetForPlatform("freebsd", "x86_64")], [
    undefined,
    undefined,
  ]);
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assertEquals(releaseBaseUrl(env({})), "https://github.com/OWNER/pi-deno/releases");
  assertEquals(releaseBaseUrl(env({ PI_INSTALL_REPO: "me/pi" })), "https://github.com/me/pi/releases");
  assertEquals(
    releaseBaseUrl(env({ PI_INSTALL_REPO: "me/pi", PI_INSTALL_BASE_URL: "http://m/r/" })),
    "http://m/r",
  );
  const hex = "ab".repeat(32);
  assertEquals(
    [...parseChecksums(`${hex}  pi-linux-x64\n${hex.toUpperCase()} *pi-windows-x64.exe\r\nnot a line\n`)],
    [["pi-linux-x64", hex], ["pi-windows-x64.exe", hex]],
  );
});

Deno.test("PKG-04 self-update: a binary downloads the newer release, checks SHA256SUMS and replaces itself", async () => {
  const installed = await installedBinary();
  const release = startReleaseServer("v1.7.0", {
    "pi-linux-x64": fakeBinary("1.7.0"),
    "pi-darwin-arm64": fakeBinary("x"),
  });
  try {
    const run = await binaryUpdate(release.base, installed.path);
    assertEquals(run.error, undefined);
    assertEquals(run.code, 0);
    assertEquals(run.stdout.split("\n"), [
      `Updating ${installed.path} to v1.7.0 (pi-linux-x64 from ${release.base})...`,
      "Updated pi from 1.6.0 to 1.7.0",
      "",
    ]);
    assertEquals(await Deno.readFile(installed.path), fakeBinary("1.7.0"));
    assert(((await Deno.stat(installed.path)).mode! & 0o111) !== 0, "still executable");
    assertEquals(await Array.fromAsync(Deno.readDir(installed.dir), (e) => e.name), ["pi"]);
    assertEquals(release.requests, [
      "/releases/latest",
      "/releases/download/v1.7.0/SHA256SUMS",
      "/releases/download/v1.7.0/pi-linux-x64",
    ]);
  } finally {
    await release.close();
    await installed.cleanup();
  }
});

Deno.test("PKG-04 self-update: already up to date is 1.6.0's green line, exit 0, nothing downloaded", async () => {
  const installed = await installedBinary();
  const release = startReleaseServer("v1.6.0", { "pi-linux-x64": fakeBinary("1.6.0") });
  try {
    const run = await binaryUpdate(release.base, installed.path);
    assertEquals([run.code, run.stdout, run.error], [0, "pi is already up to date (v1.6.0)\n", undefined]);
    assertEquals(release.requests, ["/releases/latest"]);
    // --force reinstalls the same version.
    const forced = await binaryUpdate(release.base, installed.path, { force: true });
    assertEquals([forced.code, forced.error], [0, undefined]);
    assertStringIncludes(forced.stdout, "Updated pi from 1.6.0 to 1.6.0\n");
  } finally {
    await release.close();
    await installed.cleanup();
  }
});

Deno.test("PKG-04 self-update: a checksum mismatch, a missing line or a binary that does not run replaces nothing", async () => {
  const installed = await installedBinary();
  const unchanged = async () => {
    assertEquals(await Deno.readFile(installed.path), fakeBinary("1.6.0"));
    assertEquals(await Array.fromAsync(Deno.readDir(installed.dir), (e) => e.name), ["pi"]);
  };
  const good = fakeBinary("1.7.0");
  const goodSum = await sha256Hex(good);
  const badSum = "0".repeat(64);
  try {
    let release = startReleaseServer("v1.7.0", { "pi-linux-x64": good }, `${badSum}  pi-linux-x64\n`);
    let run = await binaryUpdate(release.base, installed.path);
    assertEquals(
      run.error,
      `the SHA-256 of pi-linux-x64 (v1.7.0) is ${goodSum}, but SHA256SUMS says ${badSum}; nothing was replaced`,
    );
    await unchanged();
    await release.close();

    release = startReleaseServer("v1.7.0", { "pi-linux-x64": good }, `${goodSum}  pi-darwin-x64\n`);
    run = await binaryUpdate(release.base, installed.path);
    assertEquals(run.error, "SHA256SUMS of v1.7.0 has no line for pi-linux-x64; nothing was replaced");
    await unchanged();
    await release.close();

    release = startReleaseServer("v1.7.0", { "pi-linux-x64": fakeBinary("1.7.0", false) });
    run = await binaryUpdate(release.base, installed.path);
    assertEquals(
      run.error,
      "the downloaded binary does not run here (it exited with code 126: pi: cannot execute binary file: " +
        "Exec format error); nothing was replaced",
    );
    await unchanged();
    await release.close();
  } finally {
    await installed.cleanup();
  }
});

Deno.test("PKG-04 self-update: no release (offline, no redirect) and an unknown platform are errors", async () => {
  const installed = await installedBinary();
  const release = startReleaseServer("v1.7.0", {});
  try {
    const offline = await binaryUpdate(release.base, installed.path, {
      env: (name) => ({ PI_INSTALL_BASE_URL: release.base, PI_OFFLINE: "1" } as Record<string, string>)[name],
    });
    assertEquals(offline.error, "Could not determine latest pi version.");
    const missing = await binaryUpdate(`${release.base}/nothing-here`, installed.path);
    assertEquals(missing.error, "Could not determine latest pi version.");
    const riscv = await binaryUpdate(release.base, installed.path, {
      platform: { os: "linux", arch: "riscv64" },
    });
    assertEquals(
      riscv.error,
      "the release has no pi binary for linux-riscv64; set PI_SELF_UPDATE_COMMAND or the selfUpdateCommand " +
        "setting to update this installation your own way",
    );
    assertEquals(await Deno.readFile(installed.path), fakeBinary("1.6.0"));
  } finally {
    await release.close();
    await installed.cleanup();
  }
});

Deno.test("PKG-04 custom update command: PI_SELF_UPDATE_COMMAND wins over the setting; placeholders as 1.6.0", () => {
  assertEquals(configuredSelfUpdateArgv("  mise use -g  x ", ["nix"]), ["mise", "use", "-g", "x"]);
  assertEquals(configuredSelfUpdateArgv("   ", ["nix", "profile"]), ["nix", "profile"]);
  assertEquals(configuredSelfUpdateArgv(undefined, undefined), undefined);
  assertEquals(configuredSelfUpdateArgv(undefined, []), undefined);
  assertThrows(
    () => configuredSelfUpdateArgv(undefined, "nix profile upgrade pi"),
    'selfUpdateCommand in settings.json must be an array of strings (command and arguments), such as ["nix", ' +
      '"profile", "upgrade", "pi"]; found "nix profile upgrade pi"',
  );
  assertEquals(
    PACKAGE_NAME,
    JSON.parse(Deno.readTextFileSync(new URL("../../deno.json", import.meta.url))).name,
  );
  assertEquals(
    fillSelfUpdateCommand(["up", "{packageName}", "{version}", "--spec={installSpec}", "a b"], "1.7.0"),
    {
      command: "up",
      args: [PACKAGE_NAME, "1.7.0", `--spec=${PACKAGE_NAME}@1.7.0`, "a b"],
      display: `up ${PACKAGE_NAME} 1.7.0 --spec=${PACKAGE_NAME}@1.7.0 "a b"`,
    },
  );
});

Deno.test("PKG-04 pi update (real CLI, source checkout) runs PI_SELF_UPDATE_COMMAND when the release is newer", async () => {
  const release = startReleaseServer("v1.7.0", {});
  const agent = await createAgentEnv("http://127.0.0.1:9");
  try {
    const bin = join(agent.root, "bin");
    await Deno.mkdir(bin);
    const record = join(agent.root, "args.txt");
    // The update command records its arguments and leaves a pi 1.7.0 on PATH.
    await Deno.writeTextFile(
      join(bin, "updater"),
      `#!/bin/sh\necho "$@" > '${record}'\nprintf '#!/bin/sh\\necho "1.7.0 (binary)"\\n' > '${bin}/pi'\nchmod +x '${bin}/pi'\n`,
    );
    await Deno.chmod(join(bin, "updater"), 0o755);
    const env = {
      ...agent.env,
      PATH: `${bin}:${agent.env.PATH}`,
      PI_INSTALL_BASE_URL: release.base,
      PI_SELF_UPDATE_COMMAND: "updater {packageName} {version} {installSpec}",
    };
    const run = await spawnPi(["update", "--self"], { env, cwd: agent.cwd });
    assertEquals([run.code, run.stderr], [0, ""]);
    assertEquals(
      run.stdout,
      `Updating pi with updater ${PACKAGE_NAME} 1.7.0 ${PACKAGE_NAME}@1.7.0...\nUpdated pi from 1.6.0 to 1.7.0\n`,
    );
    assertEquals(await Deno.readTextFile(record), `${PACKAGE_NAME} 1.7.0 ${PACKAGE_NAME}@1.7.0\n`);

    // A command that leaves another version on PATH: 1.6.0's yellow note, still exit 0.
    await Deno.writeTextFile(join(bin, "updater"), `#!/bin/sh\nexit 0\n`);
    await Deno.writeTextFile(join(bin, "pi"), `#!/bin/sh\necho "1.6.0 (binary)"\n`);
    const stale = await spawnPi(["update", "pi"], { env, cwd: agent.cwd });
    assertEquals([stale.code, stale.stderr], [0, ""]);
    assertStringIncludes(
      stale.stdout,
      "Ran updater " +
        `${PACKAGE_NAME} 1.7.0 ${PACKAGE_NAME}@1.7.0, but \`pi --version\` reports 1.6.0, not 1.7.0.\n`,
    );

    // A failing command is an error, exit 1.
    await Deno.writeTextFile(join(bin, "updater"), `#!/bin/sh\nexit 3\n`);
    const failed = await spawnPi(["update", "self"], { env, cwd: agent.cwd });
    assertEquals(failed.code, 1);
    assertEquals(
      failed.stderr,
      `Error: updater ${PACKAGE_NAME} 1.7.0 ${PACKAGE_NAME}@1.7.0 exited with code 3\n`,
    );

    // The setting (an argv array) is used without the variable; a string there is refused plainly.
    const { PI_SELF_UPDATE_COMMAND: _, ...withoutVariable } = env;
    await Deno.writeTextFile(
      join(agent.agentDir, "settings.json"),
      JSON.stringify({ selfUpdateCommand: "updater x" }),
    );
    const wrong = await spawnPi(["update"], { env: withoutVariable, cwd: agent.cwd });
    assertEquals(wrong.code, 1);
    assertStringIncludes(
      wrong.stderr,
      "Error: selfUpdateCommand in settings.json must be an array of strings",
    );
  } finally {
    await release.close();
    await agent.cleanup();
  }
});
