/**
 * Extensions end to end (issue 16, first slice): the real CLI loads pi 1.6.0's example extensions
 * (tests/fixtures/extensions/) with `-e`, runs the same scripted conversation as 1.6.0 itself, and
 * must show the same JSON records, session lines, tool results and requests. Then the isolation
 * cases: a handler that throws everywhere, a syntax error, a factory that never resolves.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { useReferenceFixtures } from "../support/spawn_pi.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import {
  comparableRpc,
  type ExtensionCase,
  type ExtensionRun,
  fixture,
  MODEL,
  type RpcSession,
  runExtensionCase,
  startRpc,
} from "./extensions_harness.ts";

/** Runs the case with ours and with 1.6.0 (the reference must be installed: no silent skip). */
async function both(c: ExtensionCase): Promise<[ExtensionRun, ExtensionRun]> {
  assertEquals(useReferenceFixtures(), false, "these tests compare with the live reference 1.6.0");
  const ours = await runExtensionCase(c);
  const ref = await runExtensionCase(c, true);
  return [ours, ref];
}

function toolResults(run: ExtensionRun): unknown[] {
  return run.json.flatMap((r) => {
    const record = r as { type: string; message?: { role: string; content: unknown; isError?: boolean } };
    return record.type === "message_end" && record.message?.role === "toolResult"
      ? [{ content: record.message.content, isError: record.message.isError }]
      : [];
  });
}

Deno.test("EXT-01 hello.ts: the registered tool runs and its result is what 1.6.0 records (JSON mode)", async () => {
  const c: ExtensionCase = {
    args: ["--mode", "json", ...MODEL, "-e", fixture("hello.ts"), "greet the world"],
    turns: [
      { content: [{ type: "toolCall", id: "call_1", name: "hello", arguments: { name: "World" } }] },
      { content: [{ type: "text", text: "Greeted." }] },
    ],
  };
  const [ours, ref] = await both(c);
  assertEquals(ours.code, 0, ours.stderr.join("\n"));
  assertEquals(toolResults(ours), [{ content: [{ type: "text", text: "Hello, World!" }], isError: false }]);
  assertEquals(ours.json, ref.json);
  assertEquals(ours.session, ref.session);
  assertEquals(ours.stderr, ref.stderr);
});

Deno.test("EXT-02 permission-gate.ts blocks a dangerous bash call without a UI, as 1.6.0 does", async () => {
  const c: ExtensionCase = {
    args: ["--mode", "json", ...MODEL, "-e", fixture("permission-gate.ts"), "clean up"],
    turns: [
      { content: [{ type: "toolCall", id: "call_1", name: "bash", arguments: { command: "rm -rf build" } }] },
      { content: [{ type: "toolCall", id: "call_2", name: "bash", arguments: { command: "echo safe" } }] },
      { content: [{ type: "text", text: "Done." }] },
    ],
    projectFiles: { "build/keep.txt": "keep" },
    readFiles: ["build/keep.txt"],
  };
  const [ours, ref] = await both(c);
  assertEquals(toolResults(ours), [
    {
      content: [{ type: "text", text: "Dangerous command blocked (no UI for confirmation)" }],
      isError: true,
    },
    { content: [{ type: "text", text: "safe\n" }], isError: false },
  ]);
  assertEquals(ours.files["build/keep.txt"], "keep");
  assertEquals(ours.json, ref.json);
  assertEquals(ours.session, ref.session);
});

Deno.test("EXT-03 protected-paths.ts blocks a write to .env and lets others through", async () => {
  const c: ExtensionCase = {
    args: ["--mode", "json", ...MODEL, "-e", fixture("protected-paths.ts"), "write files"],
    turns: [
      {
        content: [{ type: "toolCall", id: "c1", name: "write", arguments: { path: ".env", content: "X=1" } }],
      },
      {
        content: [{
          type: "toolCall",
          id: "c2",
          name: "write",
          arguments: { path: "ok.txt", content: "ok" },
        }],
      },
      { content: [{ type: "text", text: "Done." }] },
    ],
    readFiles: [".env", "ok.txt"],
  };
  const [ours, ref] = await both(c);
  assertEquals(ours.files, { ".env": undefined, "ok.txt": "ok" });
  assertEquals(toolResults(ours)[0], {
    content: [{ type: "text", text: 'Path ".env" is protected' }],
    isError: true,
  });
  assertEquals(ours.json, ref.json);
  assertEquals(ours.files, ref.files);
});

Deno.test("EXT-04 input-transform.ts: ?quick is rewritten before the model sees it, ping never reaches it", async () => {
  const c: ExtensionCase = {
    args: ["-p", ...MODEL, "-e", fixture("input-transform.ts"), "?quick What is TypeScript?", "ping"],
    turns: [{ content: [{ type: "text", text: "A typed JavaScript." }] }],
  };
  const [ours, ref] = await both(c);
  assertEquals([ours.code, ours.stdout], [0, "A typed JavaScript.\n"], ours.stderr.join("\n"));
  assertEquals(ours.requests, [["user: Respond briefly in 1-2 sentences: What is TypeScript?"]]);
  assertEquals([ours.code, ours.stdout, ours.requests], [ref.code, ref.stdout, ref.requests]);
  assertEquals(ours.session, ref.session);
});

Deno.test("EXT-05 dynamic-tools.ts: a tool registered in session_start is offered and runs", async () => {
  const c: ExtensionCase = {
    args: ["--mode", "json", ...MODEL, "-e", fixture("dynamic-tools.ts"), "echo hi"],
    turns: [
      { content: [{ type: "toolCall", id: "c1", name: "echo_session", arguments: { message: "hi" } }] },
      { content: [{ type: "text", text: "Echoed." }] },
    ],
  };
  const [ours, ref] = await both(c);
  assertEquals(toolResults(ours), [{ content: [{ type: "text", text: "[session] hi" }], isError: false }]);
  assertEquals(ours.json, ref.json);
  assertEquals(ours.session, ref.session);
});

Deno.test("EXT-06 tool-override.ts replaces read: allowed reads are logged, .env is blocked", async () => {
  const c: ExtensionCase = {
    args: ["--mode", "json", ...MODEL, "-e", fixture("tool-override.ts"), "read things"],
    turns: [
      { content: [{ type: "toolCall", id: "c1", name: "read", arguments: { path: "notes.txt" } }] },
      { content: [{ type: "toolCall", id: "c2", name: "read", arguments: { path: ".env" } }] },
      { content: [{ type: "text", text: "Read." }] },
    ],
    projectFiles: { "notes.txt": "alpha\nbeta\n", ".env": "SECRET=1\n" },
    readFiles: ["agent:read-access.log"],
  };
  const [ours, ref] = await both(c);
  const results = toolResults(ours) as { content: { text: string }[]; isError: boolean }[];
  assert(results[0].content[0].text.includes("alpha"), JSON.stringify(results));
  assertEquals(results[1].isError, false);
  assert(results[1].content[0].text.includes("blocked"), JSON.stringify(results));
  const log = (ours.files["agent:read-access.log"] ?? "").replace(/^\[[^\]]+\]/gm, "[TIME]");
  assertEquals(log.split("\n").filter((l) => l).length, 2, log);
  assertEquals(log, (ref.files["agent:read-access.log"] ?? "").replace(/^\[[^\]]+\]/gm, "[TIME]"));
  assertEquals(ours.json, ref.json);
});

Deno.test("EXT-07 truncated-tool.ts: the rg tool searches the project with ripgrep", async () => {
  const c: ExtensionCase = {
    args: ["--mode", "json", ...MODEL, "-e", fixture("truncated-tool.ts"), "search"],
    turns: [
      { content: [{ type: "toolCall", id: "c1", name: "rg", arguments: { pattern: "needle" } }] },
      { content: [{ type: "text", text: "Found." }] },
    ],
    projectFiles: { "a.txt": "hay\nneedle here\n" },
  };
  const [ours, ref] = await both(c);
  assertEquals(toolResults(ours), [{
    content: [{ type: "text", text: "./a.txt:2:needle here\n" }],
    isError: false,
  }]);
  assertEquals(ours.json, ref.json);
});

Deno.test("EXT-08 isolation: handlers that throw or reject are reported once each, as 1.6.0 does, and the session answers", async () => {
  const c: ExtensionCase = {
    args: [
      "--mode",
      "json",
      ...MODEL,
      "-e",
      fixture("ours/throws-everywhere.ts"),
      "-e",
      fixture("hello.ts"),
      "hi",
    ],
    turns: [
      { content: [{ type: "toolCall", id: "c1", name: "hello", arguments: { name: "A" } }] },
      { content: [{ type: "text", text: "Still here." }] },
    ],
  };
  const [ours, ref] = await both(c);
  assertEquals(ours.code, 0);
  const prefix = "Extension error ($PI_PACKAGE/tests/fixtures/extensions/ours/throws-everywhere.ts): ";
  // One line per handler call, in the order the events happened: a start, a tool round, an end.
  assertEquals(ours.stderr.filter((l) => !l.startsWith(prefix)), []);
  assertEquals(ours.stderr.slice(0, 4).map((l) => l.slice(prefix.length)), [
    "boom in session_start",
    "boom in input",
    "boom in before_agent_start",
    "boom in agent_start",
  ]);
  assert(ours.stderr.includes(`${prefix}rejected in tool_execution_end`), ours.stderr.join("\n"));
  assertEquals(ours.stderr.at(-1), `${prefix}boom in agent_end`);
  assertEquals(toolResults(ours), [{ content: [{ type: "text", text: "Hello, A!" }], isError: false }]);
  assertEquals(ours.stderr, ref.stderr);
  assertEquals(ours.json, ref.json);
});

Deno.test("EXT-09 a syntax error and a factory that never settles: one error each naming the file, the session still answers", async () => {
  const c: ExtensionCase = {
    args: [
      "-p",
      ...MODEL,
      "-e",
      fixture("ours/syntax-error.ts"),
      "-e",
      fixture("ours/never-resolves.ts"),
      "-e",
      fixture("input-transform.ts"),
      "?quick hi",
    ],
    turns: [{ content: [{ type: "text", text: "Answered." }] }],
    env: { PI_EXTENSION_LOAD_TIMEOUT_MS: "1000" },
  };
  const ours = await runExtensionCase(c);
  assertEquals([ours.code, ours.stdout], [0, "Answered.\n"], ours.stderr.join("\n"));
  // The other extensions still work: input-transform rewrote the prompt.
  assertEquals(ours.requests, [["user: Respond briefly in 1-2 sentences: hi"]]);
  const syntax = ours.stderr.filter((l) => l.includes("syntax-error.ts"));
  const hang = ours.stderr.filter((l) => l.includes("never-resolves.ts"));
  assertEquals(syntax.length, 1, ours.stderr.join("\n"));
  assert(
    syntax[0].startsWith(
      `Error: Failed to load extension "$PI_PACKAGE/tests/fixtures/extensions/ours/syntax-error.ts": Failed to load extension: `,
    ),
  );
  assertEquals(
    syntax[0].slice(syntax[0].indexOf("ParseError")),
    `ParseError: Unexpected token, expected "," at $PI_PACKAGE/tests/fixtures/extensions/ours/syntax-error.ts:5:1`,
  );
  assertEquals(hang, [
    `Error: Failed to load extension "$PI_PACKAGE/tests/fixtures/extensions/ours/never-resolves.ts": Failed to load extension: Extension factory did not finish within 1000 ms`,
  ]);
  assertEquals(ours.stderr.length, 2, ours.stderr.join("\n"));
});

Deno.test("EXT-10 -e of a missing file: 1.6.0's error text, and the run goes on", async () => {
  const c: ExtensionCase = {
    args: ["-p", ...MODEL, "-e", "./missing.ts", "hi"],
    turns: [{ content: [{ type: "text", text: "Answered." }] }],
  };
  const [ours, ref] = await both(c);
  assertEquals([ours.code, ours.stdout], [0, "Answered.\n"]);
  // 1.6.0 says the same and stops (exit 1, with a hint); see docs/differences.md.
  assertEquals(ours.stderr[0], ref.stderr[0]);
  assertEquals(ref.code, 1);
});

Deno.test("EXT-11 registered flags: listed by --help as 1.6.0 lists them, values from the command line reach the extension", async () => {
  const help: ExtensionCase = { args: ["--help", "-e", fixture("ours/flags.ts")], turns: [] };
  const [oursHelp, refHelp] = await both(help);
  const section = (text: string) => text.slice(text.indexOf("Extension CLI Flags:"));
  assert(oursHelp.stdout.includes("Extension CLI Flags:"), oursHelp.stdout);
  assertEquals(
    section(oursHelp.stdout).split("\n").slice(0, 3),
    section(refHelp.stdout).split("\n").slice(0, 3),
  );

  const run: ExtensionCase = {
    args: ["-p", ...MODEL, "-e", fixture("ours/flags.ts"), "--shout", "--persona=robot", "hi"],
    turns: [{ content: [{ type: "text", text: "OK." }] }],
  };
  const [ours, ref] = await both(run);
  assertEquals([ours.code, ours.stdout], [0, "OK.\n"], ours.stderr.join("\n"));
  assertEquals(ours.requests, [["user: hi", "user: shout=true persona=robot"]]);
  assertEquals(ours.requests, ref.requests);
  // before_agent_start's systemPrompt is what the model is told for that run.
  assert(ours.systemPrompts[0].endsWith("\nPersona: robot"), ours.systemPrompts[0].slice(-200));
  assertEquals(ours.systemPrompts, ref.systemPrompts);
  const unknown = await runExtensionCase({
    args: ["-p", ...MODEL, "-e", fixture("ours/flags.ts"), "--nope", "hi"],
    turns: [],
  });
  assertEquals([unknown.code, unknown.stderr], [1, ["Error: Unknown option: --nope"]]);
});

/** Drives an RPC session with `script` on ours and on 1.6.0; the records each client saw, comparable. */
async function rpcBoth(
  args: string[],
  turns: ScriptedTurn[],
  script: (rpc: RpcSession) => Promise<void>,
): Promise<[unknown[], unknown[]]> {
  assertEquals(useReferenceFixtures(), false, "these tests compare with the live reference 1.6.0");
  const out: unknown[][] = [];
  for (const reference of [false, true]) {
    const rpc = await startRpc(args, turns, reference);
    try {
      await script(rpc);
    } finally {
      const { stderr } = await rpc.close();
      out.push([...comparableRpc(rpc.records, rpc.root), { stderr: stderr.split("\n").filter((l) => l) }]);
    }
  }
  return [out[0], out[1]];
}

const isResponse = (id: string) => (r: Record<string, unknown>) => r.type === "response" && r.id === id;

Deno.test("EXT-12 event-bus.ts over RPC: session_start and /emit notify through extension_ui_request, as 1.6.0", async () => {
  const [ours, ref] = await rpcBoth(["-ne", "-e", fixture("event-bus.ts"), ...MODEL], [], async (rpc) => {
    await rpc.waitFor((r) => r.method === "notify", "the session_start notification");
    await rpc.send({ id: "1", type: "prompt", message: "/emit hello there" });
    await rpc.waitFor(
      (r) => r.method === "notify" && String(r.message).includes("hello there"),
      "the /emit notification",
    );
    await rpc.waitFor(isResponse("1"), "the prompt's answer");
  });
  assertEquals(ours.filter((r) => (r as { method?: string }).method === "notify"), [
    {
      type: "extension_ui_request",
      id: "$UI",
      method: "notify",
      message: "Event from event-bus-example: Session started",
      notifyType: "info",
    },
    {
      type: "extension_ui_request",
      id: "$UI",
      method: "notify",
      message: "Event from /emit command: hello there",
      notifyType: "info",
    },
  ]);
  assertEquals(ours, ref);
});

Deno.test("EXT-13 commands.ts over RPC: get_commands lists it; /commands asks the client to select; a cancelled dialog ends the command", async () => {
  const [ours, ref] = await rpcBoth(["-ne", "-e", fixture("commands.ts"), ...MODEL], [], async (rpc) => {
    await rpc.send({ id: "0", type: "get_commands" });
    await rpc.waitFor(isResponse("0"), "the command list");
    await rpc.send({ id: "1", type: "prompt", message: "/commands extension" });
    const select = await rpc.waitFor((r) => r.method === "select", "the select dialog");
    await rpc.send({ type: "extension_ui_response", id: select.id, cancelled: true });
    await rpc.waitFor(isResponse("1"), "the prompt's answer");
  });
  const select = ours.find((r) => (r as { method?: string }).method === "select");
  assertEquals(select, {
    type: "extension_ui_request",
    id: "$UI",
    method: "select",
    title: "Available Commands",
    options: ["--- Extensions ---", "/commands - List available slash commands"],
  });
  assertEquals(ours, ref);
});

Deno.test("EXT-14 send-user-message.ts over RPC: /ask sends a user message that runs a turn", async () => {
  const turns = [{ content: [{ type: "text" as const, text: "Answer to the question." }] }];
  const [ours, ref] = await rpcBoth(
    ["-ne", "-e", fixture("send-user-message.ts"), ...MODEL],
    turns,
    async (rpc) => {
      await rpc.send({ id: "1", type: "prompt", message: "/ask what is 2+2?" });
      await rpc.waitFor((r) => r.type === "agent_settled", "the run's end");
      await rpc.send({ id: "2", type: "prompt", message: "/ask" });
      await rpc.waitFor((r) => r.method === "notify", "the usage notification");
    },
  );
  const messages = ours.flatMap((r) => {
    const rec = r as { type: string; message?: { role: string; content: unknown } };
    return rec.type === "message_end" && rec.message?.role !== "system"
      ? [[rec.message!.role, JSON.stringify(rec.message!.content)]]
      : [];
  });
  assertEquals(messages, [
    ["user", JSON.stringify([{ type: "text", text: "what is 2+2?" }])],
    ["assistant", JSON.stringify([{ type: "text", text: "Answer to the question." }])],
  ]);
  assertEquals(ours, ref);
});

/** An extension that announces itself in every request (a `before_agent_start` message). */
function announcer(name: string): string {
  return `export default function (pi) {
  pi.on("before_agent_start", () => ({ message: { customType: "loaded", content: "loaded ${name}", display: false } }));
}
`;
}

Deno.test("EXT-15 discovery: agent-dir extensions, settings entries and folders load; project ones only when trusted", async () => {
  const base: ExtensionCase = {
    args: ["-p", ...MODEL, "hi"],
    turns: [{ content: [{ type: "text", text: "OK." }] }],
    agentFiles: {
      "extensions/global.ts": announcer("global file"),
      "extensions/pkg/package.json": JSON.stringify({ pi: { extensions: ["./src/main.ts"] } }),
      "extensions/pkg/src/main.ts": announcer("package entry"),
      "extensions/indexed/index.ts": announcer("folder index"),
      "extensions/notes.md": "not an extension",
      "elsewhere/by-settings.ts": announcer("settings entry"),
    },
    settings: { extensions: ["elsewhere/by-settings.ts"] },
    projectFiles: {
      ".pi/extensions/local.ts": announcer("project file"),
      ".pi/settings.json": JSON.stringify({ extensions: ["../by-project-settings.ts"] }),
      "by-project-settings.ts": announcer("project settings entry"),
      "cli.ts": announcer("-e file"),
    },
  };
  const loaded = (run: ExtensionRun) => run.requests[0].filter((t) => t.startsWith("user: loaded"));
  const [untrusted, refUntrusted] = await both(base);
  assertEquals([untrusted.code, untrusted.stdout], [0, "OK.\n"], untrusted.stderr.join("\n"));
  // 1.6.0's order: settings entries, then the folder (files and folders by name).
  assertEquals(loaded(untrusted), [
    "user: loaded settings entry",
    "user: loaded global file",
    "user: loaded folder index",
    "user: loaded package entry",
  ]);
  assertEquals(untrusted.requests, refUntrusted.requests);

  const trusted = { ...base, args: ["-a", "-e", "cli.ts", ...base.args] };
  const [ours, ref] = await both(trusted);
  assertEquals(loaded(ours), [
    "user: loaded -e file",
    "user: loaded project settings entry",
    "user: loaded project file",
    ...loaded(untrusted),
  ]);
  assertEquals(ours.requests, ref.requests);

  // --no-extensions keeps only -e.
  const none = await runExtensionCase({ ...trusted, args: ["-ne", ...trusted.args] });
  assertEquals(loaded(none), ["user: loaded -e file"]);
});

Deno.test("EXT-16 auto-commit-on-exit.ts: session_shutdown handlers run as the run ends (pi.exec, ctx.sessionManager)", async () => {
  const git = (cwd: string, ...args: string[]) =>
    new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" }).output();
  const c: ExtensionCase = {
    args: ["-p", ...MODEL, "-e", fixture("auto-commit-on-exit.ts"), "write it"],
    turns: [
      {
        content: [{ type: "toolCall", id: "c1", name: "write", arguments: { path: "a.txt", content: "A" } }],
      },
      { content: [{ type: "text", text: "Wrote a.txt for you.\nSecond line." }] },
    ],
    setup: async (cwd) => {
      await git(cwd, "init", "-q");
      await git(
        cwd,
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@t",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "start",
      );
    },
    inspect: async (cwd) => {
      const log = await git(cwd, "log", "--format=%s", "--name-only", "-1");
      return new TextDecoder().decode(log.stdout);
    },
    env: {
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    },
  };
  const [ours, ref] = await both(c);
  assertEquals([ours.code, ours.stdout], [0, "Wrote a.txt for you.\nSecond line.\n"], ours.stderr.join("\n"));
  assertEquals(ours.inspected, "[pi] Wrote a.txt for you.\n\na.txt\n");
  assertEquals(ours.inspected, ref.inspected);
});

Deno.test("EXT-17 RPC: a throwing handler is an extension_error record, as 1.6.0 writes it", async () => {
  const turns = [{ content: [{ type: "text" as const, text: "Fine." }] }];
  const [ours, ref] = await rpcBoth(
    ["-ne", "-e", fixture("ours/throws-everywhere.ts"), ...MODEL],
    turns,
    async (rpc) => {
      await rpc.send({ id: "1", type: "prompt", message: "hi" });
      await rpc.waitFor((r) => r.type === "agent_settled", "the run's end");
    },
  );
  const errors = ours.filter((r) => (r as { type: string }).type === "extension_error");
  assertEquals(errors[0], {
    type: "extension_error",
    extensionPath: "$PI_PACKAGE/tests/fixtures/extensions/ours/throws-everywhere.ts",
    event: "session_start",
    error: "boom in session_start",
  });
  assertEquals(ours, ref);
});

Deno.test("EXT-18 tool_call edits the input in place (the tool runs the edited call); tool_result replaces the result", async () => {
  const c: ExtensionCase = {
    args: ["--mode", "json", ...MODEL, "-e", fixture("ours/rewrite-bash.ts"), "run it"],
    turns: [
      { content: [{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "echo original" } }] },
      { content: [{ type: "text", text: "Ran." }] },
    ],
  };
  const [ours, ref] = await both(c);
  assertEquals(toolResults(ours), [{
    content: [{ type: "text", text: "[checked] rewritten: echo original\n" }],
    isError: false,
  }]);
  assertEquals(ours.json, ref.json);
  assertEquals(ours.session, ref.session);
});

Deno.test("EXT-19 context rewrites what the model is sent (the session keeps everything), as in 1.6.0", async () => {
  const c: ExtensionCase = {
    args: ["-p", ...MODEL, "-e", fixture("ours/context-window.ts"), "first question", "second question"],
    turns: [{ content: [{ type: "text", text: "First answer." }] }, {
      content: [{ type: "text", text: "Second." }],
    }],
  };
  const [ours, ref] = await both(c);
  assertEquals([ours.code, ours.stdout], [0, "Second.\n"], ours.stderr.join("\n"));
  assertEquals(ours.requests, [
    ["user: (0 earlier messages hidden)", "user: first question"],
    ["user: (2 earlier messages hidden)", "user: second question"],
  ]);
  assertEquals(ours.requests, ref.requests);
  assertEquals(ours.session, ref.session);
});

Deno.test("EXT-20 pi.sendMessage, pi.appendEntry and pi.exec: the session lines and JSON records 1.6.0 writes", async () => {
  const c: ExtensionCase = {
    args: ["--mode", "json", ...MODEL, "-e", fixture("ours/entries.ts"), "hi"],
    turns: [{ content: [{ type: "text", text: "Hello." }] }],
  };
  const [ours, ref] = await both(c);
  assertEquals(ours.code, 0, ours.stderr.join("\n"));
  const types = ours.session.map((l) => {
    const line = l as { type: string; customType?: string };
    return line.customType ? `${line.type}:${line.customType}` : line.type;
  });
  assert(types.includes("custom_message:greeting"), types.join(", "));
  assert(types.includes("custom:run-stats"), types.join(", "));
  const stats = ours.session.find((l) => (l as { customType?: string }).customType === "run-stats");
  assertEquals((stats as { data: unknown }).data, { messages: 3, exec: "from exec", code: 0 });
  assertEquals(ours.session, ref.session);
  assertEquals(ours.json, ref.json);
});

Deno.test("EXT-21 message_end replaces the reply in the JSON output and the session as 1.6.0 does; turn_start's turnIndex", async () => {
  const c: ExtensionCase = {
    args: ["--mode", "json", ...MODEL, "-e", fixture("ours/redact.ts"), "tell me"],
    turns: [
      {
        content: [{ type: "text", text: "the secret is 42" }, {
          type: "toolCall",
          id: "c1",
          name: "bash",
          arguments: { command: "echo ok" },
        }],
      },
      { content: [{ type: "text", text: "no secret here" }] },
    ],
  };
  const [ours, ref] = await both(c);
  assertEquals(ours.code, 0, ours.stderr.join("\n"));
  const replies = ours.session.flatMap((l) => {
    const line = l as {
      type: string;
      message?: { role: string; content: { type: string; text?: string }[] };
    };
    return line.type === "message" && line.message?.role === "assistant"
      ? [line.message.content.filter((b) => b.type === "text").map((b) => b.text).join("")]
      : [];
  });
  assertEquals(replies, ["the [redacted] is 42", "no [redacted] here"]);
  const turns = ours.session.find((l) => (l as { customType?: string }).customType === "turns");
  assertEquals((turns as { data: unknown }).data, { turns: [0, 1] });
  assertEquals(ours.session, ref.session);
  assertEquals(ours.json, ref.json);
});

Deno.test("EXT-22 RPC new_session: session_shutdown then session_start with 1.6.0's reasons", async () => {
  const turns = [{ content: [{ type: "text" as const, text: "Saved." }] }];
  const [ours, ref] = await rpcBoth(
    ["-ne", "-e", fixture("ours/lifecycle.ts"), ...MODEL],
    turns,
    async (rpc) => {
      await rpc.waitFor((r) => r.method === "notify", "the start notification");
      await rpc.send({ id: "1", type: "prompt", message: "save this session" });
      await rpc.waitFor((r) => r.type === "agent_settled", "the run's end");
      await rpc.send({ id: "2", type: "new_session" });
      await rpc.waitFor(isResponse("2"), "the new session");
      await rpc.waitFor(
        (r) => r.method === "notify" && String(r.message).startsWith("start new"),
        "the new start",
      );
    },
  );
  const notes = ours.flatMap((r) => {
    const rec = r as { method?: string; message?: string };
    return rec.method === "notify" ? [rec.message] : [];
  });
  assertEquals(notes.slice(0, 3), ["start startup", "shutdown new", "start new after a saved session"]);
  assertEquals(ours, ref);
});
