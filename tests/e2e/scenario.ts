/**
 * The shared end-to-end scenario: a scripted model that writes a file, reads it, edits it and
 * answers, run through the real `pi` (ours or the reference) against the fake provider, plus the
 * normalisation that makes two runs comparable (temp paths, dates, ids and timestamps replaced by
 * placeholders). Used by the e2e tests and by capture_reference.ts, which stores the reference's
 * normalised results under tests/fixtures/e2e/.
 *
 * @module
 */
import { dirname } from "node:path";
import { createAgentEnv, FAKE_MODEL_ID, FAKE_PROVIDERS, type FakeApi } from "../support/agent_env.ts";
import { type ScriptedTurn, startFakeProvider } from "../support/fake_provider/mod.ts";
import { assertEquals } from "../support/assert.ts";
import {
  findReferenceCli,
  MAIN_TS,
  type PiResult,
  spawnPi,
  useReferenceFixtures,
} from "../support/spawn_pi.ts";

/** The four wire APIs, in a fixed order. */
export const APIS: FakeApi[] = Object.keys(FAKE_PROVIDERS) as FakeApi[];

/** The prompt of the scenario. */
export const PROMPT = "Create notes.txt, check it, then change beta to gamma.";

/** The final answer of the scenario. */
export const FINAL_TEXT = "Done: notes.txt now holds alpha and gamma.";

/** The file the scenario writes and edits, and its content after the edit. */
export const NOTES_FILE = "notes.txt";
export const NOTES_AFTER = "alpha\ngamma\n";

/** Four turns: write (with a preamble), read, edit, then the final text. */
export function writeReadEditTurns(): ScriptedTurn[] {
  return [
    {
      content: [
        { type: "text", text: "I will write the file." },
        {
          type: "toolCall",
          id: "call_w1",
          name: "write",
          arguments: { path: NOTES_FILE, content: "alpha\nbeta\n" },
        },
      ],
      usage: { input: 120, output: 30 },
    },
    {
      content: [{ type: "toolCall", id: "call_r2", name: "read", arguments: { path: NOTES_FILE } }],
      usage: { input: 160, output: 12 },
    },
    {
      content: [{
        type: "toolCall",
        id: "call_e3",
        name: "edit",
        arguments: { path: NOTES_FILE, edits: [{ oldText: "beta", newText: "gamma" }] },
      }],
      usage: { input: 200, output: 25 },
    },
    { content: [{ type: "text", text: FINAL_TEXT }], usage: { input: 240, output: 11 } },
  ];
}

/** The `--model` argument selecting `api`'s fake provider. */
export function modelArg(api: FakeApi): string {
  return `${FAKE_PROVIDERS[api]}/${FAKE_MODEL_ID}`;
}

/** The outcome of one scenario run, normalised. */
export interface ScenarioRun {
  result: PiResult;
  /** stdout lines parsed as JSON (JSON mode), normalised. */
  jsonLines: unknown[];
  /** Request paths and bodies, normalised. */
  requests: { path: string; body: unknown }[];
  /** Lines of the single session file, normalised (empty when none was written). */
  sessionLines: unknown[];
  /** Number of session files written. */
  sessionFileCount: number;
  /** Content of notes.txt afterwards (undefined when missing). */
  notes: string | undefined;
}

/**
 * Replaces run-specific values: the temp root, pi's package dir (docs paths in the system
 * prompt), the date, UUIDs, entry ids (numbered in order of appearance), timestamps and
 * durations (`durationMs` of replies and tool runs).
 */
export function makeNormalizer(root: string, packageDirs: string[]): (value: unknown) => unknown {
  const ids = new Map<string, string>();
  const mapId = (id: string) => {
    if (!ids.has(id)) ids.set(id, `$ID${ids.size + 1}`);
    return ids.get(id)!;
  };
  const normString = (s: string): string => {
    let out = s.split(root).join("$ROOT");
    for (const dir of packageDirs) out = out.split(dir).join("$PI_PACKAGE");
    out = out.replace(/Current date: \d{4}-\d{2}-\d{2}/g, "Current date: $DATE");
    out = out.replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, "$UUID");
    out = out.replace(/\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z/g, "$FILETS");
    // The fake server numbers response ids process-wide; the order of runs must not matter.
    out = out.replace(/fake\d{6}/g, "fake$N").replace(/fakeResp\d+/g, "fakeResp$N");
    return out;
  };
  const walk = (value: unknown, key?: string): unknown => {
    if (typeof value === "string") {
      if (key === "timestamp") return "$TS";
      if (
        (key === "id" || key === "parentId" || key === "leafId" || key === "firstKeptEntryId") &&
        /^[0-9a-f]{8}$/.test(value)
      ) return mapId(value);
      return normString(value);
    }
    if (typeof value === "number" && (key === "timestamp" || key === "durationMs")) return 0;
    if (Array.isArray(value)) return value.map((v) => walk(v));
    if (value && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = walk(v, k);
      return out;
    }
    return value;
  };
  return (value) => walk(value);
}

/** Our package dir and the reference's (when installed), as they appear in system prompts. */
export function packageDirs(): string[] {
  const cli = findReferenceCli();
  // The reference's package dir is the parent of dist/cli.js.
  return cli ? [dirname(dirname(cli)), dirname(MAIN_TS)] : [dirname(MAIN_TS)];
}

/** Runs the scenario once with fresh server and environment; `args` go before the prompt. */
export async function runScenario(
  api: FakeApi,
  args: string[],
  options: { reference?: boolean; turns?: ScriptedTurn[]; settings?: Record<string, unknown> } = {},
): Promise<ScenarioRun> {
  const server = await startFakeProvider(options.turns ?? writeReadEditTurns());
  const env = await createAgentEnv(server.url, { settings: options.settings });
  env.env.PI_OFFLINE = "1";
  try {
    const result = await spawnPi([...args, "--model", modelArg(api), PROMPT], {
      env: env.env,
      cwd: env.cwd,
      reference: options.reference,
    });
    const normalize = makeNormalizer(env.root, packageDirs());
    const files = await env.sessionFiles();
    const sessionLines = files.length === 1
      ? (await Deno.readTextFile(files[0])).split("\n").filter((l) => l).map((l) => normalize(JSON.parse(l)))
      : [];
    // The JSON stream and the session share ids: normalise the session first so both number alike.
    const jsonLines = args.includes("json")
      ? result.stdout.split("\n").filter((l) => l).map((l) => normalize(JSON.parse(l)))
      : [];
    const requests = server.requests.map((r) => ({ path: r.path, body: normalize(r.body) }));
    let notes: string | undefined;
    try {
      notes = await Deno.readTextFile(`${env.cwd}/${NOTES_FILE}`);
    } catch { /* not written */ }
    return { result, jsonLines, requests, sessionLines, sessionFileCount: files.length, notes };
  } finally {
    await server.close();
    await env.cleanup();
  }
}

/**
 * A JSON-mode line in its comparable form. A `message_update` keeps its delta but not its
 * `usage`, and an assistant's `message_start` keeps only who answers: both show the live reply,
 * which pi 1.6.0 serialises whenever its event loop gets to it, so the usage figures they carry
 * depend on how network chunks were batched. The deltas and the final messages are what is fixed.
 */
export function comparableJsonLine(line: unknown): unknown {
  const record = line as Record<string, unknown>;
  const message = record.message as Record<string, unknown> | undefined;
  if (record.type === "message_start" && message?.role === "assistant") {
    const { role, api, provider, model } = message;
    return { type: record.type, message: { role, api, provider, model } };
  }
  if (record.type !== "message_update") return line;
  return { type: record.type, assistantMessageEvent: record.assistantMessageEvent };
}

/** Where the reference's captured scenario results live. */
export function fixturePath(name: string): string {
  return new URL(`../fixtures/e2e/${name}`, import.meta.url).pathname;
}

/** What a `-p` scenario run is compared by (and what the capture stores). */
export interface PrintOutcome {
  code: number;
  stdout: string;
  stderr: string;
  requests: { path: string; body: unknown }[];
  sessionLines: unknown[];
  notes: string | undefined;
}

/** What a `--mode json` scenario run is compared by (and what the capture stores). */
export interface JsonOutcome {
  code: number;
  stderr: string;
  jsonLines: unknown[];
}

/** The stored form of one API's scenario (tests/fixtures/e2e/scenario_<api>.json). */
export interface ScenarioFixture {
  print: PrintOutcome;
  json: JsonOutcome;
}

/** The comparable part of a `-p` run. */
export function printOutcome(run: ScenarioRun): PrintOutcome {
  const { code, stdout, stderr } = run.result;
  return { code, stdout, stderr, requests: run.requests, sessionLines: run.sessionLines, notes: run.notes };
}

/** The comparable part of a `--mode json` run. */
export function jsonOutcome(run: ScenarioRun): JsonOutcome {
  return { code: run.result.code, stderr: run.result.stderr, jsonLines: run.jsonLines };
}

/** A JSON outcome with each line in its comparable form (see comparableJsonLine). */
export function comparableJson(outcome: JsonOutcome): JsonOutcome {
  return { ...outcome, jsonLines: outcome.jsonLines.map(comparableJsonLine) };
}

function loadScenarioFixture(api: FakeApi): ScenarioFixture {
  return JSON.parse(Deno.readTextFileSync(fixturePath(`scenario_${api}.json`)));
}

const STALE =
  "is stale: the live reference now differs from it (re-run `deno run -A tests/e2e/capture_reference.ts scenarios`)";

/**
 * The reference's `-p` outcome for `api`: run live when the reference is installed (and the stored
 * capture checked against it, so it cannot go stale unnoticed), else the stored capture (with one
 * loud line, from useReferenceFixtures).
 */
export async function referencePrint(api: FakeApi): Promise<PrintOutcome> {
  const stored = loadScenarioFixture(api).print;
  if (useReferenceFixtures()) return stored;
  const live = printOutcome(await runScenario(api, ["-p"], { reference: true }));
  assertEquals(stored, live, `tests/fixtures/e2e/scenario_${api}.json (print) ${STALE}`);
  return live;
}

/** The reference's `--mode json` outcome for `api`, live or stored as referencePrint; comparable form. */
export async function referenceJson(api: FakeApi): Promise<JsonOutcome> {
  const stored = comparableJson(loadScenarioFixture(api).json);
  if (useReferenceFixtures()) return stored;
  const live = comparableJson(jsonOutcome(await runScenario(api, ["--mode", "json"], { reference: true })));
  assertEquals(stored, live, `tests/fixtures/e2e/scenario_${api}.json (json) ${STALE}`);
  return live;
}
