/**
 * Shared pieces of the compaction tests: fixture loading, a read-only session view over a plain
 * entry list, and the model used against the fake provider server. They mirror what
 * scripts/capture/compaction_reference.mjs used when it recorded the reference's outputs.
 *
 * @module
 */
import type { Model } from "../../src/ai/types.ts";
import type { SessionEntry } from "../../src/session/entries.ts";
import type { FileOperations } from "../../src/compaction/file_tracking.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";

const FIXTURES = new URL("../fixtures/compaction/", import.meta.url);

/** Entries of a fixture session file (header dropped); all fixtures but "tree" are linear. */
export function loadSession(name: string): SessionEntry[] {
  const text = Deno.readTextFileSync(new URL(`sessions/${name}.jsonl`, FIXTURES));
  return text.trim().split("\n").map((l) => JSON.parse(l)).filter((e) => e.type !== "session");
}

/** A stored expectation file. */
export function loadExpected<T>(name: string): T {
  return JSON.parse(Deno.readTextFileSync(new URL(`expected/${name}.json`, FIXTURES)));
}

/** A value as it looks after a JSON round trip (undefined fields gone), like the stored fixtures. */
export function plain<T>(value: T): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

/** File operations with sets turned into arrays (insertion order kept). */
export function plainFileOps(ops: FileOperations): { read: string[]; written: string[]; edited: string[] } {
  return { read: [...ops.read], written: [...ops.written], edited: [...ops.edited] };
}

/** `getBranch`/`getEntry` over a plain entry list, as the capture script used. */
export function sessionView(entries: SessionEntry[]) {
  const byId = new Map(entries.map((e) => [e.id, e]));
  return {
    getEntry: (id: string) => byId.get(id),
    getBranch: (id?: string) => {
      const path: SessionEntry[] = [];
      let cur = id ? byId.get(id) : undefined;
      while (cur) {
        path.unshift(cur);
        cur = cur.parentId ? byId.get(cur.parentId) : undefined;
      }
      return path;
    },
  };
}

/** The Claude-like model the capture script used, served from `url`. */
export function model(url: string, extra: Partial<Model> = {}): Model {
  return {
    id: "claude-sonnet-4-5",
    name: "Claude Sonnet 4.5",
    api: "anthropic-messages",
    provider: "anthropic",
    baseUrl: url,
    reasoning: false,
    input: ["text", "image"],
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    contextWindow: 200000,
    maxTokens: 64000,
    ...extra,
  };
}

/** A scripted text answer with the usage the capture script used. */
export function answer(text: string): ScriptedTurn {
  return { content: [{ type: "text", text }], usage: { input: 100, output: 20 } };
}

/** The API key the capture script used. */
export const API_KEY = "sk-ant-api-test";
