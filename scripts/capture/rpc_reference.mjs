#!/usr/bin/env node
/**
 * Records an RPC transcript from the reference pi 1.6.0 (tests/fixtures/rpc/transcript.json).
 *
 *   <reference node> scripts/capture/rpc_reference.mjs [transcript|compaction]
 *
 * `compaction` records the compaction variant instead (tests/fixtures/compaction/rpc.json): a
 * summary request retried after a transient failure (summarization_retry_* events), a second
 * compact refused, and a summary cut off by the output limit.
 *
 * The reference is found at $PI_REFERENCE_DIR (the folder holding node_modules) or
 * <repo>/.cache/reference, and runs under the Node that runs this script.
 *
 * Starts our fake provider server (tests/support/fake_provider, via `deno eval`), writes an
 * isolated HOME/agent dir whose models.json points at it (the same providers as
 * tests/support/agent_env.ts), runs `cli.js --mode rpc`, and sends SCRIPT one command at a time,
 * waiting for each response (and, for prompts, for `agent_settled`). Every stdout line is stored
 * as it came except for the machine-specific parts, replaced before writing: the temp root by
 * `<ROOT>` (and its session-folder form by `<ROOT_ENC>`), the server URL by `<URL>`, the reference
 * package folder by `<PKG>` and this checkout by `<REPO>`. tests/modes/rpc/transcript.ts maps our
 * side to the same placeholders (and normalises ids, times and the live usage figures, which
 * depend on timing).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const REF = join(
  resolve(process.env.PI_REFERENCE_DIR ?? join(repo, ".cache/reference")),
  "node_modules/@earendil-works/pi-coding-agent",
);
const VARIANT = process.argv[2] ?? "transcript";
if (VARIANT !== "transcript" && VARIANT !== "compaction") throw new Error(`unknown variant ${VARIANT}`);

/** What the fake model answers, in request order (the third is the compaction summary). */
const TRANSCRIPT_TURNS = [
  { content: [{ type: "text", text: "Hello! How can I help?" }], usage: { input: 100, output: 20 } },
  { content: [{ type: "text", text: "Second answer." }], usage: { input: 150, output: 30 } },
  { content: [{ type: "text", text: "## Goal\nGreet the user." }], usage: { input: 400, output: 12 } },
];

/** The commands; `$firstUserEntry` is replaced by the first get_fork_messages entry id. */
const TRANSCRIPT_SCRIPT = [
  { type: "prompt", message: "Say hello" },
  { type: "get_state" },
  { type: "get_available_thinking_levels" },
  { type: "clear_queue" },
  { type: "bash", command: "printf 'one\\ntwo\\n'; exit 3" },
  { type: "prompt", message: "And again" },
  { type: "get_session_stats" },
  { type: "compact", customInstructions: "Keep it short." },
  // After a compaction the statistics still count the summarised history and the summary's usage.
  { type: "get_session_stats" },
  { type: "set_session_name", name: "  Transcript session  " },
  { type: "set_session_name", name: "   " },
  { type: "get_fork_messages" },
  { type: "get_last_assistant_text" },
  { type: "clone" },
  { type: "get_state" },
  { type: "fork", entryId: "$firstUserEntry" },
  { type: "get_state" },
  { type: "get_messages" },
  { type: "get_entries" },
  { type: "unknown_thing" },
  { type: "export_html" },
];

/** The compaction variant: what the model answers, the commands and the settings. */
const COMPACTION = {
  turns: [
    { content: [{ type: "text", text: "First answer." }], usage: { input: 100, output: 20 } },
    { content: [{ type: "text", text: "Second answer." }], usage: { input: 150, output: 30 } },
    // The summary request fails transiently once, then succeeds.
    { fault: { kind: "http", status: 503, message: "Service temporarily overloaded" } },
    { content: [{ type: "text", text: "## Goal\nTwo answers." }], usage: { input: 300, output: 10 } },
    { content: [{ type: "text", text: "Third answer." }], usage: { input: 200, output: 30 } },
    // A summary cut off by the output limit must not be stored.
    {
      content: [{ type: "text", text: "## Goal\nCut" }],
      stopReason: "length",
      usage: { input: 300, output: 9 },
    },
    // A reply whose context crosses the threshold (200000 - 16384): compaction after the run.
    { content: [{ type: "text", text: "Big answer." }], usage: { input: 190000, output: 10 } },
    { content: [{ type: "text", text: "## Goal\nThreshold summary." }], usage: { input: 500, output: 10 } },
    // The window overflows: compaction, then the request is retried once.
    { fault: { kind: "http", status: 400, message: "prompt is too long: 250000 tokens > 200000 maximum" } },
    { content: [{ type: "text", text: "## Goal\nOverflow summary." }], usage: { input: 600, output: 10 } },
    // The cut falls inside the overflowing turn: its beginning is summarised separately.
    {
      content: [{ type: "text", text: "## Original Request\nOverflow question." }],
      usage: { input: 650, output: 10 },
    },
    { content: [{ type: "text", text: "Answer after recovery." }], usage: { input: 700, output: 10 } },
  ],
  script: [
    { type: "prompt", message: "First question" },
    { type: "prompt", message: "Second question" },
    { type: "compact" },
    { type: "compact" },
    { type: "prompt", message: "Third question" },
    { type: "compact", customInstructions: "Only the goal." },
    { type: "prompt", message: "Big question" },
    { type: "prompt", message: "Overflow question" },
    { type: "get_entries" },
  ],
  settings: { compaction: { keepRecentTokens: 5 }, retry: { enabled: true, maxRetries: 2, baseDelayMs: 10 } },
};

const SETTINGS = VARIANT === "compaction" ? COMPACTION.settings : { compaction: { keepRecentTokens: 5 } };
const TURNS = VARIANT === "compaction" ? COMPACTION.turns : TRANSCRIPT_TURNS;
const SCRIPT = VARIANT === "compaction" ? COMPACTION.script : TRANSCRIPT_SCRIPT;
const outFile = join(
  repo,
  VARIANT === "compaction" ? "tests/fixtures/compaction/rpc.json" : "tests/fixtures/rpc/transcript.json",
);

const FAKE_SERVER = `
import { startFakeProvider } from ${JSON.stringify(join(repo, "tests/support/fake_provider/mod.ts"))};
const server = await startFakeProvider(JSON.parse(Deno.env.get("FAKE_TURNS") ?? "[]"));
console.log(server.url);
for await (const _ of Deno.stdin.readable) { /* until the capture is done */ }
console.log(JSON.stringify(server.requests.map((r) => ({ method: r.method, path: r.path, body: r.body }))));
await server.close();
`;

function modelsJson(url) {
  const apis = {
    "anthropic-messages": ["fake-anthropic", url],
    "openai-completions": ["fake-openai", `${url}/v1`],
    "openai-responses": ["fake-responses", `${url}/v1`],
    "google-generative-ai": ["fake-google", `${url}/v1beta`],
  };
  const providers = {};
  for (const [api, [name, baseUrl]] of Object.entries(apis)) {
    providers[name] = {
      baseUrl,
      api,
      apiKey: "test-key",
      models: [{
        id: "test-model",
        name: `Test model (${api})`,
        reasoning: false,
        input: ["text", "image"],
        contextWindow: 200000,
        maxTokens: 8192,
        cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
      }],
    };
  }
  return { providers };
}

const fake = spawn("deno", ["eval", "--ext=ts", FAKE_SERVER], {
  env: { ...process.env, FAKE_TURNS: JSON.stringify(TURNS) },
  stdio: ["pipe", "pipe", "inherit"],
});
let fakeOut = "";
const url = await new Promise((r) => {
  fake.stdout.on("data", (d) => {
    fakeOut += d;
    if (fakeOut.includes("\n")) r(fakeOut.split("\n")[0]);
  });
});

const root = realpathSync(mkdtempSync(join(tmpdir(), "pi-env-")));
const home = join(root, "home");
const agentDir = join(root, "agent");
const cwd = join(root, "project");
for (const d of [home, agentDir, cwd]) mkdirSync(d, { recursive: true });
writeFileSync(join(agentDir, "models.json"), JSON.stringify(modelsJson(url), null, 2));
writeFileSync(join(agentDir, "settings.json"), JSON.stringify(SETTINGS));

const child = spawn(
  process.execPath,
  [join(REF, "dist/cli.js"), "--mode", "rpc", "--provider", "fake-anthropic", "--model", "test-model"],
  {
    cwd,
    env: { HOME: home, PI_CODING_AGENT_DIR: agentDir, PATH: process.env.PATH, NO_COLOR: "1", TERM: "dumb" },
    stdio: ["pipe", "pipe", "pipe"],
  },
);
let stderr = "";
child.stderr.on("data", (d) => (stderr += d));
const lines = [];
let waiter;
let buffer = "";
child.stdout.on("data", (d) => {
  buffer += d;
  let i;
  while ((i = buffer.indexOf("\n")) !== -1) {
    const line = buffer.slice(0, i);
    buffer = buffer.slice(i + 1);
    lines.push(line);
    waiter?.(JSON.parse(line));
  }
});

function until(predicate) {
  return new Promise((resolveWait, reject) => {
    const timer = setTimeout(() => reject(new Error(`timeout; stderr: ${stderr}`)), 30000);
    waiter = (record) => {
      if (predicate(record)) {
        clearTimeout(timer);
        waiter = undefined;
        resolveWait(record);
      }
    };
  });
}

const steps = [];
let firstUserEntry;
for (const [index, template] of SCRIPT.entries()) {
  const command = { ...template, id: `c${index}` };
  if (command.entryId === "$firstUserEntry") command.entryId = firstUserEntry;
  const start = lines.length;
  const isPrompt = command.type === "prompt";
  let sawResponse = false;
  let sawEnd = false;
  const done = until((r) => {
    if (r.type === "response") sawResponse = true;
    if (r.type === "agent_settled") sawEnd = true;
    return sawResponse && (!isPrompt || sawEnd);
  });
  child.stdin.write(`${JSON.stringify(command)}\n`);
  await done;
  // Let trailing events of this command arrive.
  await new Promise((r) => setTimeout(r, 300));
  const output = lines.slice(start).map((l) => JSON.parse(l));
  if (command.type === "get_fork_messages") {
    firstUserEntry = output.find((r) => r.type === "response").data.messages[0].entryId;
  }
  steps.push({ command, output });
}
child.stdin.end();
const exitCode = await new Promise((r) => child.on("exit", (code) => r(code)));
fake.stdin.end();
await new Promise((r) => fake.on("exit", r));
const requests = JSON.parse(fakeOut.split("\n")[1]);

/** Replaces this machine's paths and the server's port by placeholders (see the header). */
function placeholders(text) {
  return text.replaceAll(root, "<ROOT>").replaceAll(root.slice(1).replaceAll("/", "-"), "<ROOT_ENC>")
    .replaceAll(url, "<URL>").replaceAll(REF, "<PKG>").replaceAll(repo, "<REPO>");
}

// The reference's token estimate of its system message as it was, before the placeholders change
// its length: the test subtracts it from compaction estimates (tests/compaction/support.ts).
const { estimateTokens } = await import(join(REF, "dist/index.js"));
const systemMessage = steps.flatMap((s) => s.output)
  .find((r) => r.type === "message_end" && r.message.role === "system")?.message;
const systemTokens = systemMessage ? estimateTokens(systemMessage) : 0;
const capture = {
  root,
  url,
  packageDir: REF,
  systemTokens,
  settings: SETTINGS,
  turns: TURNS,
  script: SCRIPT,
  steps,
  exitCode,
  requests,
};
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, placeholders(JSON.stringify(capture, null, 1)) + "\n");
rmSync(root, { recursive: true, force: true });
console.log(`wrote ${outFile}: ${steps.length} steps, ${requests.length} requests, exit ${exitCode}`);
