/**
 * The /session view of pi 1.6.0: name, file and id, message counts, tokens, cache warming and
 * cost (per model when more than one, or another than the current one, was billed). This build
 * does no cache warming, so its status is always inactive.
 *
 * @module
 */
import type { AgentSession } from "../../core/agent_session.ts";
import type { SessionEntry } from "../../session/entries.ts";
import { formatTokens } from "./footer.ts";
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
  info += `\n${theme.bold("Cache Warming")}\n`;
  info += `${dim("Mode:")} ${session.settingsManager.getCacheWarmingMode()}\n`;
  info += `${dim("Status:")} Inactive (cache warming unavailable)\n`;
  if (stats.cost > 0) {
    info += `\n${theme.bold("Cost")}\n${dim("Total:")} $${stats.cost.toFixed(3)}`;
    const model = session.model;
    const breakdown = usageCostBreakdown(session.sessionManager.getEntries());
    // One line only repeats the total, unless it names another model than the current one.
    if (breakdown.length > 1 || breakdown[0]?.key !== `${model?.provider}/${model?.id}`) {
      for (const entry of breakdown) {
        info += `\n  ${dim(`${entry.key}:`)} $${entry.cost.toFixed(3)} ${
          dim(`(${formatTokens(entry.tokens)} tokens)`)
        }`;
      }
    }
  }
  return info;
}

interface UsageLike {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cost: { total: number };
}

/** Cost and tokens per `provider/model` (tools and summaries together), most expensive first. */
export function usageCostBreakdown(
  entries: readonly SessionEntry[],
): { key: string; cost: number; tokens: number }[] {
  const totals = new Map<string, { cost: number; tokens: number }>();
  for (const entry of entries) {
    let key: string | undefined;
    let usage: UsageLike | undefined;
    const e = entry as {
      type: string;
      message?: {
        role: string;
        provider?: string;
        model?: string;
        responseModel?: string;
        usage?: UsageLike;
      };
      provider?: string;
      model?: string;
      usage?: UsageLike;
    };
    if (e.type === "message" && e.message?.role === "assistant") {
      key = `${e.message.provider}/${e.message.responseModel ?? e.message.model}`;
      usage = e.message.usage;
    } else if (e.type === "usage") {
      key = `${e.provider}/${e.model}`;
      usage = e.usage;
    } else if (e.type === "message" && e.message?.role === "toolResult" && e.message.usage) {
      key = "Tools/summaries";
      usage = e.message.usage;
    } else if ((e.type === "branch_summary" || e.type === "compaction") && e.usage) {
      key = "Tools/summaries";
      usage = e.usage;
    }
    if (!key || !usage) continue;
    const t = totals.get(key) ?? { cost: 0, tokens: 0 };
    t.cost += usage.cost.total;
    t.tokens += usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
    totals.set(key, t);
  }
  return [...totals].map(([key, t]) => ({ key, ...t }))
    .filter((t) => t.cost > 0 || t.tokens > 0)
    .sort((a, b) => b.cost - a.cost);
}
