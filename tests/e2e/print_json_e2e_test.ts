/**
 * The real `pi` in print and JSON mode for each of the four wire APIs (MODE-01, MODE-02, EVT-01…08):
 * a scripted model writes notes.txt, reads it, edits it and answers. Checked directly (stdout, files,
 * request contents, session lines, event order and payload shapes) and against pi 1.6.0 run live on
 * the same script, normalised: exit code, stdout, stderr, request bodies, session lines and the
 * JSON stream must be identical. The stored capture (tests/fixtures/e2e/scenario_<api>.json, from
 * capture_reference.ts) must equal the live run, and stands in for it only when the reference is
 * not installed.
 */
import { assert, assertEquals } from "../support/assert.ts";
import type { FakeApi } from "../support/agent_env.ts";
import {
  APIS,
  comparableJson,
  FINAL_TEXT,
  jsonOutcome,
  modelArg,
  NOTES_AFTER,
  printOutcome,
  PROMPT,
  referenceJson,
  referencePrint,
  runScenario,
  type ScenarioRun,
} from "./scenario.ts";

type Json = Record<string, unknown>;

/** The system prompt and tool names as each wire format carries them. */
function systemAndTools(api: FakeApi, body: Json): { system: string; tools: string[] } {
  switch (api) {
    case "anthropic-messages":
      return {
        system: (body.system as { text: string }[]).map((b) => b.text).join(""),
        tools: (body.tools as { name: string }[]).map((t) => t.name),
      };
    case "openai-completions":
      return {
        system: String((body.messages as Json[])[0].content),
        tools: (body.tools as { function: { name: string } }[]).map((t) => t.function.name),
      };
    case "openai-responses":
      return {
        system: String((body.input as Json[])[0].content),
        tools: (body.tools as { name: string }[]).map((t) => t.name),
      };
    case "google-generative-ai":
      return {
        system: (body.systemInstruction as { parts: { text: string }[] }).parts.map((p) => p.text).join(""),
        tools: (body.tools as { functionDeclarations: { name: string }[] }[])[0].functionDeclarations.map((
          t,
        ) => t.name),
      };
  }
}

/** Texts only a tool result carries, in call order (the read result is the file content). */
const TOOL_RESULTS = [
  "Successfully wrote to notes.txt",
  "Successfully replaced 1 block(s) in notes.txt.",
];

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

function checkRequests(api: FakeApi, run: ScenarioRun): void {
  assertEquals(run.requests.length, 4);
  for (const [i, request] of run.requests.entries()) {
    const body = request.body as Json;
    const { system, tools } = systemAndTools(api, body);
    assert(system.startsWith("You are a coding assistant running inside pi"), system.slice(0, 80));
    assert(system.endsWith("<cwd>\n$ROOT/project\n</cwd>"), system.slice(-80));
    assertEquals(tools, ["read", "bash", "edit", "write"]);
    const text = JSON.stringify(body);
    assert(text.includes(PROMPT), `request ${i} carries the prompt`);
    // Each request carries the results of all earlier tool calls, and no later ones.
    assertEquals(text.includes(TOOL_RESULTS[0]), i >= 1, `request ${i}: write result`);
    assertEquals(text.includes(TOOL_RESULTS[1]), i >= 3, `request ${i}: edit result`);
    // "alpha" is first in the write's argument, then also in the read's result.
    assertEquals(occurrences(text, "alpha"), i === 0 ? 0 : i === 1 ? 1 : 2, `request ${i}: read result`);
  }
}

function checkSessionLines(lines: unknown[]): void {
  const summary = (lines as Json[]).map((l) =>
    l.type === "message" ? `message:${(l.message as Json).role}` : String(l.type)
  );
  assertEquals(summary, [
    "session",
    "model_change",
    "thinking_level_change",
    // 1.6.0 records the system prompt and tools before the first user message.
    "message:system",
    "message:user",
    "message:assistant",
    "message:toolResult",
    "message:assistant",
    "message:toolResult",
    "message:assistant",
    "message:toolResult",
    "message:assistant",
  ]);
  const header = lines[0] as Json;
  assertEquals(header.version, 3);
  assertEquals(header.cwd, "$ROOT/project");
  // Every entry hangs off the previous one.
  for (let i = 2; i < lines.length; i++) {
    assertEquals((lines[i] as Json).parentId, (lines[i - 1] as Json).id, `line ${i} parentId`);
  }
  const last = (lines.at(-1) as Json).message as Json;
  const blocks = last.content as Json[];
  assertEquals(blocks.map((b) => [b.type, b.text]), [["text", FINAL_TEXT]]);
  assertEquals(last.stopReason, "stop");
}

/** Event types with message_update runs collapsed, for a readable order check. */
function collapsedTypes(lines: unknown[]): string[] {
  const out: string[] = [];
  for (const line of lines as Json[]) {
    const type = String(line.type);
    if (type === "message_update" && out.at(-1) === "message_update*") continue;
    out.push(type === "message_update" ? "message_update*" : type);
  }
  return out;
}

function checkJsonStream(lines: unknown[]): void {
  const assistant = ["message_start", "message_update*", "message_end"];
  const toolRound = ["tool_execution_start", "tool_execution_end", "message_start", "message_end"];
  const message = ["message_start", "message_end"];
  assertEquals(collapsedTypes(lines), [
    "session",
    "agent_start",
    // The system prompt's message, then the user's.
    ...["turn_start", ...message, ...message, ...assistant, ...toolRound, "turn_end"],
    ...["turn_start", ...assistant, ...toolRound, "turn_end"],
    ...["turn_start", ...assistant, ...toolRound, "turn_end"],
    ...["turn_start", ...assistant, "turn_end"],
    "agent_end",
    "agent_settled",
  ]);
  assertEquals(((lines[3] as Json).message as Json).role, "system");
  for (const line of lines as Json[]) {
    if (line.type === "message_update") {
      // Delta-only (1.6.0): no cumulative message, no partial, the reply's usage so far.
      assertEquals(Object.keys(line), ["type", "usage", "assistantMessageEvent"]);
      const event = line.assistantMessageEvent as Json;
      assert(typeof event.type === "string");
      assertEquals("partial" in event, false);
      if (event.type === "text_delta" || event.type === "toolcall_delta") {
        assert(typeof event.delta === "string" && typeof event.contentIndex === "number");
      }
    }
    if (line.type === "tool_execution_start") {
      assertEquals(Object.keys(line).sort(), ["args", "toolCallId", "toolName", "type"]);
    }
    if (line.type === "tool_execution_end") {
      assertEquals(Object.keys(line), ["type", "toolCallId", "toolName", "result", "isError", "durationMs"]);
      assertEquals(line.isError, false);
    }
    if (line.type === "turn_end") {
      assertEquals(Object.keys(line).sort(), ["message", "toolResults", "type"]);
    }
  }
  const end = lines.at(-2) as Json;
  // agent_end carries every message of the run: system + user + 4 assistant + 3 tool results.
  assertEquals((end.messages as unknown[]).length, 9);
  assertEquals(end.willRetry, false);
  assertEquals(lines.at(-1), { type: "agent_settled", aborted: false });
}

for (const api of APIS) {
  Deno.test(`MODE-01 CLI-19 e2e ${api}: pi -p writes, reads, edits and prints only the final text`, async () => {
    const [run, ref] = await Promise.all([runScenario(api, ["-p"]), referencePrint(api)]);
    assertEquals(run.result.stderr, "");
    assertEquals(run.result.code, 0);
    assertEquals(run.result.stdout, `${FINAL_TEXT}\n`);
    assertEquals(run.notes, NOTES_AFTER);
    assertEquals(run.sessionFileCount, 1);
    checkRequests(api, run);
    checkSessionLines(run.sessionLines);
    // Field by field, so a difference names what differs.
    const ours = printOutcome(run);
    for (const key of Object.keys(ref) as (keyof typeof ref)[]) {
      assertEquals(ours[key], ref[key], `${key} equals pi 1.6.0's`);
    }
  });

  Deno.test(`MODE-02 EVT-01..08 e2e ${api}: --mode json streams the header then every event`, async () => {
    const [run, ref] = await Promise.all([runScenario(api, ["--mode", "json"]), referenceJson(api)]);
    assertEquals(run.result.stderr, "");
    assertEquals(run.result.code, 0);
    assertEquals(run.notes, NOTES_AFTER);
    assertEquals((run.jsonLines[0] as Json).type, "session");
    checkJsonStream(run.jsonLines);
    const ours = comparableJson(jsonOutcome(run));
    assertEquals([ours.code, ours.stderr], [ref.code, ref.stderr], "exit code and stderr equal pi 1.6.0's");
    assertEquals(ours.jsonLines.length, ref.jsonLines.length, "as many records as pi 1.6.0");
    // Record by record (message_update compared by its delta), so a difference names the record.
    for (const [i, line] of ours.jsonLines.entries()) {
      assertEquals(line, ref.jsonLines[i], `record ${i} equals pi 1.6.0's`);
    }
    // The session written alongside matches the -p run's.
    checkSessionLines(run.sessionLines);
  });
}

Deno.test("MODE-02 e2e --mode json --no-session still writes the header and writes no file", async () => {
  const run = await runScenario("anthropic-messages", ["--mode", "json", "--no-session"], {
    turns: [{ content: [{ type: "text", text: "hi" }] }],
  });
  assertEquals(run.result.code, 0);
  assertEquals(run.sessionFileCount, 0);
  const header = run.jsonLines[0] as Json;
  assertEquals([header.type, header.version, header.cwd], ["session", 3, "$ROOT/project"]);
  assertEquals(collapsedTypes(run.jsonLines), [
    "session",
    "agent_start",
    "turn_start",
    "message_start",
    "message_end",
    "message_start",
    "message_end",
    "message_start",
    "message_update*",
    "message_end",
    "turn_end",
    "agent_end",
    "agent_settled",
  ]);
  assertEquals(modelArg("anthropic-messages"), "fake-anthropic/test-model");
});

Deno.test("MODE-01 LOOP-12 e2e pi -p waits for the run after an overflow compaction and prints its answer", async () => {
  const run = await runScenario("anthropic-messages", ["-p", "one"], {
    turns: [
      { content: [{ type: "text", text: "earlier reply" }], usage: { input: 50, output: 10 } },
      { fault: { kind: "http", status: 400, message: "prompt is too long: 250000 tokens > 200000 maximum" } },
      { content: [{ type: "text", text: "OVERFLOW SUMMARY" }], usage: { input: 50, output: 10 } },
      // 1.6.0 cuts after the omitted failed reply, inside the turn: its beginning gets a summary too.
      { content: [{ type: "text", text: "TURN PREFIX SUMMARY" }], usage: { input: 50, output: 10 } },
      { content: [{ type: "text", text: "answer after compaction" }], usage: { input: 50, output: 10 } },
    ],
    settings: { compaction: { keepRecentTokens: 5 }, retry: { enabled: true, provider: { maxRetries: 0 } } },
  });
  assertEquals([run.result.code, run.result.stdout, run.result.stderr], [0, "answer after compaction\n", ""]);
  const kinds = (run.sessionLines as Json[]).map((l) => String(l.type));
  assertEquals(kinds.slice(-3), ["context_edit", "compaction", "message"]);
});
