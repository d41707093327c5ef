/**
 * Replays the reference-captured RPC transcript (tests/fixtures/rpc/transcript.json) against our
 * RPC process and normalises both sides (temp root, server URL, UUIDs, entry ids, timestamps,
 * bash log names) so they can be compared record by record.
 *
 * @module
 */
import type { ScriptedTurn } from "../../support/fake_provider/mod.ts";
import type { RpcClient, RpcEvent } from "../../../src/modes/rpc/rpc_client.ts";

/** One command and every line written while it was handled. */
export interface TranscriptStep {
  command: Record<string, unknown>;
  output: Record<string, unknown>[];
}

/** The captured fixture. */
export interface Transcript {
  /** The temp root at capture time: `<ROOT>` in a capture that stored placeholders. */
  root: string;
  /** The fake server's URL (`<URL>`). */
  url: string;
  /** The reference package folder at capture time (docs paths in its system prompt; `<PKG>`). */
  packageDir: string;
  /** The reference's token estimate of its system message before paths became placeholders. */
  systemTokens?: number;
  settings: Record<string, unknown>;
  turns: ScriptedTurn[];
  script: Record<string, unknown>[];
  steps: TranscriptStep[];
  exitCode: number;
  requests: { method: string; path: string; body: unknown }[];
}

/** Loads the fixture. */
export async function loadTranscript(): Promise<Transcript> {
  const url = new URL("../../fixtures/rpc/transcript.json", import.meta.url);
  return JSON.parse(await Deno.readTextFile(url));
}

/** Sends the script like the capture did: one command at a time, prompts until agent_settled. */
export async function replay(
  client: RpcClient,
  script: Record<string, unknown>[],
): Promise<TranscriptStep[]> {
  const lines: Record<string, unknown>[] = [];
  let waiter: ((record: RpcEvent) => void) | undefined;
  client.onEvent((record) => {
    lines.push(record as Record<string, unknown>);
    waiter?.(record);
  });
  const steps: TranscriptStep[] = [];
  let firstUserEntry: string | undefined;
  for (const [index, template] of script.entries()) {
    const command: Record<string, unknown> = { ...template, id: `c${index}` };
    if (command.entryId === "$firstUserEntry") command.entryId = firstUserEntry;
    const start = lines.length;
    const isPrompt = command.type === "prompt";
    let sawResponse = false;
    let sawEnd = false;
    const done = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timeout on ${command.type}: ${client.getStderr()}`)),
        30_000,
      );
      waiter = (r) => {
        if (r.type === "response") sawResponse = true;
        if (r.type === "agent_settled") sawEnd = true;
        if (sawResponse && (!isPrompt || sawEnd)) {
          clearTimeout(timer);
          waiter = undefined;
          resolve();
        }
      };
    });
    await client.writeLine(`${JSON.stringify(command)}\n`);
    await done;
    await new Promise((r) => setTimeout(r, 300));
    const output = lines.slice(start);
    if (command.type === "get_fork_messages") {
      const response = output.find((r) => r.type === "response") as {
        data: { messages: { entryId: string }[] };
      };
      firstUserEntry = response.data.messages[0].entryId;
    }
    steps.push({ command, output });
  }
  return steps;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const FILE_TIME = /\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z/g;
const CURRENT_DATE = /Current date: \d{4}-\d\d-\d\d/g;
const BASH_LOG = /pi-bash-[0-9a-f]{16}\.log/g;
const ENTRY_KEYS = new Set(["id", "entryId", "firstKeptEntryId", "parentId", "fromId", "targetId", "leafId"]);

/** Our package root (docs paths in our system prompt). */
export const OUR_PACKAGE_DIR = new URL("../../..", import.meta.url).pathname.replace(/\/$/, "");

/**
 * Normalises a transcript taken under `root` against `url`; `packageDir` is the install's root.
 * A capture already carries the placeholders in their place (`root` is then `<ROOT>`), which
 * this leaves as they are.
 */
export function normalise(value: unknown, root: string, url: string, packageDir?: string): unknown {
  const uuids = new Map<string, string>();
  const entries = new Map<string, string>();
  const paths: [string, string][] = [[root, "<ROOT>"], [url, "<URL>"], [packageDir ?? "<PKG>", "<PKG>"]];
  if (root.startsWith("/")) paths.splice(1, 0, [root.slice(1).replaceAll("/", "-"), "<ROOT_ENC>"]);
  const replacePaths = (s: string) =>
    paths.reduce((out, [from, to]) => from === to ? out : out.replaceAll(from, to), s);
  const text = (s: string) =>
    replacePaths(s).replace(CURRENT_DATE, "Current date: <DATE>")
      .replace(FILE_TIME, "<TIME>").replace(BASH_LOG, "pi-bash-<HEX>.log")
      .replace(UUID, (u) => {
        if (!uuids.has(u)) uuids.set(u, `<UUID${uuids.size + 1}>`);
        return uuids.get(u)!;
      });
  const walk = (v: unknown, key?: string): unknown => {
    if (isRecord(v) && v.type === "message_update") {
      return { type: "message_update", assistantMessageEvent: walk(updateEssentials(v)) };
    }
    if (isRecord(v) && v.type === "message_start" && isRecord(v.message) && v.message.role === "assistant") {
      // The live reply as it was when serialised: its usage depends on timing (see updateEssentials).
      const { role, api, provider, model } = v.message;
      return { type: "message_start", message: { role, api, provider, model } };
    }
    if (typeof v === "string") {
      if (key === "timestamp") return "<TS>";
      if (key && ENTRY_KEYS.has(key) && /^[0-9a-f]{8}$/.test(v)) {
        if (!entries.has(v)) entries.set(v, `<ENTRY${entries.size + 1}>`);
        return entries.get(v);
      }
      return text(v);
    }
    if (typeof v === "number" && (key === "timestamp" || key === "durationMs")) return 0;
    if (Array.isArray(v)) return mergeBashUpdates(v).map((x) => walk(x));
    if (v && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    }
    return v;
  };
  return walk(value);
}

/**
 * Joins runs of `bash_execution_update` records of one command: how its output was split into
 * chunks depends on the pipe's timing, what they carry together does not.
 */
function mergeBashUpdates(records: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const record of records) {
    const last = out.at(-1);
    if (
      isRecord(record) && record.type === "bash_execution_update" && isRecord(last) &&
      last.type === "bash_execution_update" && last.id === record.id
    ) {
      out[out.length - 1] = { ...last, delta: `${last.delta}${record.delta}` };
    } else {
      out.push(record);
    }
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * A `message_update` carries the reply's latest usage, which the reference serialises whenever
 * its event loop gets to it (so the figures depend on how network chunks were batched); only the
 * streamed event itself (kind, index, delta, final content) is deterministic.
 */
function updateEssentials(update: Record<string, unknown>): Record<string, unknown> {
  return update.assistantMessageEvent as Record<string, unknown>;
}
