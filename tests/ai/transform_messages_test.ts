import {
  MISSING_TOOL_RESULT_TEXT,
  TOOL_IMAGE_OMITTED,
  transformMessages,
  USER_IMAGE_OMITTED,
} from "../../src/ai/transform_messages.ts";
import { type AssistantMessage, emptyUsage, type Message, type Model } from "../../src/ai/types.ts";
import { assertEquals } from "../support/assert.ts";

const TARGET: Model = {
  id: "claude-x",
  name: "Claude X",
  api: "anthropic-messages",
  provider: "anthropic",
  baseUrl: "http://localhost",
  reasoning: true,
  input: ["text", "image"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 200000,
  maxTokens: 8192,
};
const TEXT_ONLY: Model = { ...TARGET, input: ["text"] };

function assistant(
  content: AssistantMessage["content"],
  from: Partial<AssistantMessage> = {},
): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-x",
    usage: emptyUsage(),
    stopReason: "stop",
    timestamp: 1,
    ...from,
  };
}
const OTHER = { api: "openai-responses", provider: "openai", model: "gpt-5" } as const;

Deno.test("CTX thinking from another model is dropped (1.3.0), signed, empty and redacted alike", () => {
  const msg = assistant([
    { type: "thinking", thinking: "step one", thinkingSignature: "sig" },
    { type: "thinking", thinking: "   " },
    { type: "thinking", thinking: "", thinkingSignature: "enc", redacted: true },
    { type: "text", text: "answer", textSignature: "msg_1" },
  ], OTHER);
  const [out] = transformMessages([msg], TARGET) as AssistantMessage[];
  assertEquals(out.content, [{ type: "text", text: "answer" }]);
});

Deno.test("CTX the same model keeps signatures, signed empty thinking and redacted thinking", () => {
  const content: AssistantMessage["content"] = [
    { type: "thinking", thinking: "", thinkingSignature: "encrypted" },
    { type: "thinking", thinking: "x", thinkingSignature: "opaque", redacted: true },
    { type: "thinking", thinking: "  " },
    { type: "text", text: "hi", textSignature: "msg_1" },
    { type: "toolCall", id: "call_1", name: "read", arguments: {}, thoughtSignature: "ts" },
  ];
  const [out] = transformMessages(
    [assistant(content), {
      role: "toolResult",
      toolCallId: "call_1",
      toolName: "read",
      content: [],
      isError: false,
      timestamp: 2,
    }],
    TARGET,
  ) as AssistantMessage[];
  assertEquals(out.content, [content[0], content[1], content[3], content[4]]);
});

Deno.test("CTX tool-call ids of other models are normalised and their results follow", () => {
  const msgs: Message[] = [
    assistant([{
      type: "toolCall",
      id: "fc_1|very/long",
      name: "bash",
      arguments: { cmd: "ls" },
      thoughtSignature: "t",
    }], OTHER),
    {
      role: "toolResult",
      toolCallId: "fc_1|very/long",
      toolName: "bash",
      content: [{ type: "text", text: "ok" }],
      isError: false,
      timestamp: 2,
    },
  ];
  const out = transformMessages(msgs, TARGET, (id) => id.replace(/[^a-zA-Z0-9_-]/g, "_"));
  assertEquals((out[0] as AssistantMessage).content, [{
    type: "toolCall",
    id: "fc_1_very_long",
    name: "bash",
    arguments: { cmd: "ls" },
  }]);
  assertEquals(out[1].role === "toolResult" && out[1].toolCallId, "fc_1_very_long");
  assertEquals(out.length, 2);
});

Deno.test("CTX orphaned tool calls get an error result before the next user message and at the end", () => {
  const msgs: Message[] = [
    assistant([{ type: "toolCall", id: "a", name: "read", arguments: {} }, {
      type: "toolCall",
      id: "b",
      name: "ls",
      arguments: {},
    }], { stopReason: "toolUse" }),
    {
      role: "toolResult",
      toolCallId: "a",
      toolName: "read",
      content: [{ type: "text", text: "x" }],
      isError: false,
      timestamp: 2,
    },
    { role: "user", content: "stop that", timestamp: 3 },
    assistant([{ type: "toolCall", id: "c", name: "write", arguments: {} }], { stopReason: "toolUse" }),
  ];
  const out = transformMessages(msgs, TARGET);
  const shape = out.map((m) => m.role === "toolResult" ? `result:${m.toolCallId}:${m.isError}` : m.role);
  assertEquals(shape, ["assistant", "result:a:false", "result:b:true", "user", "assistant", "result:c:true"]);
  const synthetic = out[2];
  assertEquals(synthetic.role === "toolResult" && [synthetic.toolName, synthetic.content], [
    "ls",
    [{ type: "text", text: MISSING_TOOL_RESULT_TEXT }],
  ]);
  assertEquals(MISSING_TOOL_RESULT_TEXT, "No result provided");
});

Deno.test("CTX errored and aborted assistant turns are left out", () => {
  const msgs: Message[] = [
    { role: "user", content: "hi", timestamp: 1 },
    assistant([{ type: "text", text: "partial" }], { stopReason: "error", errorMessage: "boom" }),
    assistant([{ type: "toolCall", id: "z", name: "bash", arguments: {} }], { stopReason: "aborted" }),
    { role: "user", content: "again", timestamp: 2 },
  ];
  assertEquals(transformMessages(msgs, TARGET).map((m) => m.role), ["user", "user"]);
});

Deno.test("CTX images sent to a text-only model become one note per run of images", () => {
  const img = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
  const msgs: Message[] = [
    {
      role: "user",
      content: [{ type: "text", text: "look" }, img, img, { type: "text", text: "and" }, img],
      timestamp: 1,
    },
    assistant([{ type: "toolCall", id: "s", name: "read", arguments: {} }]),
    { role: "toolResult", toolCallId: "s", toolName: "read", content: [img], isError: false, timestamp: 2 },
  ];
  const out = transformMessages(msgs, TEXT_ONLY);
  assertEquals(out[0].role === "user" && out[0].content, [
    { type: "text", text: "look" },
    { type: "text", text: "(image omitted: model does not support images)" },
    { type: "text", text: "and" },
    { type: "text", text: USER_IMAGE_OMITTED },
  ]);
  assertEquals(out[2].role === "toolResult" && out[2].content, [{ type: "text", text: TOOL_IMAGE_OMITTED }]);
  assertEquals(TOOL_IMAGE_OMITTED, "(tool image omitted: model does not support images)");
  // Vision models keep their images.
  assertEquals(transformMessages(msgs, TARGET)[0], msgs[0]);
});
