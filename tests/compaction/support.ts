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
import { estimateTokens } from "../../src/compaction/token_estimate.ts";
import { assertEquals } from "../support/assert.ts";
import { startRpc } from "../modes/rpc/support.ts";
import { normalise, OUR_PACKAGE_DIR, replay, type Transcript } from "../modes/rpc/transcript.ts";
import type { AgentMessage } from "../../src/session/messages.ts";

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

/** RPC transcript steps: each command with the records it produced. */
export type Steps = { command: unknown; output: unknown[] }[];

/**
 * Compaction estimates without the system prompt's share: the prompt names the install and temp
 * folders, whose lengths differ between the two runs; the rest (summary and kept messages) must
 * match exactly. That is `estimatedTokensAfter` (result and `compact` response) and, for overflow
 * recovery, `tokensBefore` too: the failed reply's context edit makes earlier usage stale, so the
 * whole context, prompt included, is estimated. `systemTokens` is that share when the stored
 * system message no longer has its original length (a capture with path placeholders).
 */
export function withoutSystemEstimate(steps: Steps, systemTokens?: number): Steps {
  const records = steps.flatMap((s) => s.output) as Record<string, unknown>[];
  const system = records.find((r) =>
    r.type === "message_end" && (r.message as { role: string }).role === "system"
  )?.message as AgentMessage;
  const share = systemTokens ?? estimateTokens(system);
  // Summaries of overflow recoveries: their compaction's tokensBefore (event, response, entry).
  const estimated = new Set(
    records.filter((r) => r.type === "compaction_end" && r.reason === "overflow" && r.result)
      .map((r) => (r.result as { summary: string }).summary),
  );
  const fix = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(fix);
    if (v === null || typeof v !== "object") return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      out[k] = k === "estimatedTokensAfter" && typeof x === "number" ? x - share : fix(x);
    }
    if (typeof out.tokensBefore === "number" && estimated.has(out.summary as string)) {
      out.tokensBefore -= share;
    }
    return out;
  };
  return fix(steps) as Steps;
}

/**
 * Replays a reference RPC capture against our CLI (same fake answers and settings) and asserts
 * that every step's records and every request the model saw match once normalised. `after`
 * runs with our raw steps while the run's files still exist.
 */
export async function assertReplayMatches(
  fixture: Transcript,
  after?: (steps: Steps) => Promise<void>,
): Promise<void> {
  const f = await startRpc(fixture.turns, { settings: fixture.settings });
  try {
    const steps = await replay(f.client, fixture.script);
    const ours = normalise(withoutSystemEstimate(steps), f.env.root, f.server.url, OUR_PACKAGE_DIR) as Steps;
    const theirs = normalise(
      withoutSystemEstimate(fixture.steps as Steps, fixture.systemTokens),
      fixture.root,
      fixture.url,
      fixture.packageDir,
    ) as Steps;
    for (const [i, step] of theirs.entries()) {
      assertEquals(ours[i], step, `step ${i}: ${JSON.stringify(step.command)}`);
    }
    assertEquals(ours.length, theirs.length);
    const ourRequests = f.server.requests.map((r) => ({ method: r.method, path: r.path, body: r.body }));
    assertEquals(
      normalise(ourRequests, f.env.root, f.server.url, OUR_PACKAGE_DIR),
      normalise(fixture.requests, fixture.root, fixture.url, fixture.packageDir),
    );
    await after?.(steps);
  } finally {
    await f.close();
  }
}
