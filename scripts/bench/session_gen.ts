/**
 * Synthetic session files for the resume and listing benchmarks: turns of user → assistant tool
 * call → big tool result → assistant answer, with a few side branches and one compaction near
 * the end, written in chunks (the generator never holds the whole file).
 *
 * @module
 */

/** Shape of a generated session. */
export interface BigSessionOptions {
  /** Number of messages (4 per turn). */
  messages: number;
  /** Characters of each tool result's text (the bulk of the file). */
  toolBytes: number;
  /** The header's cwd (where `pi -c` must run to find it). */
  cwd: string;
  /** The provider and model named in assistant messages. */
  provider: string;
  model: string;
  /** The session id (UUID); a fixed one by default. */
  id?: string;
  /** Header timestamp (ms); entries follow one second apart. */
  startMs?: number;
}

/** What was written: size and entry counts. */
export interface BigSessionSummary {
  bytes: number;
  entries: number;
  messages: number;
}

const USAGE = {
  input: 1200,
  output: 80,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 1280,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** Writes a session file of about `messages * (toolBytes / 4 + 400)` bytes. */
export async function writeBigSession(file: string, o: BigSessionOptions): Promise<BigSessionSummary> {
  const f = await Deno.open(file, { write: true, create: true, truncate: true });
  const enc = new TextEncoder();
  const start = o.startMs ?? Date.UTC(2026, 0, 1);
  // Text with quotes, backslashes, newlines and non-ASCII, as real tool output has.
  const unit = 'line "quoted" \\ path/to/file.ts: const x = 1; // ünïcödé ✓\n';
  const filler = unit.repeat(Math.ceil(o.toolBytes / unit.length)).slice(0, o.toolBytes);
  const header = {
    type: "session",
    version: 3,
    id: o.id ?? "019ad000-0000-7000-8000-000000000001",
    timestamp: new Date(start).toISOString(),
    cwd: o.cwd,
  };
  let buf = JSON.stringify(header) + "\n";
  let bytes = 0;
  let entries = 0;
  let messages = 0;
  let seq = 0;
  let parent: string | null = null;
  const turnStarts: string[] = [];
  const turnEnds: string[] = [];
  const flush = async (force: boolean) => {
    if (!force && buf.length < 4 << 20) return;
    const data = enc.encode(buf);
    bytes += data.length;
    await f.write(data);
    buf = "";
  };
  const add = async (entry: Record<string, unknown>) => {
    const id = (0x10000000 + seq++).toString(16);
    const ts = new Date(start + seq * 1000).toISOString();
    buf += JSON.stringify({ type: entry.type, id, parentId: parent, timestamp: ts, ...entry }) + "\n";
    parent = id;
    entries++;
    await flush(false);
    return id;
  };
  await add({ type: "model_change", provider: o.provider, modelId: o.model });
  const turns = Math.max(1, Math.floor(o.messages / 4));
  const compactAt = Math.max(1, turns - 150);
  for (let t = 0; t < turns; t++) {
    // Side branches: every ~1000 turns the next turn forks from 3 turns back (the abandoned tip
    // stays in the file, as after /tree).
    if (t > 0 && t % 1000 === 0 && turnEnds.length > 3) parent = turnEnds[turnEnds.length - 3];
    if (t === compactAt) {
      await add({
        type: "compaction",
        summary: `Summary of turns before ${t - 20}: ${filler.slice(0, 2000)}`,
        firstKeptEntryId: turnStarts[turnStarts.length - 20],
        tokensBefore: 180000,
      });
    }
    const ms = start + seq * 1000;
    turnStarts.push(
      await add({
        type: "message",
        message: {
          role: "user",
          content: [{ type: "text", text: `Turn ${t}: read file ${t}.ts` }],
          timestamp: ms,
        },
      }),
    );
    const callId = `toolu_${t.toString(36).padStart(8, "0")}`;
    await add({
      type: "message",
      message: {
        role: "assistant",
        content: [{ type: "toolCall", id: callId, name: "read", arguments: { path: `src/${t}.ts` } }],
        api: "anthropic-messages",
        provider: o.provider,
        model: o.model,
        usage: USAGE,
        stopReason: "toolUse",
        timestamp: ms + 1,
      },
    });
    await add({
      type: "message",
      message: {
        role: "toolResult",
        toolCallId: callId,
        toolName: "read",
        content: [{ type: "text", text: `${t}\n${filler}` }],
        isError: false,
        timestamp: ms + 2,
      },
    });
    turnEnds.push(
      await add({
        type: "message",
        message: {
          role: "assistant",
          content: [{ type: "text", text: `File ${t} defines x. ${"Details follow. ".repeat(12)}` }],
          api: "anthropic-messages",
          provider: o.provider,
          model: o.model,
          usage: USAGE,
          stopReason: "stop",
          timestamp: ms + 3,
        },
      }),
    );
    messages += 4;
  }
  await flush(true);
  f.close();
  return { bytes, entries, messages };
}
