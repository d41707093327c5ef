/**
 * src/util/fs.ts, os.ts and bytes.ts against what node:fs, node:os and Buffer answer (the texts
 * pi used to show come from there, and the reference's come from Node).
 */
import { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";
import nodeFs from "node:fs";
import { access, readFile } from "node:fs/promises";
import nodeOs from "node:os";
import { assert, assertEquals } from "../support/assert.ts";
import { denoDir } from "../support/agent_env.ts";
import { fromBase64, randomHex, toBase64 } from "../../src/util/bytes.ts";
import {
  checkAccess,
  existsSync,
  makeDir,
  nodeError,
  readDirNames,
  readDirSorted,
  readFileBytes,
  writeTextFile,
} from "../../src/util/fs.ts";
import { homeDir, tmpDir } from "../../src/util/os.ts";

async function messageOf(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
  } catch (error) {
    return `${(error as { code?: string }).code} ${(error as Error).message}`;
  }
  return "no error";
}

Deno.test("util/fs: error texts equal Node's for missing files, folders and bad parents", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const missing = `${dir}/missing.txt`;
    await Deno.writeTextFile(`${dir}/file.txt`, "x");
    assertEquals(
      await messageOf(() => checkAccess(missing)),
      `ENOENT ENOENT: no such file or directory, access '${missing}'`,
    );
    assertEquals(await messageOf(() => checkAccess(missing)), await messageOf(() => access(missing)));
    assertEquals(await messageOf(() => readFileBytes(missing)), await messageOf(() => readFile(missing)));
    assertEquals(
      await messageOf(() => readFileBytes(dir)),
      "EISDIR EISDIR: illegal operation on a directory, read",
    );
    assertEquals(
      await messageOf(() => writeTextFile(dir, "x")),
      `EISDIR EISDIR: illegal operation on a directory, open '${dir}'`,
    );
    assertEquals(
      await messageOf(() => makeDir(`${dir}/file.txt/sub`)),
      `ENOTDIR ENOTDIR: not a directory, mkdir '${dir}/file.txt/sub'`,
    );
    assertEquals(await messageOf(() => checkAccess(`${dir}/file.txt`, { write: true })), "no error");
    assertEquals(await messageOf(() => checkAccess(dir, { write: true })), "no error");
    const plain = new Error("plain");
    assert(nodeError(plain, "open", "/x") === plain);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("util/fs: existsSync and sorted listings agree with node:fs", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const name of ["zeta", "alpha", "Mid", "10", "9", "_x", "beta"]) {
      await Deno.writeTextFile(`${dir}/${name}`, "");
    }
    await Deno.mkdir(`${dir}/sub`);
    await Deno.symlink(`${dir}/nowhere`, `${dir}/dangling`);
    assertEquals(await readDirNames(dir), nodeFs.readdirSync(dir));
    assertEquals(
      readDirSorted(dir).map((e) => [e.name, e.isFile, e.isDirectory]),
      nodeFs.readdirSync(dir, { withFileTypes: true }).map((e) => [e.name, e.isFile(), e.isDirectory()]),
    );
    for (const p of [dir, `${dir}/alpha`, `${dir}/dangling`, `${dir}/nope`, ""]) {
      assertEquals(existsSync(p), nodeFs.existsSync(p), p);
    }
    assertEquals(
      await messageOf(() => readDirNames(`${dir}/nope`)),
      `ENOENT ENOENT: no such file or directory, scandir '${dir}/nope'`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** What `node:os` answers for `homedir()` and `tmpdir()` in a child process with exactly `env`. */
async function nodeOsAnswers(env: Record<string, string>): Promise<{ home: string; tmp: string }> {
  const code = `import os from "node:os";
console.log(JSON.stringify({ home: os.homedir(), tmp: os.tmpdir() }));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-config", code],
    env: { DENO_DIR: denoDir(), ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** A fixed environment for the functions under test, as `Deno.env` would give it. */
function envOf(vars: Record<string, string>) {
  return { get: (name: string) => vars[name] };
}

Deno.test("util/os: homeDir and tmpDir read the environment like node:os", async () => {
  // This process's own environment: the defaults read Deno.env.
  assertEquals(homeDir(), nodeOs.homedir());
  assertEquals(tmpDir(), nodeOs.tmpdir());
  // Other environments, given explicitly (never set on this process, which other tests share),
  // against node:os in a child with exactly that environment.
  const cases: Record<string, string>[] = [
    { HOME: "/some/home", TMPDIR: "/var/tmp/" },
    { HOME: "/some/home/", TMPDIR: "/x" },
    { HOME: "/h", TMPDIR: "/" },
    { HOME: "/h", TMP: "/from/tmp/" },
    { HOME: "/h", TEMP: "/from/temp" },
    { HOME: "/h" },
    { TMPDIR: "/t" },
  ];
  for (const vars of cases) {
    const node = await nodeOsAnswers(vars);
    const label = JSON.stringify(vars);
    assertEquals(homeDir(envOf(vars)), node.home, label);
    assertEquals(tmpDir(envOf(vars)), node.tmp, label);
  }
});

Deno.test("util/bytes: base64 both ways and hex equal Buffer's output", () => {
  for (const size of [0, 1, 2, 3, 4, 5, 255, 256, 70000]) {
    const bytes = new Uint8Array(randomBytes(size));
    const b64 = Buffer.from(bytes).toString("base64");
    assertEquals(toBase64(bytes), b64);
    assertEquals(fromBase64(b64), new Uint8Array(Buffer.from(b64, "base64")));
  }
  for (const text of ["aGVsbG8", "aGVs bG8=\n", "a-_b", "aGVsbG8=trailing", "Q", "", "!!aGk="]) {
    assertEquals(fromBase64(text), new Uint8Array(Buffer.from(text, "base64")), text);
  }
  assert(/^[0-9a-f]{16}$/.test(randomHex(8)));
  assert(randomHex(8) !== randomHex(8));
});
