/**
 * The summarization requests we send, against the requests pi 1.6.0 sent to the same fake
 * provider server on the same sessions (tests/fixtures/compaction/expected/requests.json): exact
 * JSON bodies (system prompt, prompt texts, the model's own max_tokens, no cache markers,
 * thinking) and the returned results with their usage (LOOP-13, LOOP-14 thinking level, SES-18
 * branch summaries).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { compact, prepareCompaction } from "../../src/compaction/compaction.ts";
import {
  collectEntriesForBranchSummary,
  generateBranchSummary,
} from "../../src/compaction/branch_summarization.ts";
import { DEFAULT_COMPACTION_SETTINGS } from "../../src/compaction/token_estimate.ts";
import { type ScriptedTurn, startFakeProvider } from "../support/fake_provider/mod.ts";
import { answer, API_KEY, loadExpected, loadSession, model, plain, sessionView } from "./support.ts";

interface Recorded {
  method: string;
  path: string;
  body: { max_tokens?: number } & Record<string, unknown>;
}
type Scenarios = Record<string, { requests: Recorded[]; result: unknown }>;

const expected = loadExpected<Scenarios>("requests");
const settings = (k: number) => ({ enabled: true, reserveTokens: 16384, keepRecentTokens: k });
const tree = loadExpected<{ tree: { oldLeaf: string; target: string } }>("pure").tree;

/** Runs `fn` against a fresh fake server; returns the requests in the order they arrived. */
async function record(turns: ScriptedTurn[], fn: (url: string) => Promise<unknown>) {
  const server = await startFakeProvider(turns);
  try {
    const result = await fn(server.url);
    const requests = server.requests.map((r) => ({
      method: r.method,
      path: r.path,
      extraHeader: r.headers["x-extra"],
      body: r.body as Recorded["body"],
    }));
    return { requests: plain(requests) as Recorded[], result: plain(result) };
  } finally {
    await server.close();
  }
}

function branchEntries() {
  return collectEntriesForBranchSummary(sessionView(loadSession("tree")), tree.oldLeaf, tree.target).entries;
}

const scenarios: Record<
  string,
  { id: string; turns: ScriptedTurn[]; run: (url: string) => Promise<unknown> }
> = {
  compact_small: {
    id: "LOOP-13",
    turns: [answer("## Goal\nNothing yet.")],
    // A small session cut inside its last turn: "No prior history." plus the turn's beginning.
    run: (url) => compact(prepareCompaction(loadSession("small"), settings(10))!, model(url), API_KEY),
  },
  compact_long_custom: {
    id: "LOOP-13",
    turns: [answer("## Goal\nLong summary."), answer("## Goal\nLong summary.")],
    run: (url) =>
      compact(
        prepareCompaction(loadSession("long"), settings(1000))!,
        model(url),
        API_KEY,
        undefined,
        "Focus on the parser changes.",
      ),
  },
  compact_split_reasoning: {
    id: "LOOP-14",
    turns: [answer("SUMMARY PART"), answer("SUMMARY PART")],
    run: (url) =>
      compact(
        prepareCompaction(loadSession("split"), settings(2000))!,
        model(url, { reasoning: true }),
        API_KEY,
        undefined,
        undefined,
        undefined,
        "medium",
      ),
  },
  compact_previous_summary: {
    id: "LOOP-13",
    turns: [answer("## Goal\nUpdated.")],
    run: (url) =>
      compact(
        prepareCompaction(loadSession("compacted"), settings(300))!,
        model(url),
        API_KEY,
        { "x-extra": "1" },
        undefined,
        undefined,
        "high",
      ),
  },
  compact_hook_previous: {
    id: "LOOP-13",
    turns: [answer("Updated again."), answer("Updated again.")],
    run: (url) =>
      compact(
        prepareCompaction(loadSession("compacted_hook"), settings(500))!,
        model(url, { reasoning: true }),
        API_KEY,
        undefined,
        undefined,
        undefined,
        "off",
      ),
  },
};

scenarios.branch_custom = {
  id: "SES-18",
  turns: [answer("## Goal\nBranch A work.")],
  run: (url) =>
    generateBranchSummary(branchEntries(), {
      model: model(url, { reasoning: true }),
      apiKey: API_KEY,
      signal: new AbortController().signal,
      customInstructions: "Mention file names.",
    }),
};
scenarios.branch_replace_budget = {
  id: "SES-18",
  turns: [answer("Short.")],
  run: (url) =>
    generateBranchSummary(branchEntries(), {
      model: model(url, { contextWindow: 2000 }),
      apiKey: API_KEY,
      signal: new AbortController().signal,
      customInstructions: "Only list the files.",
      replaceInstructions: true,
      reserveTokens: 1700,
    }),
};

Deno.test("LOOP-13 every captured reference scenario has a counterpart here", () => {
  assertEquals(Object.keys(scenarios).sort(), Object.keys(expected).sort());
});

for (const [name, s] of Object.entries(scenarios)) {
  Deno.test(`${s.id} ${name}: request bodies and result equal the reference's`, async () => {
    const ours = await record(s.turns, s.run);
    const ref = expected[name];
    assertEquals(ours.requests.length, ref.requests.length);
    for (let i = 0; i < ref.requests.length; i++) {
      assertEquals(ours.requests[i], ref.requests[i], `request ${i}`);
    }
    assertEquals(ours.result, ref.result);
  });
}

Deno.test("LOOP-13 a session below keepRecentTokens has nothing to compact (1.6.0: no empty summaries)", () => {
  assertEquals(prepareCompaction(loadSession("small"), DEFAULT_COMPACTION_SETTINGS), undefined);
});
