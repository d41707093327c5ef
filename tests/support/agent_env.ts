/**
 * An isolated pi environment for tests: a temp HOME, agent dir (PI_CODING_AGENT_DIR) and project
 * folder, with a models.json whose providers point at a fake provider server — one provider per
 * wire API, each with one model and a literal API key.
 *
 * @module
 */
import { join } from "node:path";

/** The four wire APIs the fake server speaks, with the provider name models.json gives each. */
export const FAKE_PROVIDERS = {
  "anthropic-messages": "fake-anthropic",
  "openai-completions": "fake-openai",
  "openai-responses": "fake-responses",
  "google-generative-ai": "fake-google",
} as const;

/** A wire API the fake server speaks. */
export type FakeApi = keyof typeof FAKE_PROVIDERS;

/** The model id every fake provider serves. */
export const FAKE_MODEL_ID = "test-model";

/** Folders of one test environment. */
export interface AgentEnv {
  root: string;
  home: string;
  agentDir: string;
  cwd: string;
  /** Environment variables for a spawned `pi`. */
  env: Record<string, string>;
  /** Session files written so far under the agent dir, sorted. */
  sessionFiles(): Promise<string[]>;
  cleanup(): Promise<void>;
}

function baseUrlFor(api: FakeApi, serverUrl: string): string {
  switch (api) {
    case "anthropic-messages":
      return serverUrl;
    case "google-generative-ai":
      return `${serverUrl}/v1beta`;
    default:
      return `${serverUrl}/v1`;
  }
}

/** The session files under `agentDir`'s `sessions` folder (any depth), sorted by path. */
export async function sessionFilesOf(agentDir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    try {
      for await (const entry of Deno.readDir(dir)) {
        const path = join(dir, entry.name);
        if (entry.isDirectory) await walk(path);
        else if (entry.name.endsWith(".jsonl")) out.push(path);
      }
    } catch { /* no sessions yet */ }
  };
  await walk(join(agentDir, "sessions"));
  return out.sort();
}

/**
 * Creates the folders and a models.json for `serverUrl`; `settings` goes to the agent dir's
 * settings.json. The root is a new folder in `tempBase` (default: the system temp folder).
 */
export async function createAgentEnv(
  serverUrl: string,
  options: { settings?: Record<string, unknown>; reasoning?: boolean; tempBase?: string } = {},
): Promise<AgentEnv> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-env-", dir: options.tempBase }));
  const home = join(root, "home");
  const agentDir = join(root, "agent");
  const cwd = join(root, "project");
  for (const dir of [home, agentDir, cwd]) await Deno.mkdir(dir, { recursive: true });
  const providers: Record<string, unknown> = {};
  for (const [api, name] of Object.entries(FAKE_PROVIDERS)) {
    providers[name] = {
      baseUrl: baseUrlFor(api as FakeApi, serverUrl),
      api,
      apiKey: "test-key",
      models: [{
        id: FAKE_MODEL_ID,
        name: `Test model (${api})`,
        reasoning: options.reasoning ?? false,
        input: ["text", "image"],
        contextWindow: 200000,
        maxTokens: 8192,
        cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
      }],
    };
  }
  await Deno.writeTextFile(join(agentDir, "models.json"), JSON.stringify({ providers }, null, 2));
  if (options.settings) {
    await Deno.writeTextFile(join(agentDir, "settings.json"), JSON.stringify(options.settings));
  }
  const env: Record<string, string> = {
    ...machineEnv(),
    HOME: home,
    PI_CODING_AGENT_DIR: agentDir,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    NO_COLOR: "1",
    TERM: "dumb",
  };
  for (const key of ["TMPDIR", "LANG"]) {
    const value = Deno.env.get(key);
    if (value) env[key] = value;
  }
  // Keep Deno's module cache where it was: a fresh HOME would otherwise mean a fresh cache
  // (and npm metadata downloads) for every spawned `deno run`.
  env.DENO_DIR = denoDir();
  return {
    root,
    home,
    agentDir,
    cwd,
    env,
    sessionFiles: () => sessionFilesOf(agentDir),
    cleanup: () => removeSettledTree(root),
  };
}

/**
 * Removes a scenario's folder. A pi that was just told to end (a tmux pane killed, a signal) may
 * still be writing its last session line as the removal runs, which then fails with "directory not
 * empty" (seen once in the fresh-machine check): retried for up to 3 s, then the error stands.
 */
async function removeSettledTree(root: string): Promise<void> {
  const deadline = Date.now() + 3000;
  for (;;) {
    try {
      await Deno.remove(root, { recursive: true });
      return;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Certificate settings of this machine (a registry behind a TLS-inspecting proxy needs them). */
const MACHINE_VARIABLES = new Set([
  "NODE_EXTRA_CA_CERTS",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
]);

/**
 * Variables that say how this machine is set up rather than what a test wants, passed on to every
 * child: libfaketime's (scripts/fresh_machine_check.sh runs the suite a year ahead), so the child
 * lives at the same date as the test that judges its output; and the certificate settings, so a
 * child that must fetch npm packages (a fresh Deno cache) reaches the registry as this process does.
 */
export function machineEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(Deno.env.toObject())) {
    if (key === "LD_PRELOAD" || key.startsWith("FAKETIME") || MACHINE_VARIABLES.has(key)) out[key] = value;
  }
  return out;
}

/** The module cache of this Deno: $DENO_DIR, else the platform default under the real HOME. */
export function denoDir(): string {
  const explicit = Deno.env.get("DENO_DIR");
  if (explicit) return explicit;
  const home = Deno.env.get("HOME") ?? "/root";
  if (Deno.build.os === "darwin") return join(home, "Library", "Caches", "deno");
  return join(Deno.env.get("XDG_CACHE_HOME") ?? join(home, ".cache"), "deno");
}

/** Reads a session file as parsed lines. */
export async function readSessionLines(path: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(path);
  return text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
}
