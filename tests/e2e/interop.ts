/**
 * Session interop between our pi and the reference: a chain of `pi -c -p` runs, each by ours or
 * the reference, on one session directory and one fake server (OpenAI completions wire format,
 * so the sent history is easy to read back). Each step's model writes a file, then answers.
 * Shared by reference_interop_test.ts and capture_reference.ts.
 *
 * @module
 */
import { join } from "node:path";
import { createAgentEnv } from "../support/agent_env.ts";
import { type ScriptedTurn, startFakeProvider } from "../support/fake_provider/mod.ts";
import { spawnPi } from "../support/spawn_pi.ts";
import { SessionManager } from "../../src/session/session_manager.ts";
import { getCurrentSystemPrompt, type SystemMessage } from "../../src/session/system_message.ts";
import { findReference } from "../../scripts/reference/locate.ts";
import { entryKinds } from "./error_cases.ts";

/** Who runs a step. */
export type Runner = "ours" | "ref";

/** One step's observable outcome. */
export interface StepOutcome {
  who: Runner;
  code: number;
  stdout: string;
  stderr: string;
  /** The history its last request sent, one summary string per message. */
  sent: string[];
}

/** Where a persisted system message sits and what it holds (pi 1.6.0 writes the prompt into the session). */
export interface SystemMessageFact {
  /** The kind of the entry that follows it (a run writes its prompt right before the user message). */
  before: string;
  /** True for a full prompt (it has a preamble), false for a patch of changed sections. */
  full: boolean;
  /** The section names it sets or removes. */
  sections: string[];
}

/** A whole chain's outcome. */
export interface ChainOutcome {
  steps: StepOutcome[];
  fileCount: number;
  /** Entry kinds with the system messages left out (see `systemMessages`). */
  kinds: string[];
  /** The system messages in file order. */
  systemMessages: SystemMessageFact[];
  /** The prompt the file's system messages replay to ends with the session's cwd section. */
  promptEndsWithCwd: boolean;
  /** The session file's text with the project dir replaced by `$CWD`. */
  sessionText: string;
  /** Whether every entry's parentId is the previous entry's id. */
  chained: boolean;
  /** Messages in the context our SessionManager builds from the final file. */
  loadedMessages: number;
}

/** Placeholder for the project dir in stored session files. */
export const CWD_PLACEHOLDER = "$CWD";
/** Placeholder for the reference's package folder (its docs paths are in its system prompt). */
export const PKG_PLACEHOLDER = "<PKG>";

function stepTurns(step: number): ScriptedTurn[] {
  return [
    {
      content: [{
        type: "toolCall",
        id: `call_${step}`,
        name: "write",
        arguments: { path: `step${step}.txt`, content: `step ${step}\n` },
      }],
    },
    { content: [{ type: "text", text: `answer ${step}` }] },
  ];
}

/** One line per message of an OpenAI chat request: role and text, tool call names or result. */
export function summarizeSent(body: unknown): string[] {
  const messages = (body as { messages: Record<string, unknown>[] }).messages;
  return messages.filter((m) => m.role !== "system").map((m) => {
    const content = typeof m.content === "string"
      ? m.content
      : Array.isArray(m.content)
      ? (m.content as { text?: string }[]).map((c) => c.text ?? "").join("")
      : "";
    const calls = (m.tool_calls as { function: { name: string } }[] | undefined)?.map((c) => c.function.name);
    return `${m.role}:${content}${calls ? `[${calls.join(",")}]` : ""}`;
  });
}

/**
 * Runs `pi -c -p "prompt N"` for each runner in turn. `seed` is a stored session text (with
 * {@link CWD_PLACEHOLDER}) placed in the session dir first, so the first step continues it.
 */
export async function runChain(
  runners: Runner[],
  seed?: { text: string; steps: number },
): Promise<ChainOutcome> {
  const offset = seed?.steps ?? 0;
  const server = await startFakeProvider(runners.flatMap((_, i) => stepTurns(offset + i + 1)));
  const env = await createAgentEnv(server.url);
  env.env.PI_OFFLINE = "1";
  const sessionDir = join(env.root, "sessions");
  await Deno.mkdir(sessionDir);
  try {
    if (seed) {
      await Deno.writeTextFile(
        join(sessionDir, "seed.jsonl"),
        seed.text.split(CWD_PLACEHOLDER).join(env.cwd),
      );
    }
    const steps: StepOutcome[] = [];
    for (const [i, who] of runners.entries()) {
      const r = await spawnPi(
        [
          "-c",
          "--session-dir",
          sessionDir,
          "--model",
          "fake-openai/test-model",
          "-p",
          `prompt ${offset + i + 1}`,
        ],
        { env: env.env, cwd: env.cwd, reference: who === "ref" },
      );
      const last = server.requests.at(-1);
      steps.push({
        who,
        code: r.code,
        stdout: r.stdout,
        stderr: r.stderr,
        sent: last ? summarizeSent(last.body) : [],
      });
    }
    const files = [...Deno.readDirSync(sessionDir)].filter((e) => e.name.endsWith(".jsonl"));
    const text = files.length === 1 ? await Deno.readTextFile(join(sessionDir, files[0].name)) : "";
    const entries = text.trim().split("\n").filter((l) => l).map((l) => JSON.parse(l)).slice(1);
    const chained = entries.every((e, i) => i === 0 ? e.parentId === null : e.parentId === entries[i - 1].id);
    const loadedMessages = files.length === 1
      ? SessionManager.open(join(sessionDir, files[0].name)).buildSessionContext().messages.length
      : 0;
    const kinds = text ? entryKinds(text) : [];
    const systemMessages: SystemMessageFact[] = [];
    kinds.forEach((kind, i) => {
      if (kind !== "system") return;
      const message = entries[i - 1].message as SystemMessage;
      systemMessages.push({
        before: kinds[i + 1] ?? "",
        full: message.sections?.preamble !== undefined,
        sections: Object.keys(message.sections ?? {}),
      });
    });
    const prompt = getCurrentSystemPrompt(entries.filter((e) => e.type === "message").map((e) => e.message));
    const pkg = findReference()?.packageDir;
    let sessionText = text.split(env.cwd).join(CWD_PLACEHOLDER);
    if (pkg) sessionText = sessionText.split(pkg).join(PKG_PLACEHOLDER);
    return {
      steps,
      fileCount: files.length,
      kinds: kinds.filter((k) => k !== "system"),
      systemMessages,
      promptEndsWithCwd: prompt.endsWith(`<cwd>\n${env.cwd}\n</cwd>`),
      sessionText,
      chained,
      loadedMessages,
    };
  } finally {
    await server.close();
    await env.cleanup();
  }
}

/** The history a step N (1-based) sends: all earlier steps plus its own prompt and tool round. */
export function expectedSent(step: number): string[] {
  const out: string[] = [];
  for (let n = 1; n <= step; n++) {
    out.push(
      `user:prompt ${n}`,
      "assistant:[write]",
      `tool:Successfully wrote to step${n}.txt`,
    );
    if (n < step) out.push(`assistant:answer ${n}`);
  }
  return out;
}

/** Session entry kinds after `steps` steps, system messages left out. */
export function expectedKinds(steps: number): string[] {
  const out = ["session", "model_change", "thinking_level_change"];
  for (let n = 1; n <= steps; n++) out.push("user", "assistant:toolUse", "toolResult", "assistant:stop");
  return out;
}
