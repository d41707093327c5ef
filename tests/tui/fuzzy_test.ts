/**
 * Conformance of fuzzyMatch and fuzzyFilter with pi-tui 1.6.0: the same scores (to the last bit:
 * they are sums of integers and tenths) and the same order over model ids, slash commands and file
 * paths, with multi-token queries, swapped letter/digit queries, case, unicode and empty input.
 */
import { assertEquals } from "../support/assert.ts";
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";
import { fuzzyFilter, fuzzyMatch } from "../../src/tui/fuzzy.ts";

const MODELS = [
  "anthropic/claude-opus-4-5",
  "anthropic/claude-sonnet-4-5",
  "anthropic/claude-haiku-4-5",
  "openrouter openrouter/anthropic/claude-opus",
  "openai/gpt-4o",
  "openai/gpt-4o-mini",
  "openai/gpt-5",
  "openai/o3-mini",
  "google/gemini-2.5-pro",
  "google/gemini-2.5-flash",
  "xai/grok-4",
  "mistral/codestral-latest",
  "deepseek/deepseek-r1",
  "qwen/qwen3-coder-480b",
  "4o-legacy",
  "GPT4-Turbo",
];
const COMMANDS = [
  "model",
  "settings",
  "session",
  "share",
  "compact",
  "copy",
  "export",
  "hotkeys",
  "login",
  "logout",
  "new",
  "resume",
  "reload",
  "tree",
  "fork",
  "changelog",
];
const PATHS = [
  "src/tui/colors.ts",
  "src/tui/components/image.ts",
  "src/tui/terminal_image.ts",
  "tests/tui/colors_test.ts",
  "docs/tui.md",
  "README.md",
  "src/core/agent_session.ts",
  "src/tui/fuzzy.ts",
  "scripts/bench/startup.ts",
  "ünïcödé/Файл.txt",
  "中文/路径.md",
  ".hidden/file_name-with.dots:colon",
];

const MATCH_PAIRS: [string, string][] = [
  ["", "anything"],
  ["", ""],
  ["a", ""],
  ["abc", "abc"],
  ["ABC", "abc"],
  ["abc", "a-b-c"],
  ["abc", "axbxc"],
  ["abc", "cba"],
  ["opus", "openrouter openrouter/anthropic/claude-opus"],
  ["opus", "claude-opus-4-5"],
  ["son", "claude-sonnet"],
  ["gpt4", "gpt-4o"],
  ["gpt4", "4-gpt"],
  ["4gpt", "gpt4"],
  ["o3", "openai/o3-mini"],
  ["3o", "o3"],
  ["gemini25", "gemini-2.5-pro"],
  ["25gemini", "gemini-2.5-pro"],
  ["ab12", "12ab"],
  ["ab12", "x12yab"],
  ["ab12", "nothing"],
  ["a1b", "1ab"],
  ["ts", "src/tui/colors.ts"],
  ["tui", "src/tui/components/image.ts"],
  ["aaa", "aaaa"],
  ["aa", "a a a"],
  ["xyz", "xy"],
  ["é", "ünïcödé"],
  ["文", "中文"],
  ["İ", "i̇stanbul"],
  ["ss", "STRASSE"],
  ["a", "b:a"],
  ["file", ".hidden/file_name-with.dots:colon"],
  ["dots", ".hidden/file_name-with.dots:colon"],
  ["colon", ".hidden/file_name-with.dots:colon"],
  ["n w", "name with"],
];

const FILTERS: [string, string[], string][] = [
  ["models", MODELS, "opus"],
  ["models", MODELS, "claude"],
  ["models", MODELS, "claude son"],
  ["models", MODELS, "anthropic/opus"],
  ["models", MODELS, "gpt4"],
  ["models", MODELS, "4o"],
  ["models", MODELS, "o4"],
  ["models", MODELS, "gemini 25"],
  ["models", MODELS, "  "],
  ["models", MODELS, "/"],
  ["models", MODELS, "mini"],
  ["models", MODELS, "zzz"],
  ["models", MODELS, "AI"],
  ["models", MODELS, "r1"],
  ["commands", COMMANDS, "s"],
  ["commands", COMMANDS, "se"],
  ["commands", COMMANDS, "lo"],
  ["commands", COMMANDS, "re"],
  ["commands", COMMANDS, "c"],
  ["commands", COMMANDS, "e"],
  ["commands", COMMANDS, "model"],
  ["commands", COMMANDS, "og"],
  ["paths", PATHS, "tui"],
  ["paths", PATHS, "tui ts"],
  ["paths", PATHS, "src/tui"],
  ["paths", PATHS, "colors"],
  ["paths", PATHS, "md"],
  ["paths", PATHS, "img"],
  ["paths", PATHS, "文"],
  ["paths", PATHS, "ФАЙЛ"],
  ["paths", PATHS, "\tts\n"],
];

function cases(): TuiCase[] {
  const out: TuiCase[] = [];
  MATCH_PAIRS.forEach(([query, text], i) => {
    out.push({
      name: `match/${i}-${query || "empty"}`,
      body: `return [T.fuzzyMatch(${js(query)}, ${js(text)}), T.fuzzyMatch(${js(text)}, ${js(query)})];`,
    });
  });
  FILTERS.forEach(([label, items, query], i) => {
    out.push({
      name: `filter/${label}/${i}`,
      body: `const items = ${js(items)};
        const scored = items.map((t) => [t, T.fuzzyMatch(${js(query)}, t)]);
        return { order: T.fuzzyFilter(items, ${js(query)}, (t) => t), scored };`,
    });
  });
  out.push({
    name: "filter/objects-by-key",
    body: `const items = ${js(MODELS.map((id, i) => ({ id, rank: i })))};
      const result = T.fuzzyFilter(items, "claude 4", (m) => m.id);
      return [result.map((m) => m.rank), T.fuzzyFilter(items, "", (m) => m.id) === items];`,
  });
  out.push({
    name: "filter/stable-ties",
    body: `return T.fuzzyFilter(["ab", "ab", "xab", "abx", "Ab", "aB"], "ab", (t) => t);`,
  });
  return out;
}

Deno.test("fuzzyMatch scores and fuzzyFilter order match pi-tui 1.6.0", async () => {
  await compareWithPiTui("fuzzy", cases());
});

Deno.test("a contiguous occurrence beats the greedy scattered alignment", () => {
  const scattered = fuzzyMatch("opus", "openrouter openrouter/anthropic/claude-opus");
  assertEquals(scattered.matches, true);
  // Greedy alone would take o, p, u from "openrouter" and s far away; the word-start match wins.
  assertEquals(scattered.score < 0, true);
  assertEquals(fuzzyMatch("abc", "abc").score, fuzzyMatch("abc", "abcd").score - 100);
  assertEquals(fuzzyFilter(["b", "a"], "zz", (t) => t), []);
});
