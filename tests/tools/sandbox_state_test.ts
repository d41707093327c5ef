/**
 * The tools' view of a confined process (issue 15): how a command is started under each profile
 * and the texts a refused permission becomes. The confinement itself is Deno's and bubblewrap's;
 * tests/e2e/sandbox_e2e_test.ts runs it for real.
 *
 * @module
 */
import { assertEquals, assertThrows } from "../support/assert.ts";
import { sandboxedCommand, setToolSandbox, type ToolSandbox } from "../../src/tools/sandbox_state.ts";
import { permissionDeniedText } from "../../src/tools/permission_errors.ts";

const PROJECT: ToolSandbox = {
  profile: "project",
  projectDir: "/w/proj",
  readable: ["/w/proj", "/tmp", "/data"],
  writable: ["/w/proj", "/tmp"],
  bwrap: "/usr/bin/bwrap",
};

function withSandbox(sandbox: ToolSandbox | undefined, fn: () => void): void {
  setToolSandbox(sandbox);
  try {
    fn();
  } finally {
    setToolSandbox(undefined);
  }
}

Deno.test("sandboxedCommand: unchanged without a sandbox", () => {
  assertEquals(sandboxedCommand("/bin/bash", ["-c", "ls"], "/w", { LD_PRELOAD: "/x.so", PATH: "/bin" }), {
    program: "/bin/bash",
    args: ["-c", "ls"],
    env: { LD_PRELOAD: "/x.so", PATH: "/bin" },
  });
});

Deno.test("sandboxedCommand: LD_* and DYLD_* variables reach the command through bubblewrap's --setenv, not its environment", () => {
  // Deno refuses to spawn anything with them in the environment when only bwrap may be run (the
  // fresh-machine check runs under libfaketime's LD_PRELOAD and caught it).
  withSandbox(PROJECT, () => {
    const env = {
      LD_PRELOAD: "/lib/faketime.so",
      LD_LIBRARY_PATH: "/opt/lib",
      DYLD_X: "1",
      PATH: "/bin",
      HOME: "/h",
    };
    const spawn = sandboxedCommand("/bin/bash", ["-c", "ls"], "/w/proj", env);
    assertEquals(spawn.env, { PATH: "/bin", HOME: "/h" });
    const setenv = spawn.args.flatMap((arg, i) =>
      arg === "--setenv" ? [`${spawn.args[i + 1]}=${spawn.args[i + 2]}`] : []
    );
    assertEquals(setenv, ["LD_PRELOAD=/lib/faketime.so", "LD_LIBRARY_PATH=/opt/lib", "DYLD_X=1"]);
    assertEquals(spawn.args.slice(-6), ["--chdir", "/w/proj", "--", "/bin/bash", "-c", "ls"]);
  });
});

Deno.test("sandboxedCommand: project runs through bubblewrap with system folders read-only, no network", () => {
  withSandbox(PROJECT, () => {
    const { program, args } = sandboxedCommand("/bin/bash", ["-c", "ls"], "/w/proj/src");
    assertEquals(program, "/usr/bin/bwrap");
    assertEquals(args.slice(0, 7), [
      "--die-with-parent",
      "--unshare-net",
      "--unshare-ipc",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
    ]);
    const binds: string[] = [];
    for (let i = 7; i < args.length && args[i].startsWith("--") && args[i] !== "--chdir"; i += 3) {
      binds.push(`${args[i]} ${args[i + 1]}`);
    }
    assertEquals(binds, [
      "--ro-bind-try /usr",
      "--ro-bind-try /bin",
      "--ro-bind-try /sbin",
      "--ro-bind-try /lib",
      "--ro-bind-try /lib32",
      "--ro-bind-try /lib64",
      "--ro-bind-try /etc",
      "--ro-bind-try /w/proj",
      "--ro-bind-try /tmp",
      "--ro-bind-try /data",
      "--bind-try /w/proj",
      "--bind-try /tmp",
    ]);
    assertEquals(args.slice(-6), ["--chdir", "/w/proj/src", "--", "/bin/bash", "-c", "ls"]);
  });
});

Deno.test("sandboxedCommand: refused under read-only and without bubblewrap", () => {
  withSandbox({ ...PROJECT, profile: "read-only" }, () => {
    assertThrows(
      () => sandboxedCommand("/bin/bash", ["-c", "ls"], "/w/proj"),
      'permission denied: run commands (sandbox profile "read-only" runs no subprocesses; use read, grep, find and ls)',
    );
  });
  withSandbox({ ...PROJECT, bwrap: undefined }, () => {
    assertThrows(
      () => sandboxedCommand("/bin/bash", ["-c", "ls"], "/w/proj"),
      "bubblewrap (bwrap), which was not found on PATH; install it (Debian: apt-get install bubblewrap) or use --sandbox full",
    );
  });
});

Deno.test("permissionDeniedText: Deno's refusals per kind and profile; other errors are left alone", () => {
  const denied = (kind: string, target: string) =>
    new Deno.errors.NotCapable(
      `Requires ${kind} access to "${target}", run again with the --allow-${kind} flag`,
    );
  withSandbox(PROJECT, () => {
    assertEquals(
      permissionDeniedText(denied("write", "/etc/hosts")),
      'permission denied: write /etc/hosts outside the project (sandbox profile "project")',
    );
    assertEquals(
      permissionDeniedText(denied("write", "/x"), "/x/y/new.txt"),
      'permission denied: write /x/y/new.txt outside the project (sandbox profile "project")',
    );
    assertEquals(
      permissionDeniedText(denied("net", "example.com:443")),
      'permission denied: network access to example.com:443, not a provider host or in sandbox.allowNet (sandbox profile "project")',
    );
    assertEquals(
      permissionDeniedText(denied("run", "/bin/ls")),
      'permission denied: run /bin/ls (sandbox profile "project")',
    );
    assertEquals(permissionDeniedText(new Error("ENOENT")), undefined);
    assertEquals(
      permissionDeniedText(new Deno.errors.PermissionDenied("Permission denied (os error 13)")),
      undefined,
    );
  });
  withSandbox({ ...PROJECT, profile: "read-only" }, () => {
    assertEquals(
      permissionDeniedText(denied("write", "/w/proj/a.txt")),
      'permission denied: write /w/proj/a.txt (sandbox profile "read-only" writes no files)',
    );
  });
  assertEquals(
    permissionDeniedText(denied("read", "/etc/passwd")),
    "permission denied: read /etc/passwd outside the project (not granted to this pi process)",
  );
});
