/**
 * `pi --help` without building the runtime. The full path (main_flow.ts) loads settings,
 * credentials, models, resources and extensions only to learn two things the text depends on:
 * the flags extensions register and the start-up diagnostics printed before it. This module
 * decides with a few file reads and stats (no big module graph) whether the runtime could add
 * either; when it provably cannot, the static text is exactly what the full path prints. On any
 * doubt — a file it does not fully understand, a setting that could matter, an error — it answers
 * `undefined` and the full path runs, so the output never differs (help_fast_path_test.ts pins
 * both paths equal with and without extensions).
 *
 * @module
 */
import { CONFIG_DIR_NAME, ENV_SESSION_DIR, getAgentDir } from "../config/paths.ts";
import { hasTrustRequiringProjectResources, resolveProjectTrust } from "../config/project_trust.ts";
import { type ModelsConfig, readModelsJson } from "../config/models_json.ts";
import { builtinProviders } from "../ai/model_catalog.ts";
import { getEnvApiKey } from "../ai/env_api_keys.ts";
import { readEnv } from "../util/env.ts";
import { homeDir } from "../util/os.ts";
import { dirname, join } from "../util/path.ts";
import { writeAllSync } from "../util/fs.ts";
import { helpText } from "./help.ts";

/**
 * Settings the help path never reads, or reads without any output (defaults that only pick the
 * model when one is available). Any other key (extensions, packages, resources, sandbox, trust,
 * model scope, session folder, timeouts) sends `--help` down the full path.
 */
const INERT_SETTINGS: ReadonlySet<string> = new Set([
  "lastChangelogVersion",
  "defaultProvider",
  "defaultModel",
  "defaultThinkingLevel",
  "transport",
  "steeringMode",
  "followUpMode",
  "theme",
  "compaction",
  "branchSummary",
  "retry",
  "hideThinkingBlock",
  "shellPath",
  "quietStartup",
  "shellCommandPrefix",
  "collapseChangelog",
  "enableInstallTelemetry",
  "terminal",
  "images",
  "doubleEscapeAction",
  "treeFilterMode",
  "thinkingBudgets",
  "editorPaddingX",
  "autocompleteMaxVisible",
  "showHardwareCursor",
  "markdown",
  "warnings",
  "cacheWarming",
  "codemode",
  "defaultTools",
  "modelThinkingLevels",
  "tuiMode",
  "fullscreenExitOutput",
  "fullscreenScrollbar",
  "fullscreenCopyOnSelect",
  "fullscreenWheelScrollLines",
  "outputPad",
  "externalEditor",
  "websocketConnectTimeoutMs",
  "selfUpdateCommand",
  "sessionShareDestination",
  "showCacheMissNotices",
  "enableAnalytics",
  "trackingId",
  "deviceId",
  "extensionChangelogVersions",
]);

/** The settings whose values the help path passes on as strings. */
const STRING_SETTINGS = ["defaultProvider", "defaultModel", "defaultThinkingLevel"];

/** Context-file names the resource loader reads (an unreadable one is a start-up warning). */
const CONTEXT_FILES = ["AGENTS.override.md", "AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"];

/** Raised inside this module when the full path must decide. */
class NeedsFullPath extends Error {}

function fullPath(): never {
  throw new NeedsFullPath();
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** The file's text, or undefined when it does not exist. */
function readIfPresent(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** A JSON object file: absent is `{}`; anything but a plain object needs the full path. */
function readJsonObject(path: string): Record<string, unknown> | undefined {
  const text = readIfPresent(path);
  if (text === undefined) return undefined;
  const value = JSON.parse(text);
  if (typeof value !== "object" || value === null || Array.isArray(value)) fullPath();
  return value as Record<string, unknown>;
}

/** Global settings that cannot add flags, diagnostics, resources or a sandbox. */
function checkSettings(agentDir: string): Record<string, unknown> {
  const settings = readJsonObject(join(agentDir, "settings.json")) ?? {};
  for (const [key, value] of Object.entries(settings)) {
    if (!INERT_SETTINGS.has(key)) fullPath();
    if (STRING_SETTINGS.includes(key) && typeof value !== "string") fullPath();
  }
  return settings;
}

/** No extension, skill, prompt or theme folder the loaders would read, and no project config. */
function checkResources(cwd: string, agentDir: string, home: string): void {
  for (const name of ["extensions", "skills", "prompts", "themes"]) {
    if (exists(join(agentDir, name))) fullPath();
  }
  if (home && exists(join(home, ".agents", "skills"))) fullPath();
  // A project's .pi can hold settings, extensions and resources: the full path judges those.
  if (exists(join(cwd, CONFIG_DIR_NAME))) fullPath();
  if (hasTrustRequiringProjectResources(cwd)) fullPath();
}

/** Every context file the loader would read is readable (else it warns). */
function checkContextFiles(cwd: string, agentDir: string): void {
  const dirs = [agentDir];
  for (let dir = cwd;; dir = dirname(dir)) {
    dirs.push(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of dirs) {
    for (const name of CONTEXT_FILES) {
      const path = join(dir, name);
      if (!exists(path)) continue;
      Deno.openSync(path, { read: true }).close();
    }
  }
}

/** The credentials of auth.json, each valid by the store's own rules (else it warns). */
async function readCredentials(agentDir: string): Promise<Set<string>> {
  const auth = readJsonObject(join(agentDir, "auth.json")) ?? {};
  const providers = Object.keys(auth);
  // An empty store (what a first run leaves) needs no rules, and their module stays unloaded.
  if (providers.length === 0) return new Set();
  // The store names a credential under the pre-1.0.3 Azure name.
  if ("azure-openai-responses" in auth) fullPath();
  const { credentialProblem } = await import("../config/auth_storage.ts");
  for (const entry of Object.values(auth)) if (credentialProblem(entry) !== undefined) fullPath();
  return new Set(providers);
}

/** models.json as the registry reads it; any problem it would report needs the full path. */
function readModels(agentDir: string, builtIns: ReadonlySet<string>): ModelsConfig | undefined {
  const path = join(agentDir, "models.json");
  if (!exists(path)) return undefined;
  const { config, error } = readModelsJson(path, builtIns);
  if (error || !config) fullPath();
  return config;
}

/**
 * Whether some model surely has credentials, so the "No models available" warning cannot appear:
 * a models.json provider of its own with an API key and a complete model, or a built-in provider
 * (one models.json leaves alone) with a stored credential or an API key in the environment.
 */
function someModelAvailable(
  models: ModelsConfig | undefined,
  credentials: ReadonlySet<string>,
  builtIns: ReadonlySet<string>,
): boolean {
  const providers = models?.providers ?? {};
  for (const [name, provider] of Object.entries(providers)) {
    if (builtIns.has(name) || !provider.apiKey) continue;
    const complete = (provider.models ?? []).some((model) =>
      (model.api ?? provider.api) !== undefined && (model.baseUrl ?? provider.baseUrl) !== undefined
    );
    if (complete) return true;
  }
  for (const name of builtIns) {
    if (name in providers) continue;
    if (credentials.has(name) || getEnvApiKey(name)) return true;
  }
  return false;
}

/**
 * The text `pi --help` prints when nothing the runtime loads could change it (no extension
 * flags, no diagnostics on stderr), or undefined when the full path must run.
 */
export async function fastHelpText(folder?: string): Promise<string | undefined> {
  try {
    // Inside the try: a working folder that is gone is the full path's to report.
    const cwd = folder ?? Deno.cwd();
    // A session folder chosen by the environment is opened (and can fail) on the full path.
    if (readEnv(ENV_SESSION_DIR)) return undefined;
    const agentDir = getAgentDir();
    checkSettings(agentDir);
    checkResources(cwd, agentDir, homeDir());
    checkContextFiles(cwd, agentDir);
    // A broken trust.json stops the full path with an error.
    await resolveProjectTrust({ cwd, agentDir, interactive: false });
    const builtIns = new Set(builtinProviders());
    const credentials = await readCredentials(agentDir);
    const models = readModels(agentDir, builtIns);
    if (!someModelAvailable(models, credentials, builtIns)) return undefined;
    return helpText();
  } catch {
    // NeedsFullPath, a file that could not be read or parsed, a denied permission: the full
    // path decides (and reports).
    return undefined;
  }
}

/**
 * Prints {@link fastHelpText} on stdout and resolves with the exit code, or with undefined (and
 * nothing printed) when the full path must run. A closed stdout is a quiet exit 0, as on the full path.
 */
export async function printFastHelp(): Promise<number | undefined> {
  const text = await fastHelpText();
  if (text === undefined) return undefined;
  try {
    writeAllSync(Deno.stdout, text);
  } catch (error) {
    const { isBrokenPipe } = await import("./failure_report.ts");
    if (!isBrokenPipe(error)) throw error;
  }
  return 0;
}
