/**
 * src/util/path.ts against node:path on a large table: every function, both flavours, with the
 * edge cases ("", ".", "..", trailing and repeated separators, drive letters, UNC roots, suffixes).
 */
import nodePath from "node:path";
import { assertEquals } from "../support/assert.ts";
import * as hostPath from "../../src/util/path.ts";
import { win32 } from "../../src/util/path_win32.ts";

const path = { ...hostPath, win32 };

const POSIX_CASES = [
  "",
  ".",
  "..",
  "/",
  "//",
  "///",
  "a",
  "a/",
  "a//",
  "/a",
  "/a/",
  "//a",
  "///a",
  "a/b",
  "a/b/",
  "a//b",
  "a/./b",
  "a/../b",
  "../a",
  "../../a/b",
  "./a",
  "./",
  "a/..",
  "a/../..",
  "/..",
  "/../a",
  "/a/b/../../..",
  "a/b/c/../../d",
  ".a",
  "..a",
  "a.",
  "a..",
  ".a.b",
  "a.b.c",
  "a/b.txt",
  "a/b.txt/",
  "/a/.b",
  "/a/b.",
  "file.tar.gz",
  "/x/y/z.md",
  "~/a",
  "a\\b",
  "C:\\a",
  "/a/b/c/",
  "./../a",
  "a/./",
  "/.",
  "/./a/.",
  "foo/bar/..",
  "...",
  "a/...",
  ".../a",
  "/tmp//x///y",
];

const WIN_CASES = [
  ...POSIX_CASES,
  "C:",
  "C:\\",
  "C:/",
  "c:\\a\\b",
  "C:a",
  "C:a\\b",
  "C:..\\a",
  "\\\\server\\share",
  "\\\\server\\share\\",
  "\\\\server\\share\\a\\b",
  "//server/share/a",
  "\\\\server",
  "\\a\\b",
  "a\\b\\..\\c",
  "C:\\a\\..\\..",
  "D:\\x\\y\\",
  "\\\\\\a",
  "C:\\a.b\\c.d",
  "a\\b.",
];

const SUFFIXES = [undefined, "", ".txt", "txt", "b.txt", ".md", "b", "a", "x", "/", "c.d"];

function pairs(cases: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (const a of cases) for (const b of cases) out.push([a, b]);
  return out;
}

type Flavour = "posix" | "win32";

/**
 * Deno's node:path.win32 resolves against the POSIX working directory unconverted on a POSIX host
 * (real Node converts it), so the win32 table resolves against a fixed drive base instead.
 */
function compareFlavour(flavour: Flavour, cases: string[]): string[] {
  const base = flavour === "win32" ? ["C:\\base\\dir"] : [];
  const ours = path[flavour];
  const node = nodePath[flavour];
  const mismatches: string[] = [];
  const check = (label: string, actual: unknown, expected: unknown) => {
    if (actual !== expected) {
      mismatches.push(`${label}: ours ${JSON.stringify(actual)} node ${JSON.stringify(expected)}`);
    }
  };
  for (const p of cases) {
    const q = JSON.stringify(p);
    check(`normalize(${q})`, ours.normalize(p), node.normalize(p));
    check(`isAbsolute(${q})`, ours.isAbsolute(p), node.isAbsolute(p));
    check(`dirname(${q})`, ours.dirname(p), node.dirname(p));
    check(`extname(${q})`, ours.extname(p), node.extname(p));
    check(`resolve(${q})`, ours.resolve(...base, p), node.resolve(...base, p));
    for (const s of SUFFIXES) check(`basename(${q}, ${s})`, ours.basename(p, s), node.basename(p, s));
  }
  for (const [a, b] of pairs(cases)) {
    const q = `${JSON.stringify(a)}, ${JSON.stringify(b)}`;
    check(`join(${q})`, ours.join(a, b), node.join(a, b));
    check(`resolve(${q})`, ours.resolve(...base, a, b), node.resolve(...base, a, b));
    const [from, to] = flavour === "win32" ? [ours.resolve(...base, a), ours.resolve(...base, b)] : [a, b];
    check(`relative(${q})`, ours.relative(from, to), node.relative(from, to));
  }
  check("join()", ours.join(), node.join());
  if (flavour === "posix") check("resolve()", ours.resolve(), node.resolve());
  check("sep", ours.sep, node.sep);
  check("delimiter", ours.delimiter, node.delimiter);
  return mismatches;
}

Deno.test("path: posix functions equal node:path.posix on every case and pair", () => {
  assertEquals(compareFlavour("posix", POSIX_CASES), []);
});

Deno.test("path: win32 functions equal node:path.win32 on every case and pair", () => {
  assertEquals(compareFlavour("win32", WIN_CASES), []);
});

Deno.test("path: relative with common prefixes and three-part joins", () => {
  const cases: [string, string][] = [
    ["/a/bc", "/a/b"],
    ["/a/b", "/a/bc"],
    ["/a/b/c", "/a/b"],
    ["/a/b", "/a/b/c"],
    ["/", "/a"],
    ["/a", "/"],
    ["/foo/bar/baz-quux", "/foo/bar/baz"],
    ["/foo/bar/baz", "/foo/bar/baz-quux"],
    ["/baz-quux", "/baz"],
    ["/page1/page2/foo", "/"],
    ["/var/lib", "/bin"],
    ["/var/", "/var/lib"],
  ];
  for (const [a, b] of cases) {
    assertEquals(path.posix.relative(a, b), nodePath.posix.relative(a, b), `${a} → ${b}`);
  }
  const winCases: [string, string][] = [
    ["c:/blah\\blah", "d:/games"],
    ["c:/aaaa/bbbb", "c:/aaaa"],
    ["c:/aaaa/bbbb", "c:/cccc"],
    ["c:/aaaa/", "c:/aaaa/cccc"],
    ["C:\\foo\\bar\\baz\\quux", "C:\\"],
    ["C:\\foo\\test", "C:\\foo\\test\\bar\\package.json"],
    ["\\\\foo\\bar", "\\\\foo\\bar\\baz"],
    ["\\\\foo\\bar\\baz-quux", "\\\\foo\\bar\\baz"],
    ["C:\\baz-quux", "C:\\baz"],
    ["C:\\baz", "\\\\foo\\bar\\baz"],
    ["\\\\foo\\baz", "\\\\foo\\baz-quux"],
    ["c:/AaAa/bbbb", "c:/aaaa/bbbb"],
  ];
  for (const [a, b] of winCases) {
    assertEquals(path.win32.relative(a, b), nodePath.win32.relative(a, b), `${a} → ${b}`);
  }
  assertEquals(
    path.posix.join("/a", "", "b/", "../c", "./d/"),
    nodePath.posix.join("/a", "", "b/", "../c", "./d/"),
  );
  assertEquals(path.win32.join("//server", "share", "x"), nodePath.win32.join("//server", "share", "x"));
  assertEquals(path.posix.resolve("/a", "b", "/c", "d"), "/c/d");
  assertEquals(path.win32.resolve("C:\\a", "D:b", "e"), nodePath.win32.resolve("C:\\a", "D:b", "e"));
});

Deno.test("path: top-level functions follow the host OS", () => {
  const host = Deno.build.os === "windows" ? nodePath.win32 : nodePath.posix;
  assertEquals(path.sep, host.sep);
  assertEquals(path.delimiter, host.delimiter);
  assertEquals(path.join("a", "b", "..", "c"), host.join("a", "b", "..", "c"));
  assertEquals(path.resolve("x/y"), host.resolve("x/y"));
  assertEquals(path.relative("/a/b", "/a/c/d"), host.relative("/a/b", "/a/c/d"));
  assertEquals(path.dirname("/a/b/"), host.dirname("/a/b/"));
  assertEquals(path.basename("/a/b.txt", ".txt"), "b");
  assertEquals(path.extname("/a/b.tar.gz"), ".gz");
  assertEquals(path.isAbsolute("/a"), host.isAbsolute("/a"));
  assertEquals(path.normalize("a//b/../c/"), host.normalize("a//b/../c/"));
});

Deno.test("path: fileUrlToPath equals node:url's fileURLToPath", async () => {
  const { fileURLToPath } = await import("node:url");
  for (
    const text of ["file:///a/b", "file:///a/b/", "file:///a%20b/c%C3%A9", "file:///", "file:///x/y/../z"]
  ) {
    const url = new URL(text);
    assertEquals(path.fileUrlToPath(url), fileURLToPath(url), text);
  }
});
