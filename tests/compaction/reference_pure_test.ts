/**
 * The pure compaction functions against the reference's outputs on the same sessions
 * (tests/fixtures/compaction/expected/pure.json, from scripts/capture/compaction_reference.mjs):
 * token estimates, turn starts, cut points, preparations, serialization, branch collection and
 * budgeted branch preparation (LOOP-11, LOOP-13, SES-18).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { findCutPoint, findTurnStartIndex } from "../../src/compaction/cut_point.ts";
import { type CompactionPreparation, prepareCompaction } from "../../src/compaction/compaction.ts";
import { serializeConversation } from "../../src/compaction/serialize.ts";
import {
  estimateContextTokens,
  estimateTokens,
  getLastAssistantUsage,
} from "../../src/compaction/token_estimate.ts";
import {
  collectEntriesForBranchSummary,
  prepareBranchEntries,
} from "../../src/compaction/branch_summarization.ts";
import { buildSessionContext } from "../../src/session/context.ts";
import { type AgentMessage, convertToLlm } from "../../src/session/messages.ts";
import { loadExpected, loadSession, plain, plainFileOps, sessionView } from "./support.ts";

interface LinearExpected {
  estimateTokens: (number | null)[];
  estimateContextTokens: unknown;
  lastAssistantUsage: unknown;
  turnStarts: number[];
  cutPoints: unknown[];
  cutPointsFrom3: unknown[];
  prepare: unknown[];
  serializedContext: string;
  serializedAll: string;
}

interface Pure {
  keepRecentTokens: number[];
  linear: Record<string, LinearExpected>;
  tree: {
    oldLeaf: string;
    target: string;
    fork: string;
    collected: unknown;
    toFork: unknown;
    sameLeaf: unknown;
    none: unknown;
    budgets: number[];
    prepared: unknown[];
  };
}

const pure = loadExpected<Pure>("pure");
const FULL_KEEP = [300, 1000, 2000];

function fingerprint(m: AgentMessage): string {
  return `${m.role}@${m.timestamp}#${JSON.stringify(m).length}`;
}

function plainPrep(prep: CompactionPreparation | undefined, full: boolean): unknown {
  if (!prep) return null;
  const shown = (list: AgentMessage[]) => (full ? list : list.map(fingerprint));
  return plain({
    ...prep,
    messagesToSummarize: shown(prep.messagesToSummarize),
    turnPrefixMessages: shown(prep.turnPrefixMessages),
    fileOps: plainFileOps(prep.fileOps),
  });
}

for (const name of Object.keys(pure.linear)) {
  const expected = pure.linear[name];
  const entries = loadSession(name);
  const n = entries.length;
  const messages = buildSessionContext(entries).messages;

  Deno.test(`LOOP-13 ${name}: estimateTokens per entry and the context estimate match the reference`, () => {
    assertEquals(
      entries.map((e) => (e.type === "message" ? estimateTokens(e.message) : null)),
      expected.estimateTokens,
    );
    assertEquals(estimateContextTokens(messages), expected.estimateContextTokens);
    assertEquals(plain(getLastAssistantUsage(entries)), expected.lastAssistantUsage);
  });

  Deno.test(`LOOP-13 ${name}: findTurnStartIndex and findCutPoint for ${pure.keepRecentTokens.length} budgets`, () => {
    assertEquals(entries.map((_, i) => findTurnStartIndex(entries, i, 0)), expected.turnStarts);
    assertEquals(pure.keepRecentTokens.map((k) => findCutPoint(entries, 0, n, k)), expected.cutPoints);
    assertEquals(pure.keepRecentTokens.map((k) => findCutPoint(entries, 3, n, k)), expected.cutPointsFrom3);
  });

  Deno.test(`LOOP-13 ${name}: prepareCompaction (cut, split turn, previous summary, file ops) matches`, () => {
    const ours = pure.keepRecentTokens.map((k) =>
      plainPrep(
        prepareCompaction(entries, { enabled: true, reserveTokens: 16384, keepRecentTokens: k }),
        FULL_KEEP.includes(k),
      )
    );
    for (let i = 0; i < ours.length; i++) {
      assertEquals(ours[i], expected.prepare[i], `keepRecentTokens=${pure.keepRecentTokens[i]}`);
    }
  });

  Deno.test(`LOOP-13 ${name}: serializeConversation text is identical`, () => {
    assertEquals(serializeConversation(convertToLlm(messages)), expected.serializedContext);
    const all = entries.flatMap((e) => (e.type === "message" ? [e.message] : []));
    assertEquals(serializeConversation(convertToLlm(all)), expected.serializedAll);
  });
}

Deno.test("SES-18 collectEntriesForBranchSummary walks back to the common ancestor like the reference", () => {
  const view = sessionView(loadSession("tree"));
  const t = pure.tree;
  const ids = (r: ReturnType<typeof collectEntriesForBranchSummary>) => ({
    ids: r.entries.map((e) => e.id),
    commonAncestorId: r.commonAncestorId,
  });
  assertEquals(ids(collectEntriesForBranchSummary(view, t.oldLeaf, t.target)), t.collected);
  assertEquals(ids(collectEntriesForBranchSummary(view, t.oldLeaf, t.fork)), t.toFork);
  assertEquals(ids(collectEntriesForBranchSummary(view, t.oldLeaf, t.oldLeaf)), t.sameLeaf);
  assertEquals(ids(collectEntriesForBranchSummary(view, null, t.target)), t.none);
});

Deno.test("SES-18 prepareBranchEntries budgets (newest first, summaries under 90%) and cumulative file ops", () => {
  const view = sessionView(loadSession("tree"));
  const { entries } = collectEntriesForBranchSummary(view, pure.tree.oldLeaf, pure.tree.target);
  pure.tree.budgets.forEach((budget, i) => {
    const prep = prepareBranchEntries(entries, budget);
    assertEquals(
      plain({ ...prep, fileOps: plainFileOps(prep.fileOps) }),
      pure.tree.prepared[i],
      `budget=${budget}`,
    );
  });
});
