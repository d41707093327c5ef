/**
 * Issue 18: `pi --version` names the form that runs (`1.6.0 (deno source)`, `(bundle)`, `(binary)`)
 * after the version, which stays the first word exactly as pi 1.6.0 prints it. The form is told by
 * a pure function, so the binary branch (which cannot be built here: `deno compile` downloads its
 * runtime) is checked with the inputs a compiled binary has. The bundle form is run for real in
 * tests/e2e/bundle_test.ts.
 */
import { assertEquals } from "../support/assert.ts";
import { moduleGraph, staticClosure } from "../support/module_graph.ts";
import { detectRunForm, type RunFormInputs, versionLine } from "../../src/cli/version_form.ts";
import { VERSION } from "../../src/version.ts";

const REPO = new URL("../../", import.meta.url);
const SOURCE_URL = new URL("src/cli/version_form.ts", REPO).href;

const inputs = (over: Partial<RunFormInputs>): RunFormInputs => ({
  standalone: false,
  moduleUrl: SOURCE_URL,
  execPath: "/usr/local/bin/deno",
  ...over,
});

Deno.test("CLI-03 version form: the source tree, the bundle and a compiled binary are told apart", () => {
  assertEquals(detectRunForm(inputs({})), "source");
  // `deno bundle` puts every module in one file: this module's URL is the bundle's.
  assertEquals(detectRunForm(inputs({ moduleUrl: "file:///opt/pi/dist/pi.js" })), "bundle");
  // Deno 2.x says so in Deno.build.standalone; the module URL is then deno compile's virtual folder.
  assertEquals(
    detectRunForm(inputs({
      standalone: true,
      moduleUrl: "file:///tmp/deno-compile-pi/work/src/cli/version_form.ts",
      execPath: "/home/me/.local/bin/pi",
    })),
    "binary",
  );
  // A runtime without the field: a binary not named deno running from deno-compile-<name>.
  assertEquals(
    detectRunForm(inputs({
      standalone: undefined,
      moduleUrl: "file:///C:/Users/me/AppData/Local/Temp/deno-compile-pi.exe/a/src/cli/version_form.ts",
      execPath: "C:\\Users\\me\\bin\\pi.exe",
    })),
    "binary",
  );
  assertEquals(
    detectRunForm(inputs({
      standalone: undefined,
      moduleUrl: "file:///tmp/deno-compile-pi/src/cli/version_form.ts",
      execPath: "/usr/bin/deno",
    })),
    "source",
  );
  assertEquals(detectRunForm(inputs({ standalone: undefined, execPath: "/usr/local/bin/pi" })), "source");
});

Deno.test("CLI-03 version line: the version first, exactly as 1.6.0 prints it, then the form", () => {
  assertEquals(versionLine(VERSION, "source"), `${VERSION} (deno source)`);
  assertEquals(versionLine(VERSION, "bundle"), `${VERSION} (bundle)`);
  assertEquals(versionLine(VERSION, "binary"), `${VERSION} (binary)`);
  for (const form of ["source", "bundle", "binary"] as const) {
    assertEquals(versionLine(VERSION, form).split(" ")[0], "1.6.0");
  }
});

Deno.test("CLI-03 pi --version from the checkout prints '1.6.0 (deno source)' on stdout, exit 0", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--no-prompt", new URL("main.ts", REPO).pathname, "--version"],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  assertEquals([out.code, text(out.stdout), text(out.stderr)], [0, `${VERSION} (deno source)\n`, ""]);
});

Deno.test("CLI-03 --version stays fast: the form module imports nothing, main.ts loads it only for --version", async () => {
  const graph = await moduleGraph();
  assertEquals([...staticClosure(graph, SOURCE_URL)], [SOURCE_URL]);
  const main = graph.get(new URL("main.ts", REPO).href);
  const edge = main?.dependencies?.find((dep) => dep.code?.specifier === SOURCE_URL);
  assertEquals(edge?.isDynamic, true);
});
