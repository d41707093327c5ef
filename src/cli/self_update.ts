/**
 * `pi update` for pi itself (pi 1.6.0 docs/cli.md "Update Pi or packages"; issue 18), after the
 * packages when the target includes them. In 1.6.0's order:
 *
 * 1. A configured command (`PI_SELF_UPDATE_COMMAND`, the `selfUpdateCommand` setting) is the
 *    user's explicit choice: when the latest release is newer (or `--force`), it runs, and pi
 *    reports the version `pi --version` on PATH shows afterwards.
 * 2. A standalone binary updates itself: the latest release's asset for this platform is
 *    downloaded, checked against the release's SHA256SUMS, started once (`--version`), and renamed
 *    over the running binary (self_update_release.ts, self_update_replace.ts).
 * 3. A source checkout or a bundle cannot replace itself: pi says how that installation is
 *    updated and exits 1, as 1.6.0 does for an installation it cannot update.
 *
 * "Already up to date" is 1.6.0's green `pi is already up to date (v1.6.0)`, exit 0.
 *
 * @module
 */
import { APP_NAME } from "../config/paths.ts";
import { compareVersions } from "../resources/packages/package_update.ts";
import { readEnv } from "../util/env.ts";
import { dim, green, yellow } from "../util/style.ts";
import { VERSION } from "../version.ts";
import {
  configuredSelfUpdateArgv,
  fillSelfUpdateCommand,
  runCommandLine,
  versionOnPath,
} from "./self_update_command.ts";
import {
  assetForPlatform,
  downloadVerifiedAsset,
  latestReleaseTag,
  releaseBaseUrl,
  versionOfTag,
} from "./self_update_release.ts";
import { replaceBinary } from "./self_update_replace.ts";
import type { SubcommandContext } from "./subcommand_context.ts";
import { currentRunForm, type RunForm } from "./version_form.ts";

/** What the self-update runs with; the defaults read the running process (tests inject their own). */
export interface SelfUpdateOptions {
  /** `--force`: update even when the latest release is not newer. */
  force: boolean;
  /** `selfUpdateCommand` of the agent dir's settings.json (unchecked). */
  selfUpdateSetting: unknown;
  /** The form running (default: this process's). */
  form?: RunForm;
  /** The binary to replace (default: `Deno.execPath()`). */
  execPath?: string;
  /** The version running (default: {@link VERSION}). */
  version?: string;
  /** Environment variables (default: the process's). */
  env?: (name: string) => string | undefined;
  /** `Deno.build.os` / `.arch` (default: this machine's). */
  platform?: { os: string; arch: string };
}

/** The latest release, or the error 1.6.0 gives when it cannot be found. */
async function latestRelease(base: string, env: (name: string) => string | undefined): Promise<string> {
  let tag: string | undefined;
  // As 1.6.0: any PI_OFFLINE value means no version request.
  if (!env("PI_OFFLINE")) {
    try {
      tag = await latestReleaseTag(base);
    } catch (error) {
      throw new Error(`Could not determine latest ${APP_NAME} version: ${(error as Error).message}`);
    }
  }
  if (!tag) throw new Error(`Could not determine latest ${APP_NAME} version.`);
  return tag;
}

/**
 * Updates pi itself; resolves with the exit code. Errors (no release found, a failed download or
 * checksum) are thrown for the package command to print as `Error: …` in red, exit 1.
 */
export async function runSelfUpdate(ctx: SubcommandContext, options: SelfUpdateOptions): Promise<number> {
  const { io } = ctx;
  const env = options.env ?? readEnv;
  const current = options.version ?? VERSION;
  const form = options.form ?? currentRunForm();
  const argv = configuredSelfUpdateArgv(env("PI_SELF_UPDATE_COMMAND"), options.selfUpdateSetting);
  if (!argv && form !== "binary") {
    io.stderr(cannotSelfUpdate(form));
    return 1;
  }
  const base = releaseBaseUrl(env);
  const tag = await latestRelease(base, env);
  const version = versionOfTag(tag);
  if (!options.force && compareVersions(version, current) <= 0) {
    io.stdout(`${green(`${APP_NAME} is already up to date (v${current})`)}\n`);
    return 0;
  }

  if (argv) {
    const line = fillSelfUpdateCommand(argv, version);
    io.stdout(`${dim(`Updating ${APP_NAME} with ${line.display}...`)}\n`);
    await runCommandLine(line);
    // Exit code 0 does not prove an update (a wrapper may install elsewhere): ask the pi on PATH.
    const installed = await versionOnPath(APP_NAME, options.env ? env("PATH") : undefined);
    if (installed === version) io.stdout(`${green(`Updated ${APP_NAME} from ${current} to ${version}`)}\n`);
    else {
      io.stdout(
        `${
          yellow(
            `Ran ${line.display}, but \`${APP_NAME} --version\` reports ${
              installed ?? "no version"
            }, not ${version}.`,
          )
        }\n`,
      );
    }
    return 0;
  }

  const platform = options.platform ?? { os: Deno.build.os, arch: Deno.build.arch };
  const asset = assetForPlatform(platform.os, platform.arch);
  if (!asset) {
    throw new Error(
      `the release has no ${APP_NAME} binary for ${platform.os}-${platform.arch}; ` +
        `set PI_SELF_UPDATE_COMMAND or the selfUpdateCommand setting to update this installation your own way`,
    );
  }
  const target = options.execPath ?? Deno.execPath();
  io.stdout(`${dim(`Updating ${target} to ${tag} (${asset} from ${base})...`)}\n`);
  const bytes = await downloadVerifiedAsset(base, tag, asset);
  await replaceBinary(bytes, { target, version, windows: platform.os === "windows" });
  io.stdout(`${green(`Updated ${APP_NAME} from ${current} to ${version}`)}\n`);
  return 0;
}

/**
 * What a source checkout or a bundle says to `pi update`: how that installation is updated, and
 * 1.6.0's hint about a custom update command.
 */
function cannotSelfUpdate(form: RunForm): string {
  const lines = [`error: ${APP_NAME} cannot self-update this installation.`];
  const main = new URL(Deno.mainModule);
  if (form === "source" && main.protocol === "file:") {
    const checkout = decodeURIComponent(new URL(".", main).pathname).replace(/\/$/, "");
    lines.push(
      `This is pi for Deno run from ${checkout}. Update it with \`git -C ${checkout} pull\`, ` +
        `then run \`deno task install\` there if the ${APP_NAME} command should be re-created.`,
    );
  } else if (form === "bundle") {
    lines.push(
      `This is the bundled pi for Deno (${decodeURIComponent(main.pathname)}). Build a new bundle with ` +
        `\`deno task bundle\` in an updated checkout, or install the standalone binary (install.sh), ` +
        `which \`${APP_NAME} update\` can update.`,
    );
  } else {
    lines.push(`This is pi for Deno run from ${main.href}. Update it where it comes from.`);
  }
  lines.push(
    `To make \`${APP_NAME} update\` run your own update command, set PI_SELF_UPDATE_COMMAND or the selfUpdateCommand setting.`,
  );
  lines.push(`Packages are updated with \`${APP_NAME} update --extensions\`.`);
  return `${lines.join("\n")}\n`;
}
