/**
 * `--sandbox <profile>` (or `"sandbox"` in the user's settings.json): runs pi under the Deno
 * permissions of a profile (src/config/sandbox_profile.ts). The unconfined process starts the
 * same `main.ts` again with the profile's `--allow-*` flags and waits for it; the confined one
 * recognises itself (the `PI_SANDBOX` variable its parent set, and write access that is not
 * global) and tells the tools (src/tools/sandbox_state.ts), so the runtime enforces the profile.
 *
 * The installed `pi` launcher can skip the second process: it starts Deno with the flags an earlier
 * run recorded (src/cli/sandbox_plan_cache.ts), and this pi goes on only when they are exactly the
 * flags of its current plan.
 *
 * A compiled pi cannot do this: `deno compile` bakes the permissions into the binary, and the
 * binary's arguments all go to pi, so it is refused there with a clear message (docs/security.md).
 *
 * @module
 */
import { readEnv } from "../util/env.ts";
import { existsSync, writeAllSync } from "../util/fs.ts";
import { red } from "../util/style.ts";
import { tmpDir } from "../util/os.ts";
import { delimiter, dirname, fileUrlToPath, join, resolve } from "../util/path.ts";
import { expandTildePath, getAgentDir, resolveSessionDir } from "../config/paths.ts";
import { stripJsonComments } from "../config/jsonc.ts";
import { BUILTIN_PROVIDER_HOSTS } from "../config/sandbox_hosts.ts";
import {
  parseSandboxSetting,
  sandboxDenoFlags,
  sandboxPlan,
  type SandboxProfile,
  type SandboxSetting,
} from "../config/sandbox_profile.ts";
import { setToolSandbox, type ToolSandbox } from "../tools/sandbox_state.ts";
import { CliExit } from "./cli_error.ts";
import {
  type LaunchedPlan,
  launchedPlan,
  markPlanStale,
  recordPlan,
  takeLaunchEnv,
} from "./sandbox_plan_cache.ts";

/** The variable through which the unconfined pi hands the confinement to the confined one. */
export const SANDBOX_ENV = "PI_SANDBOX";

/** Whether this process checked the cached plan the launcher started it with (and took it). */
let launchVerified = false;

/** What {@link applySandbox} needs of the run. */
export interface SandboxRunContext {
  /** `--sandbox`, already checked to be a profile name. */
  flag?: SandboxProfile;
  cwd: string;
  agentDir: string;
  /** The session folder the flags and settings chose; undefined for the default. */
  sessionDir?: string;
  /** `--session`/`--fork` values: their folders must stay writable. */
  sessionPaths: string[];
  /** The command-line arguments, passed on unchanged. */
  argv: readonly string[];
}

/**
 * Applies the chosen profile. Resolves `undefined` when this process goes on (profile `full`, or
 * already confined), otherwise the exit code of the confined pi it ran.
 */
export async function applySandbox(
  ctx: SandboxRunContext,
  globalSettings: Record<string, unknown>,
): Promise<number | undefined> {
  const setting = readSetting(globalSettings, ctx.agentDir);
  const profile = ctx.flag ?? setting.profile ?? "full";
  // A cached plan is checked even when PI_SANDBOX says "confined": only the check may accept it.
  const launched = launchVerified ? undefined : launchedPlan();
  if (profile === "full") {
    if (launched) planMismatch(ctx.agentDir, launched);
    return undefined;
  }
  const inherited = launched ? undefined : inheritedSandbox();
  if (inherited?.profile === profile) {
    setToolSandbox(inherited);
    return undefined;
  }
  if (Deno.build.standalone) {
    throw new CliExit(
      `Error: --sandbox ${profile} is not available in a compiled pi yet: a compiled binary keeps the ` +
        "permissions it was compiled with. Run pi from source (deno task pi), or confine the binary " +
        "with the operating system (a container, bubblewrap).",
    );
  }
  if (profile === "project" && holds(ctx.cwd, ctx.agentDir)) {
    // Writing the project would mean writing settings.json, auth.json and the extension folders,
    // which run unconfined code at the next plain start.
    throw new CliExit(
      `Error: --sandbox project cannot confine pi in ${ctx.cwd}: the folder holds pi's agent dir ` +
        `(${ctx.agentDir}), which a confined pi must not write. Start pi in a project folder.`,
    );
  }
  const mainModule = new URL(Deno.mainModule);
  if (mainModule.protocol !== "file:") {
    throw new CliExit(`Error: --sandbox needs pi's main module on disk (it is ${mainModule.href})`);
  }
  const mainPath = fileUrlToPath(mainModule);
  const codeDir = dirname(mainPath);
  const bwrap = profile === "project" ? findOnPath("bwrap") : undefined;
  const tempDir = tmpDir();
  const plan = sandboxPlan(
    profile,
    {
      projectDir: ctx.cwd,
      agentDir: ctx.agentDir,
      sessionDir: ctx.sessionDir ?? join(ctx.agentDir, "sessions"),
      tempDir,
      codeDirs: [codeDir, ...(existsSync("/bin/bash") ? ["/bin/bash"] : [])],
      providerHosts: [...BUILTIN_PROVIDER_HOSTS, ...modelsJsonHosts(join(ctx.agentDir, "models.json"))],
      bwrap,
    },
    setting,
    (path) => resolve(ctx.cwd, expandTildePath(path)),
  );
  for (const path of ctx.sessionPaths) plan.write.push(dirname(resolve(ctx.cwd, path)));
  let flags: string[];
  try {
    flags = sandboxDenoFlags(plan);
  } catch (error) {
    throw new CliExit(`Error: ${(error as Error).message}`);
  }
  const extraWrite = profile === "project"
    ? setting.allowWrite.map((p) => resolve(ctx.cwd, expandTildePath(p)))
    : [];
  const tools: ToolSandbox = {
    profile,
    projectDir: ctx.cwd,
    readable: [ctx.cwd, tempDir, ...setting.allowRead.map((p) => resolve(ctx.cwd, expandTildePath(p)))],
    writable: [ctx.cwd, tempDir, ...extraWrite],
    bwrap,
  };
  if (launched) {
    // Started confined by the launcher: go on only under exactly the current plan's flags.
    if (launched.flags !== flags.join("\n") || !confinedProcess()) planMismatch(ctx.agentDir, launched);
    launchVerified = true;
    setToolSandbox(tools);
    // What a re-run child gets from its parent: the main flow (and pi run by bash) see it.
    Deno.env.set(SANDBOX_ENV, JSON.stringify(tools));
    return undefined;
  }
  recordPlan(ctx.agentDir, flags);
  const config = join(codeDir, "deno.json");
  const denoArgs = [
    "run",
    "--quiet",
    ...(existsSync(config) ? ["--config", config] : []),
    ...flags,
    mainPath,
    ...ctx.argv,
  ];
  return await runConfined(denoArgs, tools);
}

/**
 * The fast way in, before the main flow loads (that costs more than the confined run's own start):
 * when the arguments parse cleanly, name no subcommand, and `--sandbox` or the user's settings
 * choose a confining profile, re-runs pi confined and resolves its exit code. Anything unusual
 * (an argument error, settings that do not parse, a bad profile) resolves undefined, and the main
 * flow reports it through {@link applySandbox}, which also records the confinement in the
 * confined process. Started by the launcher under a recorded plan, this is where pi checks the plan
 * before anything else runs; whatever would leave such a run unconfined stops it instead.
 */
export async function confineEarly(argv: readonly string[]): Promise<number | undefined> {
  try {
    return await confineBeforeMainFlow(argv);
  } catch (error) {
    // Reported as the main flow reports its early stops: the message alone, no stack.
    if (!(error instanceof CliExit)) throw error;
    if (error.message) writeAllSync(Deno.stderr, `${error.isError ? red(error.message) : error.message}\n`);
    return error.exitCode;
  }
}

async function confineBeforeMainFlow(argv: readonly string[]): Promise<number | undefined> {
  takeLaunchEnv();
  // Started under a cached plan: whatever would run this pi unconfined is a mismatch.
  const launched = launchedPlan();
  if (readEnv(SANDBOX_ENV) !== undefined && !launched) return undefined;
  const agentDir = getAgentDir();
  const unconfined = (): undefined => launched ? planMismatch(agentDir, launched) : undefined;
  if (argv[0] !== undefined && SUBCOMMANDS.has(argv[0])) return unconfined();
  let globalSettings: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(stripJsonComments(Deno.readTextFileSync(join(agentDir, "settings.json"))));
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) globalSettings = parsed;
    else return unconfined();
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) return unconfined();
  }
  if (!argv.includes("--sandbox") && globalSettings.sandbox === undefined) return unconfined();
  const { parseArgs } = await import("./args.ts");
  const args = parseArgs(argv);
  // The main flow reports the argument error and stops before it does anything else.
  if (args.diagnostics.some((d) => d.type === "error")) return undefined;
  let setting: SandboxSetting;
  try {
    setting = parseSandboxSetting(globalSettings.sandbox, join(agentDir, "settings.json"));
  } catch {
    return unconfined();
  }
  if (!launched && (args.sandbox ?? setting.profile ?? "full") === "full") return undefined;
  const sessionDir = typeof globalSettings.sessionDir === "string" ? globalSettings.sessionDir : undefined;
  return await applySandbox({
    flag: args.sandbox,
    cwd: Deno.cwd(),
    agentDir,
    sessionDir: resolveSessionDir(args.sessionDir, sessionDir),
    sessionPaths: sessionPathsOf(args),
    argv,
  }, globalSettings);
}

/** `--session`/`--fork` values that name files: their folders stay writable. */
export function sessionPathsOf(args: { session?: string; fork?: string }): string[] {
  return [args.session, args.fork].filter((p): p is string => p !== undefined && p.includes("/"));
}

/** First arguments the main flow hands to a subcommand, which runs unconfined. */
const SUBCOMMANDS = new Set(["auth", "install", "remove", "uninstall", "update", "list", "config", "mcp"]);

/** The user's `sandbox` setting; a bad one stops the run with the file and the problem. */
function readSetting(globalSettings: Record<string, unknown>, agentDir: string): SandboxSetting {
  const value = globalSettings.sandbox;
  try {
    return parseSandboxSetting(value, join(agentDir, "settings.json"));
  } catch (error) {
    throw new CliExit(`Error: ${(error as Error).message}`);
  }
}

/**
 * The confinement this process was started with, when it is confined: the parent's description
 * counts only when Deno really withholds global write access, so the variable alone never turns
 * the sandbox off (nor pretends it is on).
 */
function inheritedSandbox(): ToolSandbox | undefined {
  const raw = readEnv(SANDBOX_ENV);
  if (!raw) return undefined;
  if (Deno.permissions.querySync({ name: "write" }).state === "granted") return undefined;
  try {
    const value = JSON.parse(raw) as ToolSandbox;
    if (value.profile !== "read-only" && value.profile !== "project") return undefined;
    if (!Array.isArray(value.readable) || !Array.isArray(value.writable)) return undefined;
    return value;
  } catch {
    return undefined;
  }
}

/**
 * Stops a run the launcher started under a cached plan that is not this run's: the settings, the
 * folders or the entry changed (or someone edited it). Nothing has run yet; the launcher drops the
 * entry at the next start, which then takes the normal way.
 */
function planMismatch(agentDir: string, launched: LaunchedPlan): never {
  const file = markPlanStale(agentDir, launched);
  throw new CliExit(
    `Error: the sandbox plan the pi launcher started this run with (${file}) is not the current ` +
      "one (settings, folders or the file changed); nothing ran. Run the command again: the " +
      "launcher drops the plan (or delete the file).",
  );
}

/** Whether Deno withholds global read, write, network and run access from this process. */
function confinedProcess(): boolean {
  const names = ["read", "write", "net", "run"] as const;
  return names.every((name) => Deno.permissions.querySync({ name }).state !== "granted");
}

/** Whether `folder` is `path` or one of its ancestors. */
function holds(folder: string, path: string): boolean {
  return folder === path || path.startsWith(folder.endsWith("/") ? folder : `${folder}/`);
}

/** An executable called `name` on PATH. */
function findOnPath(name: string): string | undefined {
  for (const dir of (readEnv("PATH") ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      const info = Deno.statSync(candidate);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return candidate;
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}

/**
 * Hosts (`host[:port]`) of the base URLs in models.json. A file that cannot be read or parsed
 * adds none: the run reports it itself, with file and line.
 */
function modelsJsonHosts(path: string): string[] {
  let config: unknown;
  try {
    config = JSON.parse(stripJsonComments(Deno.readTextFileSync(path)));
  } catch {
    return [];
  }
  const hosts: string[] = [];
  const add = (url: unknown) => {
    if (typeof url !== "string") return;
    try {
      hosts.push(new URL(url).host);
    } catch {
      // Not a URL: the model registry reports it.
    }
  };
  const providers = (config as { providers?: Record<string, unknown> })?.providers;
  if (providers && typeof providers === "object") {
    for (const provider of Object.values(providers)) {
      const p = provider as { baseUrl?: unknown; models?: unknown };
      add(p?.baseUrl);
      if (Array.isArray(p?.models)) { for (const m of p.models) add((m as { baseUrl?: unknown })?.baseUrl); }
    }
  }
  return hosts;
}

/** Runs the confined pi with this process's streams and resolves with its exit code. */
async function runConfined(denoArgs: string[], tools: ToolSandbox): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), {
    args: denoArgs,
    env: { [SANDBOX_ENV]: JSON.stringify(tools) },
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  // A terminal's Ctrl+C reaches both processes (one process group); a signal sent to this process
  // alone is passed on. This process never dies of them before the confined pi has ended.
  const forwarded: Deno.Signal[] = ["SIGTERM", "SIGHUP"];
  if (!Deno.stdin.isTerminal()) forwarded.push("SIGINT");
  const handlers = new Map<Deno.Signal, () => void>();
  for (const signal of [...forwarded, ...(forwarded.includes("SIGINT") ? [] : ["SIGINT" as const])]) {
    const handler = () => {
      if (!forwarded.includes(signal)) return;
      try {
        child.kill(signal);
      } catch {
        // Already gone.
      }
    };
    handlers.set(signal, handler);
    Deno.addSignalListener(signal, handler);
  }
  try {
    const status = await child.status;
    if (status.signal) return 128 + (SIGNAL_NUMBERS[status.signal] ?? 0);
    return status.code;
  } finally {
    for (const [signal, handler] of handlers) Deno.removeSignalListener(signal, handler);
  }
}

const SIGNAL_NUMBERS: Partial<Record<Deno.Signal, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGKILL: 9,
  SIGTERM: 15,
};
