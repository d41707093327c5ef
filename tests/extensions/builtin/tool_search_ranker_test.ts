/**
 * The tool-search ranker against pi 1.6.0's own (run under the reference's node by
 * tests/fixtures/tool_search/ranker_oracle.mjs) for the same tools and queries: tokens (camelCase,
 * stop words, singular forms, non-Latin text), search documents (schema words, `$ref`s, namespaces)
 * and the ranking (name weight, coverage, exact names, limits, ties), scores included.
 */
import { requireReference } from "../../../scripts/reference/locate.ts";
import { assertEquals } from "../../support/assert.ts";
import {
  createToolSearchDocument,
  rankTools,
  type SearchableTool,
  tokenize,
} from "../../../src/extensions/builtin/tool_search/ranker.ts";

const ORACLE = new URL("../../fixtures/tool_search/ranker_oracle.mjs", import.meta.url).pathname;

const docs = {
  name: "mcp__docs",
  aliases: ["docs"],
  description: "Project documentation",
  instructions: "Search first.",
};
const git = { name: "mcp__git_hub", aliases: ["git-hub"], description: "GitHub issues and pull requests" };

const TOOLS: SearchableTool[] = [
  {
    name: "read",
    description: "Read file contents",
    parameters: { type: "object", properties: { path: { type: "string", description: "Path to the file" } } },
  },
  {
    name: "mcp__docs__search",
    description: "Search the documentation pages.",
    parameters: { type: "object", properties: { query: { type: "string" } } },
    namespace: docs,
  },
  {
    name: "mcp__docs__fetch_page",
    description: "Fetches one page by URL.",
    parameters: { type: "object", properties: { url: { type: "string", description: "Page address" } } },
    namespace: docs,
  },
  {
    name: "mcp__git_hub__list_issues",
    description: "Lists issues of a repository.\nSecond line.",
    parameters: {
      type: "object",
      properties: {
        repo: { $ref: "#/$defs/repo" },
        state: { anyOf: [{ const: "open", description: "open issues" }, { const: "closed" }] },
      },
      $defs: {
        repo: { type: "string", description: "owner/name of the repository" },
        unused: { description: "never read" },
      },
    },
    namespace: git,
  },
  {
    name: "mcp__git_hub__create_pull_request",
    description: "Opens a pull request.",
    parameters: {
      type: "object",
      properties: {
        title: { type: "string" },
        items: { type: "array", items: { description: "commit shas" } },
      },
    },
    namespace: git,
  },
  {
    name: "mcp__img__screenshotWindow",
    description: "Takes a screenshot of a window.",
    parameters: { type: "object" },
  },
  { name: "mcp__img__window", description: "Window management.", parameters: { type: "object" } },
  { name: "mcp__zh__查询", description: "查询数据库中的记录", parameters: { type: "object" } },
];

const QUERIES: [string, number][] = [
  ["search docs", 8],
  ["issues", 8],
  ["list_issues", 8],
  ["git_hub__list_issues", 8],
  ["pull requests", 8],
  ["screenshot window", 8],
  ["window", 1],
  ["the of and", 8],
  ["", 8],
  ["page url", 2],
  ["记录", 8],
  ["GitHub repository state open", 8],
  ["read file", 3],
  ["zzz", 8],
  ["docs", 8],
];

const TEXTS = [
  "getHTTPResponse for the searches",
  "list_mcp_resources classes boxes",
  "数据库 查询",
  "issues; wishes... bus",
];

Deno.test("MCP-TS ranker: tokens, documents and rankings (scores to 12 digits) equal pi 1.6.0's", async () => {
  const child = new Deno.Command(requireReference().node, {
    args: [ORACLE],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(
    new TextEncoder().encode(JSON.stringify({ tools: TOOLS, queries: QUERIES, texts: TEXTS })),
  );
  await writer.close();
  const out = await child.output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  const reference = JSON.parse(new TextDecoder().decode(out.stdout));
  const documents = TOOLS.map(createToolSearchDocument);
  assertEquals(documents, reference.documents);
  assertEquals(TEXTS.map(tokenize), reference.tokens);
  const rankings = QUERIES.map(([query, limit]) => rankTools(query, documents, limit));
  // Scores to 12 digits: the two runtimes' Math.log may differ in the last bit.
  const rounded = (list: { name: string; score: number }[][]) =>
    list.map((matches) => matches.map(({ name, score }) => ({ name, score: score.toFixed(12) })));
  assertEquals(rounded(rankings), rounded(reference.rankings));
  // Not vacuous: the queries find different tools, and the exact-name query puts its tool first.
  assertEquals(rankings[2][0].name, "mcp__git_hub__list_issues");
  assertEquals(rankings[6].length, 1);
  assertEquals(rankings[13], []);
});
