/**
 * The oracle for session listings: every line of a file parsed, as pi 1.6.0's
 * `SessionManager.list` reads it, and a check that our listing of a folder shows exactly that.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { listSessionsInDir } from "../../../src/session/listing.ts";
import type { SessionInfo } from "../../../src/session/entries.ts";

type Loose = Record<string, unknown>;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter((b) => b && b.type === "text").map((b) => String(b.text)).join(" ");
}

/** The oracle: every line parsed, as the listing did before issue 12 (and as pi 1.6.0 does). */
export async function fullParse(path: string): Promise<Loose | null> {
  let header: Loose | undefined;
  let messageCount = 0;
  let firstMessage = "";
  const texts: string[] = [];
  let name: string | undefined;
  let last: number | undefined;
  const lines = (await Deno.readTextFile(path)).split("\n");
  for (const line of lines) {
    if (!line.trim()) continue;
    let e: Loose;
    try {
      e = JSON.parse(line);
    } catch {
      continue;
    }
    // As 1.6.0: a line that parses to a falsy value (`null`, `0`, `""`) is skipped like a malformed one.
    if (!e) continue;
    if (!header) {
      if (!e || e.type !== "session") return null;
      header = e;
      continue;
    }
    if (e.type === "session_info") name = (typeof e.name === "string" ? e.name.trim() : "") || undefined;
    if (e.type !== "message") continue;
    messageCount++;
    const m = e.message as Loose | undefined;
    if (!m || typeof m.role !== "string" || !("content" in m)) continue;
    if (m.role !== "user" && m.role !== "assistant") continue;
    const t = typeof m.timestamp === "number" ? m.timestamp : Date.parse(String(e.timestamp));
    if (!Number.isNaN(t)) last = Math.max(last ?? 0, t);
    const text = textOf(m.content);
    if (!text) continue;
    texts.push(text);
    if (!firstMessage && m.role === "user") firstMessage = text;
  }
  if (!header) return null;
  return {
    id: header.id,
    cwd: typeof header.cwd === "string" ? header.cwd : "",
    name,
    created: new Date(header.timestamp as string).getTime(),
    modified: new Date(last && last > 0 ? last : Date.parse(String(header.timestamp))).getTime(),
    messageCount,
    firstMessage: firstMessage || "(no messages)",
    allMessagesText: texts.join(" "),
  };
}

/** What a listing shows of one session, in comparable form. */
export function shown(i: SessionInfo): Loose {
  return {
    id: i.id,
    cwd: i.cwd,
    name: i.name,
    created: i.created.getTime(),
    modified: i.modified.getTime(),
    messageCount: i.messageCount,
    firstMessage: i.firstMessage,
    allMessagesText: i.allMessagesText,
  };
}

/** Lists `dir` and checks every session file against {@link fullParse}; returns how many were checked. */
export async function expectSameAsFullParse(dir: string): Promise<number> {
  const infos = await listSessionsInDir(dir);
  const byPath = new Map(infos.map((i) => [i.path, i]));
  let checked = 0;
  for await (const e of Deno.readDir(dir)) {
    if (!e.name.endsWith(".jsonl")) continue;
    const path = join(dir, e.name);
    const expected = await fullParse(path);
    const got = byPath.get(path);
    assertEquals(got ? shown(got) : null, expected, e.name);
    checked++;
  }
  return checked;
}
