/**
 * 10,000 random and malformed lines into one RPC process: bad JSON, wrong types, huge strings,
 * unknown commands, binary bytes, CRLF endings (about 50 lines carry strings of up to 1 MB). Every line gets exactly one response, the process
 * keeps serving, and the final get_state reflects exactly the valid setters that were sent.
 * IDs: RPC-01, RPC-03, RPC-04, RPC-05, RPC-06.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { startRpc } from "../modes/rpc/support.ts";

const LINES = 10_000;

/** A small deterministic PRNG (mulberry32), so a failure can be replayed. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COMMANDS = [
  "prompt",
  "steer",
  "follow_up",
  "new_session",
  "set_model",
  "set_thinking_level",
  "set_steering_mode",
  "set_follow_up_mode",
  "compact",
  "set_auto_compaction",
  "set_auto_retry",
  "bash",
  "export_html",
  "switch_session",
  "fork",
  "set_session_name",
];
const FIELDS = [
  "message",
  "images",
  "level",
  "mode",
  "enabled",
  "command",
  "sessionPath",
  "entryId",
  "name",
  "provider",
];
const READS = ["get_state", "get_messages", "get_session_stats", "get_commands", "get_fork_messages"];

Deno.test("RPC-01 RPC-03…RPC-06 fuzz: 10,000 random and malformed lines, one response each, process survives", async () => {
  const f = await startRpc();
  const c = f.client;
  const random = prng(20260812);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  // Never a string or a boolean, so no field of any command can accidentally be valid.
  const wrongValue = (): unknown => pick([42, -1.5, null, [1, "x"], {}, { type: "image" }, [{ data: 1 }]]);
  let steeringMode = "one-at-a-time";
  let followUpMode = "one-at-a-time";

  const line = (): string | Uint8Array => {
    const kind = random();
    if (kind < 0.15) {
      // Bad JSON.
      return pick(["{", "}", "{type:prompt}", '{"type":"prompt"', "nul", "'x'", "", "   ", "\t", '{"a":1}}']);
    }
    if (kind < 0.25) {
      // Binary bytes, without the record separator.
      const bytes = new Uint8Array(1 + Math.floor(random() * 64));
      for (let i = 0; i < bytes.length; i++) {
        let b = Math.floor(random() * 256);
        if (b === 0x0a) b = 0x00;
        bytes[i] = b;
      }
      return bytes;
    }
    if (kind < 0.35) return JSON.stringify(pick([wrongValue(), "text", true, []]));
    if (kind < 0.45) return JSON.stringify({ type: `nope_${Math.floor(random() * 1000)}`, id: "u" });
    if (kind < 0.455) {
      // Huge strings (up to 1 MB) in fields of the wrong type or of unknown commands.
      const huge = "\u2028".repeat(10) + "z".repeat(Math.floor(random() * 1_000_000));
      return JSON.stringify(
        pick([{ type: "bash", command: 5, pad: huge }, { type: huge }, { type: "fork", entryId: [huge] }]),
      );
    }
    if (kind < 0.80) {
      // A known command with a wrong or missing field.
      const type = pick(COMMANDS);
      const command: Record<string, unknown> = { type, id: pick([undefined, "i", 7, null]) };
      if (command.id === undefined) delete command.id;
      if (random() < 0.9) { for (const field of FIELDS) if (random() < 0.5) command[field] = wrongValue(); }
      if (type === "set_session_name" && typeof command.name === "string") command.name = 9;
      if ((type === "new_session" || type === "compact" || type === "export_html") && command.id !== 7) {
        // Their fields are all optional: force a wrong type so the command fails validation.
        command[
          type === "new_session" ? "parentSession" : type === "compact" ? "customInstructions" : "outputPath"
        ] = 42;
      }
      return JSON.stringify(command);
    }
    if (kind < 0.90) {
      const type = pick(["set_steering_mode", "set_follow_up_mode"]);
      const mode = pick(["all", "one-at-a-time"]);
      if (type === "set_steering_mode") steeringMode = mode;
      else followUpMode = mode;
      return JSON.stringify({ type, mode, id: "s" });
    }
    return JSON.stringify({ type: pick(READS), id: "r" });
  };

  try {
    let responses = 0;
    c.onEvent((e) => {
      if (e.type === "response") responses++;
    });
    const encoder = new TextEncoder();
    let batch: Uint8Array[] = [];
    const flush = async () => {
      const size = batch.reduce((n, b) => n + b.length, 0);
      const out = new Uint8Array(size);
      let offset = 0;
      for (const b of batch) {
        out.set(b, offset);
        offset += b.length;
      }
      batch = [];
      await c.writeLine(out);
    };
    for (let i = 0; i < LINES; i++) {
      const l = line();
      batch.push(typeof l === "string" ? encoder.encode(l) : l);
      batch.push(encoder.encode(random() < 0.1 ? "\r\n" : "\n"));
      if (batch.length >= 200) await flush();
    }
    await flush();
    const state = await c.getState();
    assertEquals(responses, LINES);
    assertEquals(
      [
        state.steeringMode,
        state.followUpMode,
        state.messageCount,
        state.isStreaming,
        state.pendingMessageCount,
      ],
      [steeringMode, followUpMode, 0, false, 0],
    );
    assert(!("sessionName" in state), "no valid set_session_name was sent");
    assertEquals(f.server.requests.length, 0);
  } finally {
    await f.close();
  }
});
