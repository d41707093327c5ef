// Captures the reference pi (1.6.0) results of the bash, grep, find and ls tools on our fixtures.
// Run with the reference's node: <reference node> scripts/capture/tools_b_reference.mjs
// The reference is found at $PI_REFERENCE_DIR, else <repo>/.cache/reference (the folder holding
// node_modules; `deno task reference` installs it there).
// Writes tests/fixtures/tools/{bash,grep,find,ls}/expected.json. Temp roots are replaced by $ROOT
// and bash full-output temp files by $TMPFILE so the expectations are machine independent.
// Needs rg and fd (or Debian's fdfind) on PATH; an fd shim in a private PI_CODING_AGENT_DIR drops
// --no-require-git for fd < 9, which is equivalent because the fixture trees are git work trees.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const REPO = new URL("../../", import.meta.url).pathname;
const REFERENCE_DIR = process.env.PI_REFERENCE_DIR ?? join(REPO, ".cache/reference");
const REF = join(REFERENCE_DIR, "node_modules/@earendil-works/pi-coding-agent/dist/core/tools/index.js");
// PI_TOOLS_FIXTURE_OUT writes elsewhere (tests/tools/fixtures_current_test.ts compares with the committed ones).
const OUT = process.env.PI_TOOLS_FIXTURE_OUT ??
  new URL("../../tests/fixtures/tools/", import.meta.url).pathname;

const agentDir = mkdtempSync(join(tmpdir(), "pi-capture-agent-"));
mkdirSync(join(agentDir, "bin"));
writeFileSync(
  join(agentDir, "bin", "fd"),
  '#!/bin/bash\nargs=()\nfor a in "$@"; do [ "$a" = "--no-require-git" ] || args+=("$a"); done\n' +
    'if command -v fd >/dev/null 2>&1; then exec fd "$@"; fi\nexec fdfind "${args[@]}"\n',
);
chmodSync(join(agentDir, "bin", "fd"), 0o755);
process.env.PI_CODING_AGENT_DIR = agentDir;
// The reference CLI sets this process-wide at start-up; children inherit it.
process.env.PI_CODING_AGENT = "true";
process.env.AI_AGENT = "pi";

const long = "x".repeat(700);
const wide = (i) => `match line ${String(i).padStart(4, "0")} ` + "y".repeat(180);
/** Shared fixture tree: `repo/` is a git work tree (has .git/), `plain/` is not. */
export const TREE = {
  "repo/.git/HEAD": "ref: refs/heads/main\n",
  "repo/.gitignore": "ignored/\n*.tmp\n",
  "repo/.ignore": "skipme.txt\n",
  "repo/.hidden/secret.ts": "export const hello = 'hidden';\n",
  "repo/README.md": "# Demo\nhello from readme\nHELLO upper\n",
  "repo/src/main.ts":
    "import { x } from './x';\n// hello world\nconst a = 1;\nconst b = 2; // hello again\n" +
    "function f() {\n  return a + b;\n}\n",
  "repo/src/util/Helper.TS": "export function helper() {\n  return 'hello';\n}\n",
  "repo/src/util/strings.ts": "const re = 'a.b*c';\nconst plain = 'aXbbbc';\n",
  "repo/src/app.spec.ts": "describe('hello', () => {});\n",
  "repo/ignored/file.ts": "hello ignored\n",
  "repo/build.tmp": "hello tmp\n",
  "repo/skipme.txt": "hello skip\n",
  "repo/docs/long.txt": `short hello\n${long} hello end\n`,
  "repo/docs/wide.txt": Array.from({ length: 600 }, (_, i) => wide(i + 1)).join("\n") + "\n",
  "repo/docs/crlf.txt": "one\r\ntwo hello\r\nthree\r\n",
  "repo/Zeta.md": "zeta\n",
  "repo/alpha.md": "alpha\n",
  "repo/empty/.keep": "",
  "plain/.gitignore": "ignored/\n",
  "plain/ignored/file.ts": "hello ignored but visible\n",
  "plain/keep.ts": "hello kept\n",
  "emptydir/": null,
};

export function materialize(root) {
  for (const [rel, content] of Object.entries(TREE)) {
    const p = join(root, rel);
    if (content === null) {
      mkdirSync(p, { recursive: true });
      continue;
    }
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
}

const GREP = [
  { id: "GREP-03 match across files", cwd: "repo", args: { pattern: "hello" }, ordered: false },
  { id: "GREP-02 no matches", cwd: "repo", args: { pattern: "nothing-matches-this" } },
  { id: "GREP-02 path not found", cwd: "repo", args: { pattern: "x", path: "missing" } },
  { id: "GREP-03 single file basename", cwd: "repo", args: { pattern: "hello", path: "src/main.ts" } },
  { id: "GREP-01 ignoreCase", cwd: "repo", args: { pattern: "hello", path: "README.md", ignoreCase: true } },
  { id: "GREP-01 literal", cwd: "repo", args: { pattern: "a.b*c", path: "src/util", literal: true } },
  { id: "GREP-01 regex", cwd: "repo", args: { pattern: "a.b*c", path: "src/util" }, ordered: false },
  { id: "GREP-01 glob", cwd: "repo", args: { pattern: "hello", glob: "*.md" } },
  { id: "GREP-01 glob with path", cwd: "repo", args: { pattern: "hello", glob: "**/*.spec.ts" } },
  { id: "GREP-03 context lines", cwd: "repo", args: { pattern: "hello", path: "src/main.ts", context: 1 } },
  { id: "GREP-03 context at file start", cwd: "repo", args: { pattern: "import", path: "src", context: 2 } },
  { id: "GREP-03 match limit", cwd: "repo", args: { pattern: "hello", path: "src/main.ts", limit: 1 } },
  { id: "GREP-03 long line truncated", cwd: "repo", args: { pattern: "hello end", path: "docs" } },
  {
    id: "GREP-03 byte limit",
    cwd: "repo",
    args: { pattern: "match line", path: "docs/wide.txt", limit: 1000 },
  },
  { id: "GREP-03 crlf", cwd: "repo", args: { pattern: "hello", path: "docs/crlf.txt" } },
  { id: "GREP-03 crlf context", cwd: "repo", args: { pattern: "two", path: "docs/crlf.txt", context: 1 } },
  { id: "GREP-01 gitignore outside git", cwd: "plain", args: { pattern: "hello" }, ordered: false },
  { id: "GREP-01 hidden in subfolder", cwd: "repo", args: { pattern: "hidden", path: ".hidden" } },
  { id: "GREP-02 invalid regex", cwd: "repo", args: { pattern: "(" }, rgOnly: true },
  {
    id: "GREP-01 glob relative to path",
    cwd: "repo",
    args: { pattern: "hello", path: "src", glob: "util/*" },
  },
  {
    id: "GREP-01 glob with leading ./",
    cwd: "repo",
    args: { pattern: "hello", glob: "./src/*.ts" },
    ordered: false,
  },
  {
    id: "GREP-01 negated glob with leading ./",
    cwd: "repo",
    args: { pattern: "hello", path: "src", glob: "!./*.ts" },
  },
  {
    id: "GREP-03 overlapping context",
    cwd: "repo",
    args: { pattern: "hello|const", path: "src/main.ts", context: 1 },
  },
  {
    id: "GREP-03 limit equal to the matches",
    cwd: "repo",
    args: { pattern: "hello", path: "src/main.ts", limit: 2 },
  },
  {
    id: "GREP-03 limit keeps trailing context",
    cwd: "repo",
    args: { pattern: "hello", path: "src/main.ts", limit: 1, context: 2 },
  },
  { id: "GREP-03 limit 0 means 1", cwd: "repo", args: { pattern: "hello", path: "src/main.ts", limit: 0 } },
  {
    id: "GREP-03 fractional context",
    cwd: "repo",
    args: { pattern: "two", path: "docs/crlf.txt", context: 1.7 },
  },
];

const FIND = [
  { id: "FIND-01 basename glob", cwd: "repo", args: { pattern: "*.ts" } },
  { id: "FIND-01 smart case", cwd: "repo", args: { pattern: "*.TS" } },
  { id: "FIND-01 path glob", cwd: "repo", args: { pattern: "src/**/*.ts" } },
  { id: "FIND-01 directories", cwd: "repo", args: { pattern: "s*" } },
  { id: "FIND-01 everything", cwd: "repo", args: { pattern: "*" } },
  { id: "FIND-01 subfolder", cwd: "repo", args: { pattern: "*.ts", path: "src" } },
  { id: "FIND-01 no results", cwd: "repo", args: { pattern: "*.nothing" } },
  // fd stops at the first N hits of a parallel walk: which N is not defined, only how many.
  { id: "FIND-01 limit", cwd: "repo", args: { pattern: "*.md", limit: 2 }, anyOrderSubset: true },
  { id: "FIND-01 missing path", cwd: "repo", args: { pattern: "*", path: "missing" } },
  { id: "FIND-01 path pattern anchored at the search folder", cwd: "repo", args: { pattern: "util/*.ts" } },
  { id: "FIND-01 path pattern with **/", cwd: "repo", args: { pattern: "**/util/*.ts" } },
  { id: "FIND-01 leading ./ stripped", cwd: "repo", args: { pattern: "./src/*.ts" } },
  { id: "FIND-01 path pattern in a subfolder", cwd: "repo", args: { pattern: "util/*", path: "src" } },
  { id: "FIND-01 limit equal to the results", cwd: "repo", args: { pattern: "*.md", limit: 3 } },
  { id: "FIND-01 limit 0 means 1", cwd: "repo", args: { pattern: "README.md", limit: 0 } },
  // Not captured: "plain/" (no git) depends on --no-require-git, which the fd 8 shim cannot provide;
  // find_test.ts checks the walker applies .gitignore there, as fd >= 9 with --no-require-git does.
];

const LS = [
  { id: "LS-01 list root", cwd: "repo", args: {} },
  { id: "LS-01 subfolder", cwd: "repo", args: { path: "src" } },
  { id: "LS-01 limit", cwd: "repo", args: { limit: 3 } },
  { id: "LS-01 not found", cwd: "repo", args: { path: "nope" } },
  { id: "LS-01 not a directory", cwd: "repo", args: { path: "README.md" } },
  { id: "LS-01 empty directory", cwd: "emptydir", args: {} },
  { id: "LS-01 limit 0 means 1", cwd: "repo", args: { limit: 0 } },
];

const BASH = [
  { id: "BASH-02 stdout", args: { command: "echo hello" } },
  { id: "BASH-02 stderr", args: { command: "echo oops >&2" } },
  { id: "BASH-03 no output", args: { command: "true" } },
  { id: "BASH-04 exit code", args: { command: "echo hello; echo; exit 2" } },
  { id: "BASH-04 exit code without output", args: { command: "exit 3" } },
  { id: "BASH-01 env flag", args: { command: 'echo "agent=$PI_CODING_AGENT"' } },
  { id: "BASH-01 cwd", args: { command: "pwd" } },
  { id: "BASH-03 line truncation", args: { command: "seq 1 2500" } },
  {
    id: "BASH-03 byte truncation",
    args: { command: "for i in $(seq 1 800); do printf '%0100d\\n' $i; done" },
  },
  { id: "BASH-03 partial last line", args: { command: "head -c 60000 /dev/zero | tr '\\0' 'a'" } },
  { id: "BASH-04 timeout", args: { command: "echo before; sleep 5", timeout: 1 } },
  { id: "BASH-01 missing cwd", args: { command: "echo hi" }, cwd: "does-not-exist" },
  { id: "BASH-01 AI_AGENT marker", args: { command: 'echo "ai=$AI_AGENT"' } },
  {
    id: "BASH-01 session environment",
    args: { command: 'echo "$PI_SESSION_ID|$PI_SESSION_FILE|$PI_PROVIDER|$PI_MODEL|$PI_REASONING_LEVEL"' },
    session: {
      sessionId: "sess-1",
      sessionFile: "/sessions/s.jsonl",
      provider: "prov",
      model: "mod-1",
      thinkingLevel: "high",
    },
  },
  {
    id: "BASH-01 session environment without a file",
    args: { command: 'echo "[$PI_SESSION_ID|${PI_SESSION_FILE-unset}|$PI_REASONING_LEVEL]"' },
    session: { sessionId: "sess-2" },
  },
  { id: "BASH-04 invalid timeout zero", args: { command: "echo x", timeout: 0 } },
  { id: "BASH-04 invalid timeout negative", args: { command: "echo x", timeout: -5 } },
  { id: "BASH-04 invalid timeout too large", args: { command: "echo x", timeout: 3000000 } },
  {
    id: "BASH-04 timeout after the shell exited",
    // The background loop keeps writing, so the tool waits for it until the timeout; how many
    // "bg" lines arrive is timing, so tests compare the status line. Once the shell exited, a pause
    // of 100 ms in the output ends the wait (EXIT_STDIO_GRACE_MS), so the loop pauses with the
    // builtin `read -t` on a pipe that stays silent, not with a `sleep` process: forking one per
    // line took over 100 ms on a loaded machine, and the case then became "exited with code 4".
    args: {
      command: "(exec 3< <(sleep 5); while :; do echo bg; read -t 0.01 -u 3; done) & echo fg; exit 4",
      timeout: 1,
    },
    statusOnly: true,
  },
  { id: "BASH-04 killed by a signal", args: { command: "kill -9 $$" } },
  {
    id: "BASH-03 output ending in a line longer than the rolling buffer",
    args: { command: "echo one; echo two; head -c 150000 /dev/zero | tr '\\0' 'b'" },
  },
];

function normalize(value, root) {
  let json = JSON.stringify(value ?? null);
  json = json.replace(/"wall_time_seconds":[0-9.e-]+/g, '"wall_time_seconds":"$WALL"');
  // When the shell exited before a timeout is timing too.
  json = json.replace(/ after [0-9.]+ seconds, but background/g, " after $SECS seconds, but background");
  json = json.split(root).join("$ROOT");
  json = json.replace(/\/[^"\s\]]*pi-bash-[0-9a-f]{16}\.log/g, "$TMPFILE");
  return JSON.parse(json);
}

/** A tool context as the reference's session passes it, reduced to what bash reads. */
function sessionContext(cwd, s) {
  if (!s) return undefined;
  return {
    cwd,
    sessionManager: { getSessionId: () => s.sessionId, getSessionFile: () => s.sessionFile },
    model: s.provider ? { provider: s.provider, id: s.model } : undefined,
    thinkingLevel: s.thinkingLevel,
  };
}

async function run(tool, args, root, ctx) {
  try {
    const r = await tool.execute("capture", args, undefined, undefined, ctx);
    const out = { text: r.content.map((c) => c.text).join(""), details: r.details ?? null };
    if (r.isError !== undefined) out.isError = r.isError;
    if (r.structuredContent !== undefined) out.structuredContent = r.structuredContent;
    return normalize(out, root);
  } catch (e) {
    return normalize({ error: e.message }, root);
  }
}

const { createAllToolDefinitions } = await import(REF);
const root = mkdtempSync(join(tmpdir(), "pi-capture-tree-"));
process.chdir(root);
materialize(root);
const out = {};
for (const [name, cases] of [["grep", GREP], ["find", FIND], ["ls", LS], ["bash", BASH]]) {
  const results = [];
  for (const c of cases) {
    const cwd = join(root, c.cwd ?? "repo");
    if (name !== "bash") process.chdir(cwd);
    const tools = createAllToolDefinitions(cwd);
    const ctx = name === "bash" ? sessionContext(cwd, c.session) : undefined;
    results.push({ ...c, expected: await run(tools[name], c.args, root, ctx) });
  }
  out[name] = results;
}
const schemas = createAllToolDefinitions(root);
for (const name of ["bash", "grep", "find", "ls"]) {
  const t = schemas[name];
  const meta = {
    parameters: JSON.parse(JSON.stringify(t.parameters)),
    description: t.description,
    promptSnippet: t.promptSnippet,
    promptGuidelines: t.promptGuidelines ?? null,
    outputSchema: t.outputSchema ? JSON.parse(JSON.stringify(t.outputSchema)) : null,
    constrainedSampling: t.constrainedSampling ?? null,
  };
  mkdirSync(join(OUT, name), { recursive: true });
  writeFileSync(
    join(OUT, name, "expected.json"),
    JSON.stringify({ tree: name === "bash" ? undefined : TREE, meta, cases: out[name] }, null, 2) + "\n",
  );
}
// Tool-argument validation (pi-ai's validateToolArguments over pi-schema) on the built-in tools.
const VALIDATION = [
  ["read", {}],
  ["read", { path: 5 }],
  ["read", { path: "a", limit: "x" }],
  ["read", { path: "a", limit: "10" }],
  ["read", { path: "a", offset: null }],
  ["read", { path: null }],
  ["read", { path: "a", extra: 1 }],
  ["read", "notobject"],
  ["edit", { path: "a" }],
  ["edit", { path: "a", edits: [{ oldText: "x" }] }],
  ["edit", { path: "a", edits: [{ oldText: 1, newText: "y" }] }],
  ["edit", { path: "a", edits: "nope" }],
  ["edit", { path: "a", edits: { oldText: "x", newText: "y" } }],
  ["bash", { command: ["ls"] }],
  ["bash", { command: "ls", timeout: "abc" }],
  ["bash", { command: "ls", timeout: true }],
  ["grep", { pattern: "x", ignoreCase: "yes" }],
  ["grep", { pattern: "x", ignoreCase: "true" }],
  ["grep", { pattern: 12 }],
  ["write", { path: "a" }],
  ["write", {}],
  ["ls", { limit: [] }],
  ["ls", { path: false }],
  ["find", { pattern: {} }],
];
const { validateToolArguments } = await import(
  join(REFERENCE_DIR, "node_modules/@earendil-works/pi-ai/dist/utils/validation.js")
);
const validation = VALIDATION.map(([name, args]) => {
  try {
    const value = validateToolArguments(schemas[name], { type: "toolCall", id: "1", name, arguments: args });
    return { name, args, value };
  } catch (e) {
    return { name, args, error: e.message };
  }
});
mkdirSync(join(OUT, "validation"), { recursive: true });
writeFileSync(
  join(OUT, "validation", "expected.json"),
  JSON.stringify({ cases: validation }, null, 2) + "\n",
);

rmSync(root, { recursive: true, force: true });
rmSync(agentDir, { recursive: true, force: true });
console.log("wrote", ["bash", "grep", "find", "ls"].map((n) => `${n}: ${out[n].length} cases`).join(", "));
