/**
 * `user_bash` (issue 16): extensions see the user's own commands (RPC `bash`, `!cmd` / `!!cmd`)
 * first and may answer them (`result`, nothing runs), lend their backend (`operations`) or leave
 * them to the local shell; a handler that throws or returns something invalid blocks the command
 * with its message (fails closed, as 1.6.0). The real CLI in RPC mode against the fake provider,
 * compared record for record with 1.6.0 driven the same way.
 */
import { assertEquals } from "../support/assert.ts";
import { useReferenceFixtures } from "../support/spawn_pi.ts";
import { comparableRpc, fixture, MODEL, type RpcSession, startRpc } from "../e2e/extensions_harness.ts";

const isResponse = (id: string) => (r: Record<string, unknown>) => r.type === "response" && r.id === id;

/** The commands sent, in order: [id, command, excludeFromContext]. */
const COMMANDS: [string, string, boolean][] = [
  ["b1", "remote ls -la", false],
  ["b2", "wrapped echo hi", false],
  ["b3", "explode", false],
  ["b4", "invalid", false],
  ["b5", "second", true],
  ["b6", "echo local", false],
];

async function drive(rpc: RpcSession): Promise<void> {
  for (const [id, command, excludeFromContext] of COMMANDS) {
    await rpc.send({ id, type: "bash", command, ...(excludeFromContext ? { excludeFromContext } : {}) });
    await rpc.waitFor(isResponse(id), `the answer to ${command}`);
  }
  await rpc.send({ id: "p1", type: "prompt", message: "what ran?" });
  await rpc.waitFor((r) => r.type === "agent_settled", "the prompt's run to settle");
}

async function run(reference: boolean): Promise<{ records: unknown[]; requests: string[][] }> {
  const rpc = await startRpc(
    ["--no-session", "-e", fixture("ours/user-bash.ts"), ...MODEL],
    [{ content: [{ type: "text", text: "Noted." }] }],
    reference,
  );
  try {
    await drive(rpc);
  } finally {
    await rpc.close();
  }
  return { records: comparableRpc(rpc.records, rpc.root), requests: rpc.requests() };
}

Deno.test("EXT-EVT-02 user_bash over RPC bash: handled, rerouted, blocked by a throwing or invalid handler, passed on, as 1.6.0", async () => {
  assertEquals(useReferenceFixtures(), false, "this test compares with the live reference 1.6.0");
  const ours = await run(false);
  const responses = (ours.records as Record<string, unknown>[]).filter((r) =>
    r.type === "response" && r.command === "bash"
  );
  assertEquals(responses, [
    {
      type: "response",
      id: "b1",
      command: "bash",
      success: true,
      data: { output: "handled ls -la (excluded: false)\n", exitCode: 0, cancelled: false, truncated: false },
    },
    {
      type: "response",
      id: "b2",
      command: "bash",
      success: true,
      data: { output: "backend ran: wrapped echo hi\n", exitCode: 3, cancelled: false, truncated: false },
    },
    { type: "response", id: "b3", command: "bash", success: false, error: "user_bash handler exploded" },
    {
      type: "response",
      id: "b4",
      command: "bash",
      success: false,
      error:
        "Invalid user_bash handler result: return undefined for local execution or exactly one valid { operations } or { result } object",
    },
    {
      type: "response",
      id: "b5",
      command: "bash",
      success: true,
      data: { output: "second handler\n", exitCode: 0, cancelled: false, truncated: false },
    },
    {
      type: "response",
      id: "b6",
      command: "bash",
      success: true,
      data: { output: "local\n", exitCode: 0, cancelled: false, truncated: false },
    },
  ]);
  const errors = (ours.records as Record<string, unknown>[]).filter((r) => r.type === "extension_error");
  assertEquals(errors.map((e) => [e.event, e.error]), [
    ["user_bash", "user_bash handler exploded"],
    [
      "user_bash",
      "Invalid user_bash handler result: return undefined for local execution or exactly one valid { operations } or { result } object",
    ],
  ]);
  // Blocked commands are not recorded; the `!!`-style one stays out of the model's context.
  assertEquals(ours.requests, [[
    "user: Ran `remote ls -la`\n```\nhandled ls -la (excluded: false)\n\n```",
    "user: Ran `wrapped echo hi`\n```\nbackend ran: wrapped echo hi\n\n```\n\nCommand exited with code 3",
    "user: Ran `echo local`\n```\nlocal\n\n```",
    "user: what ran?",
  ]]);
  const ref = await run(true);
  assertEquals(ours.requests, ref.requests);
  assertEquals(ours.records, ref.records);
});
