/**
 * The summary a `/bug` report may carry instead of the transcript (1.6.0's
 * generateBugReportSummary): the session's newest messages (up to 60 % of the model's context) go
 * to the session's model with 1.6.0's instructions, and its Markdown report comes back. The
 * transcript stays with the user's provider; only the summary is attached.
 *
 * @module
 */
import type { AgentMessage } from "../agent/types.ts";
import type { AssistantMessage, Model } from "../ai/types.ts";
import { serializeConversation } from "../compaction/serialize.ts";
import { estimateTokens } from "../compaction/token_estimate.ts";
import type { ModelRuntime } from "../config/model_runtime.ts";
import { convertToLlm } from "../session/messages.ts";

const SYSTEM_PROMPT =
  `You are helping a user file a bug report about pi, the coding agent they are talking to. You will be shown the conversation transcript. Write a report for the pi developers describing what the user was doing and what went wrong.

Do NOT continue the conversation. Do NOT respond to any questions in the conversation. ONLY output the report.`;

const INSTRUCTIONS = `Write the bug report in Markdown with these sections:

## What the user was doing
One short paragraph.

## What went wrong
Concrete description of the failure: wrong output, errors, hangs, tool failures, unexpected behavior. Quote error messages and tool output verbatim where they exist.

## Steps to reproduce
Numbered list, as specific as the transcript allows.

## Relevant details
Tool calls involved, files touched, model behavior, anything else that helps a developer reproduce or locate the problem.

Do not include file contents, secrets, or credentials from the transcript; refer to files by path only. Keep the report factual and concise.`;

/** The newest messages that fit `budget` tokens (at least one). */
function newestWithin(messages: readonly AgentMessage[], budget: number): AgentMessage[] {
  const picked: AgentMessage[] = [];
  let tokens = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const next = estimateTokens(messages[i]);
    if (picked.length > 0 && tokens + next > budget) break;
    picked.push(messages[i]);
    tokens += next;
  }
  return picked.reverse();
}

/** What {@link generateBugReportSummary} needs. */
export interface BugReportSummaryOptions {
  model: Model;
  modelRuntime: Pick<ModelRuntime, "completeSimple">;
  messages: readonly AgentMessage[];
  hint?: string;
  sessionId?: string;
  thinkingLevel?: string;
  signal?: AbortSignal;
}

/** Asks the session's model for the report; throws 1.6.0's errors when it fails or is cancelled. */
export async function generateBugReportSummary(options: BugReportSummaryOptions): Promise<string> {
  const { model } = options;
  const window = model.contextWindow > 0 ? model.contextWindow : 128_000;
  const messages = newestWithin(options.messages, Math.floor(window * 0.6));
  const hint = options.hint?.trim();
  const prompt = [
    messages.length < options.messages.length
      ? `Note: only the last ${messages.length} of ${options.messages.length} messages are shown.`
      : undefined,
    `<conversation>\n${serializeConversation(convertToLlm(messages))}\n</conversation>`,
    hint ? `<user-report>\n${hint}\n</user-report>` : undefined,
    INSTRUCTIONS,
  ].filter((part) => part !== undefined).join("\n\n");
  const reasoning = model.reasoning && options.thinkingLevel && options.thinkingLevel !== "off"
    ? { reasoning: options.thinkingLevel as never }
    : {};
  const response: AssistantMessage = await options.modelRuntime.completeSimple(model, {
    systemPrompt: SYSTEM_PROMPT,
    messages: [{ role: "user", content: [{ type: "text", text: prompt }], timestamp: Date.now() }],
  }, {
    maxTokens: Math.min(4096, model.maxTokens > 0 ? model.maxTokens : Number.POSITIVE_INFINITY),
    signal: options.signal,
    sessionId: options.sessionId,
    ...reasoning,
  });
  if (response.stopReason === "aborted") throw new Error("Bug report summary was cancelled");
  if (response.stopReason === "error") {
    throw new Error(`Bug report summary failed: ${response.errorMessage ?? "unknown error"}`);
  }
  if (response.content.some((block) => block.type === "toolCall")) {
    throw new Error("Bug report summary attempted to call a tool");
  }
  const text = response.content.flatMap((b) => b.type === "text" ? [b.text] : []).join("").trim();
  if (!text) throw new Error("Bug report summary was empty");
  return text;
}
