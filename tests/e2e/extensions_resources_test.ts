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
import { startInteractiveScenario } from "../support/interactive_scenario.ts";

const EXTENSION = fixture("ours/resources/index.ts");
const LOG = "resources-events.log";
const TIMEOUT = 60_000;
/** The fixture's log of a run whose command called `ctx.reload()`, up to the old handler's last line. */
const RELOADED = [
  "session_start startup",
  "resources_discover startup",
  "reload requested",
  "session_shutdown reload",
  "session_start reload",
  "resources_discover reload",
  "reload returned",
];
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
  assertEquals(ours.log.split("\n"), [...RELOADED, ""]);
  assertEquals(ours.commands.sort(), ["fixture-template", "reload-now", "skill:fixture-skill"]);
  requireReference();
  const ref = await reloadOverRpc(true);
  assertEquals(ours.log, ref.log);
  assertEquals(ours.commands, ref.commands.sort());
});

/**
 * Starts the interactive mode with the fixture, runs `/theme-check` (the notice it shows), then
 * `/reload-now` (the status line after it, and the event log).
 */
async function interactiveRun(reference: boolean): Promise<{ notice: string; status: string; log: string }> {
  const s = await startInteractiveScenario([], { reference });
  const line = (screen: string, text: string) => screen.split("\n").find((l) => l.includes(text))!.trim();
  try {
    await s.pane.command(`clear; ${s.piCommand(["-ne", "-e", EXTENSION])}`);
    await s.pane.waitFor((t) => t.includes("ctrl+o more"), TIMEOUT, "the start-up screen");
    await s.pane.command("/theme-check");
    const checked = await s.pane.waitFor((t) => t.includes("fixture-theme offered"), TIMEOUT, "the notice");
    await s.pane.command("/reload-now");
    const reloaded = await s.pane.waitFor((t) => t.includes("Reloaded keybindings"), TIMEOUT, "the reload");
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUT, "the shell after exit");
    return {
      notice: line(checked, "fixture-theme offered"),
      status: line(reloaded, "Reloaded keybindings"),
      log: await Deno.readTextFile(join(s.agent.cwd, LOG)),
    };
  } finally {
    await s.close();
  }
}

Deno.test("EXT-RES-05 interactive mode: an added theme is offered and can be chosen, and a command's ctx.reload() runs /reload, as in 1.6.0", async () => {
  const ours = await interactiveRun(false);
  assertEquals(ours.notice, "fixture-theme offered: true, chosen: true");
  assertEquals(ours.status, "Reloaded keybindings, extensions, skills, prompts, themes, and context files");
  assertEquals(ours.log.split("\n"), [...RELOADED, "session_shutdown quit", ""]);
  assertEquals(ours, await interactiveRun(true));
});

Deno.test("EXT-RES-06 ctx.reload() from a command in print mode reloads the same way, as in 1.6.0", async () => {
  const c = { args: ["-p", "-ne", ...MODEL, "-e", EXTENSION, "/reload-now"], turns: [], readFiles: [LOG] };
  const ours = await runExtensionCase(c);
  assertEquals(ours.code, 0, ours.stderr.join("\n"));
  assertEquals(ours.files[LOG]?.split("\n"), [
    ...RELOADED,
    "session_shutdown quit",
    "",
  ]);
  const ref = await runExtensionCase(c, true);
  assertEquals(ours.files[LOG], ref.files[LOG]);
  assertEquals([ours.code, ours.stderr], [ref.code, ref.stderr]);
});

Deno.test("EXT-RES-07 1.6.0's dynamic-resources example finds its own files (import.meta.url is its source's): /dynamic expands, its skill is listed, as in 1.6.0", async () => {
  const example = join(
    requireReference().packageDir,
    "examples",
    "extensions",
    "dynamic-resources",
    "index.ts",
  );
  const c = { args: ["-p", "-ne", ...MODEL, "-e", example, "/dynamic"], turns: ANSWER };
  const ours = await runExtensionCase(c);
  assertEquals(ours.code, 0, ours.stderr.join("\n"));
  assertEquals(ours.requests, [[
    "user: Summarize the current repository structure and mention any build or test commands.",
  ]]);
  assert(section(ours.systemPrompts[0], "skills")?.includes("<name>dynamic-resources</name>"));
  const ref = await runExtensionCase(c, true);
  assertEquals(ours.requests, ref.requests);
  assertEquals(section(ours.systemPrompts[0], "skills"), section(ref.systemPrompts[0], "skills"));
});

/** The tool names the session's `system` messages declared, in order. */
function declaredTools(session: unknown[]): string[] {
  return session.flatMap((entry) => {
    const message = (entry as { message?: { role?: string; toolsAdded?: { name: string }[] } }).message;
    return message?.role === "system" ? (message.toolsAdded ?? []).map((tool) => tool.name) : [];
  });
}

Deno.test("EXT-RES-08 an edit of systemPromptOptions.selectedTools gives the run those tools and their prompt, as in 1.6.0", async () => {
  const c = {
    args: ["-p", "-ne", ...MODEL, "-e", fixture("ours/resources/tools-edit.ts"), "hello"],
    turns: ANSWER,
  };
  const ours = await runExtensionCase(c);
  assertEquals(ours.code, 0, ours.stderr.join("\n"));
  assertEquals(declaredTools(ours.session), ["read", "bash"]);
  const tools = section(ours.systemPrompts[0], "tools");
  assert(tools?.includes("- bash:") && !tools.includes("- edit:"), ours.systemPrompts[0]);
  const ref = await runExtensionCase(c, true);
  assertEquals(declaredTools(ours.session), declaredTools(ref.session));
  assertEquals(tools, section(ref.systemPrompts[0], "tools"));
  assertEquals(section(ours.systemPrompts[0], "rules"), section(ref.systemPrompts[0], "rules"));
});
