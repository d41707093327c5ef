/**
 * The summarization requests we send, against the requests the reference sent to the same fake
 * provider server on the same sessions (tests/fixtures/compaction/expected/requests.json): exact
 * JSON bodies (system prompt, prompt texts, max_tokens, thinking) and the returned results
 * (LOOP-13, LOOP-14 thinking level, SES-18 branch summaries).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
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

/** Runs `fn` against a fresh fake server; returns requests ordered like the capture script's. */
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
    requests.sort((a, b) => (b.body?.max_tokens ?? 0) - (a.body?.max_tokens ?? 0));
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
    run: (url) =>
      compact(prepareCompaction(loadSession("small"), DEFAULT_COMPACTION_SETTINGS)!, model(url), API_KEY),
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

/**
 * This capture is pi 0.73.1's. Branch summaries already ask as pi 1.6.0 does (the model's output
 * limit, no prompt-cache writes, its system prompt wording); their requests are compared with
 * 1.6.0's capture in tests/core/session_tree_test.ts ("tree scenario matches the reference").
 */
const ASKED_AS_16 = new Set(["branch_custom", "branch_replace_budget"]);

Deno.test("LOOP-13 every captured reference scenario has a counterpart here", () => {
  const captured = Object.keys(expected).filter((name) => !ASKED_AS_16.has(name));
  assertEquals(Object.keys(scenarios).sort(), captured.sort());
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

Deno.test("LOOP-13 sessions below keepRecentTokens keep everything and summarize an empty conversation", async () => {
  const entries = loadSession("small");
  const prep = prepareCompaction(entries, DEFAULT_COMPACTION_SETTINGS)!;
  assertEquals(prep.firstKeptEntryId, entries[0].id);
  assertEquals(prep.messagesToSummarize, []);
  assertEquals(prep.isSplitTurn, false);
  const { requests, result } = await record(
    [answer("## Goal\nNothing yet.")],
    (url) => compact(prep, model(url), API_KEY),
  );
  const body = requests[0].body as { messages: { content: { text: string }[] }[]; max_tokens: number };
  assert(
    body.messages[0].content[0].text.startsWith("<conversation>\n\n</conversation>\n\nThe messages above"),
  );
  assertEquals(body.max_tokens, Math.floor(0.8 * 16384));
  assertEquals(result, {
    summary: "## Goal\nNothing yet.",
    firstKeptEntryId: entries[0].id,
    tokensBefore: prep.tokensBefore,
    details: { readFiles: [], modifiedFiles: [] },
  });
});

Deno.test("SES-18 branch summaries ask as pi 1.6.0: the model's output limit, no prompt-cache writes, its wording", async () => {
  const ours = await record(
    [answer("## Goal\nBranch A work.")],
    (url) =>
      generateBranchSummary(branchEntries(), {
        model: model(url, { reasoning: true }),
        apiKey: API_KEY,
        signal: new AbortController().signal,
        customInstructions: "Mention file names.",
      }),
  );
  // The 0.73.1 request, changed where 1.6.0 changed it.
  const old = expected.branch_custom.requests[0] as { body: Record<string, unknown> };
  const body = ours.requests[0].body as Record<string, unknown>;
  const strip = (value: unknown) =>
    JSON.parse(JSON.stringify(value, (k, v) => k === "cache_control" ? undefined : v));
  assertEquals(JSON.stringify(body).includes("cache_control"), false);
  assertEquals(body.max_tokens, model("http://x").maxTokens);
  assertEquals(
    (body.system as { text: string }[])[0].text.includes("between a user and an AI assistant, then"),
    true,
  );
  assertEquals(strip(body.messages), strip(old.body.messages));
  // 1.6.0 also returns the request's usage (it lands on the branch summary entry).
  const { usage, ...result } = ours.result as { usage: { input: number; output: number } };
  assertEquals([usage.input, usage.output], [100, 20]);
  assertEquals(result, expected.branch_custom.result);
});
