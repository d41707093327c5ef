/**
 * EXT-RES: what extensions add to the resources and see of the system prompt (pi 1.6.0's
 * `resources_discover`, `systemPromptOptions`, `ctx.getSystemPromptOptions()` and `ctx.reload()`),
 * run with our CLI and with 1.6.0 the same way against the fake provider. The fixture extension
 * (tests/fixtures/extensions/ours/resources/) logs each event it sees to resources-events.log.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { requireReference } from "../../scripts/reference/locate.ts";
import { fixture, MODEL, runExtensionCase, startRpc } from "./extensions_harness.ts";

const EXTENSION = fixture("ours/resources/index.ts");
const LOG = "resources-events.log";
const ANSWER = [{ content: [{ type: "text" as const, text: "Done." }] }];

/** The `<name>…</name>` section of a system prompt, if it has one. */
function section(prompt: string, name: string): string | undefined {
  return prompt.match(new RegExp(`<${name}>[\\s\\S]*?</${name}>`))?.[0];
}

/** 1.6.0's fields of `systemPromptOptions`, as its `normalizeBuildSystemPromptOptions` lists them. */
const OPTION_KEYS = [
  "appendSystemPrompt",
  "contextFiles",
  "customPrompt",
  "cwd",
  "forceSystemPrompt",
  "hiddenTools",
  "promptGuidelines",
  "sections",
  "selectedTools",
  "skills",
  "toolGuidelines",
  "toolSnippets",
].join(",");

Deno.test("EXT-RES-01 resources_discover: the extension's skill reaches the system prompt and its template expands in `pi -p /name`, as in 1.6.0", async () => {
  const c = {
    args: ["-p", "-ne", ...MODEL, "-e", EXTENSION, "/fixture-template the README"],
    turns: ANSWER,
    readFiles: [LOG],
  };
  const ours = await runExtensionCase(c);
  assertEquals(ours.code, 0, ours.stderr.join("\n"));
  assertEquals(ours.stdout, "Done.\n");
  assertEquals(ours.requests, [["user: Summarize the in one sentence."]]);
  const skills = section(ours.systemPrompts[0], "skills");
  assert(skills?.includes("<name>fixture-skill</name>"), `skills section: ${ours.systemPrompts[0]}`);
  assert(skills?.includes("A skill an extension added with resources_discover"));
  assertEquals(ours.files[LOG]?.split("\n").slice(0, 2), [
    "session_start startup",
    "resources_discover startup",
  ]);

  const ref = await runExtensionCase(c, true);
  assertEquals(ours.requests, ref.requests);
  assertEquals(skills, section(ref.systemPrompts[0], "skills"));
  assertEquals(ours.files[LOG], ref.files[LOG]);
});

Deno.test("EXT-RES-02 before_agent_start's systemPromptOptions: 1.6.0's fields, its tools and skills; an added section reaches the model", async () => {
  const c = { args: ["-p", "-ne", ...MODEL, "-e", EXTENSION, "hello"], turns: ANSWER, readFiles: [LOG] };
  const ours = await runExtensionCase(c);
  assertEquals(ours.code, 0, ours.stderr.join("\n"));
  assertEquals(ours.files[LOG]?.split("\n"), [
    "session_start startup",
    "resources_discover startup",
    `before_agent_start keys ${OPTION_KEYS}`,
    "before_agent_start tools read,bash,edit,write",
    "before_agent_start skills fixture-skill",
    "before_agent_start sees note true",
    "session_shutdown quit",
    "",
  ]);
  assertEquals(
    section(ours.systemPrompts[0], "fixture_note"),
    "<fixture_note>\nAnswer in one word.\n</fixture_note>",
  );
  // The transcript records the section the model was given (1.6.0 persists the structured prompt).
  const system = ours.session.find((e) => (e as { message?: { role?: string } }).message?.role === "system");
  assert(JSON.stringify(system).includes("fixture_note"), JSON.stringify(ours.session));

  const ref = await runExtensionCase(c, true);
  assertEquals(ours.files[LOG], ref.files[LOG]);
  assertEquals(
    section(ours.systemPrompts[0], "fixture_note"),
    section(ref.systemPrompts[0], "fixture_note"),
  );
});

Deno.test("EXT-RES-03 a command's ctx.getSystemPromptOptions() shows the base options, as in 1.6.0", async () => {
  const c = {
    args: ["-p", "-ne", ...MODEL, "-e", EXTENSION, "/prompt-options"],
    turns: [],
    readFiles: [LOG],
  };
  const ours = await runExtensionCase(c);
  assertEquals(ours.code, 0, ours.stderr.join("\n"));
  assertEquals(ours.requests, []);
  assertEquals(ours.files[LOG]?.split("\n"), [
    "session_start startup",
    "resources_discover startup",
    `command keys ${OPTION_KEYS}`,
    "command skills fixture-skill",
    "session_shutdown quit",
    "",
  ]);
  const ref = await runExtensionCase(c, true);
  assertEquals(ours.files[LOG], ref.files[LOG]);
});

/** Runs `/reload-now` over RPC and returns the event log and what the client saw after it. */
async function reloadOverRpc(reference: boolean): Promise<{ log: string; commands: string[] }> {
  const rpc = await startRpc(["-ne", ...MODEL, "-e", EXTENSION], ANSWER, reference);
  try {
    await rpc.send({ id: "r1", type: "prompt", message: "/reload-now" });
    await rpc.waitFor((r) => r.id === "r1" && r.type === "response", "the prompt's response");
    // The reloaded extension answers: its command is still there, and its template too.
    await rpc.send({ id: "c1", type: "get_commands" });
    const listed = await rpc.waitFor((r) => r.id === "c1" && r.type === "response", "get_commands");
    const commands = (listed.data as { commands: { name: string }[] }).commands.map((c) => c.name);
    const logPath = join(rpc.cwd, LOG);
    // The reload finishes after the command answered; its last line comes from the old handler.
    const deadline = Date.now() + 30_000;
    while (!(await Deno.readTextFile(logPath).catch(() => "")).includes("reload returned")) {
      if (Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const log = await Deno.readTextFile(logPath);
    return { log, commands: commands.filter((name) => name.includes("fixture") || name.includes("reload")) };
  } finally {
    await rpc.close();
  }
}

Deno.test("EXT-RES-04 ctx.reload() from a command in RPC mode: shutdown and start with reason reload, resources discovered again, as in 1.6.0", async () => {
  const ours = await reloadOverRpc(false);
  assertEquals(ours.log.split("\n"), [
    "session_start startup",
    "resources_discover startup",
    "reload requested",
    "session_shutdown reload",
    "session_start reload",
    "resources_discover reload",
    "reload returned",
    "",
  ]);
  assertEquals(ours.commands.sort(), ["fixture-template", "reload-now", "skill:fixture-skill"]);
  requireReference();
  const ref = await reloadOverRpc(true);
  assertEquals(ours.log, ref.log);
  assertEquals(ours.commands, ref.commands.sort());
});
