import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { homedir } from "node:os";
import { join } from "node:path";
import { expandPath, resolveReadPath, resolveToCwd } from "../../src/tools/path_utils.ts";

Deno.test("TOOLS-COMMON expandPath strips @, expands ~ and normalises unicode spaces", () => {
  assertEquals(expandPath("@src/a.ts"), "src/a.ts");
  assertEquals(expandPath("~"), homedir());
  assertEquals(expandPath("~/x/y"), homedir() + "/x/y");
  assertEquals(expandPath("@~/x"), homedir() + "/x");
  assertEquals(expandPath("~x"), "~x");
  assertEquals(expandPath("a\u00A0b\u2003c\u202Fd\u3000e"), "a b c d e");
});

Deno.test("TOOLS-COMMON resolveToCwd keeps absolute paths and resolves relative ones", () => {
  assertEquals(resolveToCwd("/etc/hosts", "/tmp"), "/etc/hosts");
  assertEquals(resolveToCwd("a/../b.txt", "/tmp/w"), "/tmp/w/b.txt");
  assertEquals(resolveToCwd("@b.txt", "/tmp/w"), "/tmp/w/b.txt");
});

Deno.test("TOOLS-COMMON resolveReadPath finds macOS screenshot spellings", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const amPm = "Screenshot 2024-01-01 at 10.00.00\u202FAM.png";
    await Deno.writeTextFile(join(dir, amPm), "x");
    assertEquals(resolveReadPath("Screenshot 2024-01-01 at 10.00.00 AM.png", dir), join(dir, amPm));

    const nfd = "cafe\u0301.txt";
    await Deno.writeTextFile(join(dir, nfd), "x");
    assertEquals(resolveReadPath("caf\u00e9.txt", dir), join(dir, nfd));

    const curly = "Capture d\u2019ecran.png";
    await Deno.writeTextFile(join(dir, curly), "x");
    assertEquals(resolveReadPath("Capture d'ecran.png", dir), join(dir, curly));

    const both = "Capture d\u2019e\u0301cran 2.png";
    await Deno.writeTextFile(join(dir, both), "x");
    assertEquals(resolveReadPath("Capture d'\u00e9cran 2.png", dir), join(dir, both));

    assertEquals(resolveReadPath("missing.txt", dir), join(dir, "missing.txt"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
