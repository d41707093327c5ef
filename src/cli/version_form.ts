/**
 * Which form of pi for Deno is running (issue 18): the source checkout (`deno task pi`, the
 * `deno task install` command, `deno run main.ts`), the one-file `deno bundle` output, or a
 * standalone binary from `deno compile`. `pi --version` names it after the version, and `pi
 * update` picks how pi updates itself by it.
 *
 * Kept tiny and free of imports: `pi --version` loads it and nothing else.
 *
 * @module
 */

/** A form pi for Deno runs in. */
export type RunForm = "source" | "bundle" | "binary";

/** What the form is told from; {@link currentRunForm} reads them from the running process. */
export interface RunFormInputs {
  /**
   * `Deno.build.standalone`: true inside a `deno compile` binary (Deno 2.x; undefined in a
   * runtime that does not have the field).
   */
  standalone: boolean | undefined;
  /** The URL of this module as the runtime names it (`import.meta.url`). */
  moduleUrl: string;
  /** `Deno.execPath()`: the binary itself when compiled, else the `deno` executable. */
  execPath: string;
}

/** The end of this module's URL when it runs from the source tree (in a checkout or a binary). */
const SOURCE_SUFFIX = "/src/cli/version_form.ts";

/**
 * The form, from `inputs`. A binary says so through `Deno.build.standalone`; where that field is
 * missing, a binary is an executable not named `deno` whose modules live in deno compile's
 * virtual `deno-compile-<name>` folder. A bundle is one file, so this module's URL is the
 * bundle's (`dist/pi.js`), not `…/src/cli/version_form.ts`.
 */
export function detectRunForm(inputs: RunFormInputs): RunForm {
  if (inputs.standalone === true) return "binary";
  if (inputs.standalone === undefined) {
    const exe = inputs.execPath.split(/[\\/]/).pop()?.toLowerCase() ?? "";
    if (exe !== "deno" && exe !== "deno.exe" && /[\\/]deno-compile-[^\\/]+[\\/]/.test(inputs.moduleUrl)) {
      return "binary";
    }
  }
  return inputs.moduleUrl.endsWith(SOURCE_SUFFIX) ? "source" : "bundle";
}

/** The form of the running process. */
export function currentRunForm(): RunForm {
  let execPath = "";
  try {
    execPath = Deno.execPath();
  } catch {
    // Without --allow-read of the executable the name stays unknown; standalone still decides.
  }
  const build = Deno.build as { standalone?: boolean };
  return detectRunForm({ standalone: build.standalone, moduleUrl: import.meta.url, execPath });
}

/** How `pi --version` names a form after the version number. */
export const RUN_FORM_LABELS: Readonly<Record<RunForm, string>> = {
  source: "deno source",
  bundle: "bundle",
  binary: "binary",
};

/**
 * The line `pi --version` prints: the version first, exactly as pi 1.6.0 prints it alone, then the
 * form in parentheses (`1.6.0 (binary)`). Tools that compare versions read the first word.
 */
export function versionLine(version: string, form: RunForm = currentRunForm()): string {
  return `${version} (${RUN_FORM_LABELS[form]})`;
}
