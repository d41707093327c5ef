/**
 * The /session view of pi 1.6.0: name, file and id, message counts, tokens and cost. 1.6.0's
 * cache-warming and per-model cost lines need subsystems this build does not have yet.
 *
 * @module
 */
import type { AgentSession } from "../../core/agent_session.ts";
import type { Theme } from "./theme.ts";

/** The text of the /session view for `session`. */
export function sessionInfoText(session: AgentSession, theme: Theme): string {
  const stats = session.getSessionStats();
  const dim = (t: string) => theme.fg("dim", t);
  const name = session.sessionManager.getSessionName();
  let info = `${theme.bold("Session Info")}\n\n`;
  if (name) info += `${dim("Name:")} ${name}\n`;
  info += `${dim("File:")} ${stats.sessionFile ?? "In-memory"}\n`;
  info += `${dim("ID:")} ${stats.sessionId}\n\n`;
  info += `${theme.bold("Messages")}\n`;
  info += `${dim("Total:")} ${stats.totalMessages}\n`;
  info += `${dim("User:")} ${stats.userMessages}\n`;
  info += `${dim("Assistant:")} ${stats.assistantMessages}\n`;
  info += `${dim("Tools:")} ${stats.toolCalls} calls, ${stats.toolResults} results\n\n`;
  info += `${theme.bold("Tokens")}\n`;
  const { input, cacheRead, cacheWrite, output, total } = stats.tokens;
  const prompt = input + cacheRead + cacheWrite;
  info += `${dim("Input:")} ${prompt.toLocaleString("en-US")}\n`;
  if (prompt > 0 && (cacheRead > 0 || cacheWrite > 0)) {
    info += `  ${dim("Cached:")} ${cacheRead.toLocaleString("en-US")} ${
      dim(`(${((cacheRead / prompt) * 100).toFixed(1)}%)`)
    }\n`;
    const written = cacheWrite > 0
      ? ` ${dim(`(${cacheWrite.toLocaleString("en-US")} written to cache)`)}`
      : "";
    info += `  ${dim("Uncached:")} ${(input + cacheWrite).toLocaleString("en-US")}${written}\n`;
  }
  info += `${dim("Output:")} ${output.toLocaleString("en-US")}\n`;
  info += `${dim("Total:")} ${total.toLocaleString("en-US")}\n`;
  if (stats.cost > 0) info += `\n${theme.bold("Cost")}\n${dim("Total:")} $${stats.cost.toFixed(3)}`;
  return info;
}
