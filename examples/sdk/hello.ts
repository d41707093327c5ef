/**
 * One prompt through the SDK, printing the answer as it streams. Uses the model and credentials pi
 * would use (settings.json, auth.json, environment). Run from the repository:
 *
 *   deno run -A examples/sdk/hello.ts "What does main.ts do?"
 */
import { createAgentSession, SessionManager } from "../../mod.ts";

const prompt = Deno.args.join(" ") || "Say hello.";
const { session } = await createAgentSession({ cwd: Deno.cwd(), sessionManager: SessionManager.inMemory() });
const encoder = new TextEncoder();
session.subscribe((event) => {
  if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") {
    Deno.stdout.writeSync(encoder.encode(event.assistantMessageEvent.delta));
  }
});
await session.prompt(prompt);
Deno.stdout.writeSync(encoder.encode("\n"));
