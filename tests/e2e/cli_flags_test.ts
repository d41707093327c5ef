/**
 * pi 1.6.0's new flags and commands through the real `pi` against the fake provider (CLI-09,
 * CLI-16, CLI-20; CLI-1.6-AUTH and CLI-1.6-TRUST are pi-1.6-delta.md §2's `pi auth` and project
 * trust, which reference-features.md does not number): `--name`, `--session-id`, tool patterns and `+x/-x`, `--exclude-tools`,
 * `pi auth`, and the flags and commands whose feature this build lacks, which are exit-1 errors
 * with exact texts. Also the found bugs: `-r` no longer exits 0 silently, a file in place of the
 * sessions folder and `--session <folder>` are one clear line, a closed stdout is a quiet exit,
 * `-p` on a `length` stop and on a failed overflow compaction exits 1.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { type AgentEnv, createAgentEnv, readSessionLines } from "../support/agent_env.ts";
import { type ScriptedTurn, startFakeProvider } from "../support/fake_provider/mod.ts";
import { MAIN_TS, spawnPi } from "../support/spawn_pi.ts";

type Json = Record<string, unknown>;

const MODEL = ["--model", "fake-openai/test-model"];

async function withEnv(
  turns: ScriptedTurn[],
  fn: (env: AgentEnv, requests: () => Json[]) => Promise<void>,
  settings?: Record<string, unknown>,
): Promise<void> {
  const server = await startFakeProvider(turns);
  const env = await createAgentEnv(server.url, settings ? { settings } : undefined);
  env.env.PI_OFFLINE = "1";
  try {
    await fn(env, () => server.requests.map((r) => r.body as Json));
  } finally {
    await server.close();
    await env.cleanup();
  }
}

async function run(env: AgentEnv, args: string[], stdin?: string) {
  const r = await spawnPi(args, { env: env.env, cwd: env.cwd, stdin });
  return { code: r.code, stdout: r.stdout, stderr: r.stderr };
}

const answer = (text: string): ScriptedTurn => ({ content: [{ type: "text", text }] });

/** The tool names an OpenAI chat-completions request offered. */
function toolNames(body: Json): string[] {
  return ((body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
}

Deno.test("CLI-09 RES-08 e2e --theme, --use-theme and --no-themes are accepted outside the TUI, which alone draws with themes", async () => {
  await withEnv([answer("plain")], async (env) => {
    const args = [
      "--theme",
      "missing.json",
      "--use-theme",
      "light/dark",
      "--no-themes",
      "-p",
      "hi",
      ...MODEL,
    ];
    assertEquals(await run(env, args), { code: 0, stdout: "plain\n", stderr: "" });
  });
});

Deno.test("CLI-20 e2e --name writes a session_info entry right after the header", async () => {
  await withEnv([answer("named")], async (env) => {
    assertEquals(await run(env, ["--name", "  Refactor auth  ", "-p", "hi", ...MODEL]), {
      code: 0,
      stdout: "named\n",
      stderr: "",
    });
    const [file] = await env.sessionFiles();
    const lines = await readSessionLines(file);
    assertEquals([lines[0].type, lines[1].type, lines[1].name], ["session", "session_info", "Refactor auth"]);
  });
});

Deno.test("CLI-20 e2e --session-id creates the session with that id, then opens it again", async () => {
  await withEnv([answer("one"), answer("two")], async (env, requests) => {
    assertEquals(await run(env, ["--session-id", "task-42", "-p", "first", ...MODEL]), {
      code: 0,
      stdout: "one\n",
      stderr: "Warning: No project session found with id 'task-42'; creating a new session with that id.\n",
    });
    const [file] = await env.sessionFiles();
    assert(file.endsWith("_task-42.jsonl"), file);
    assertEquals((await readSessionLines(file))[0].id, "task-42");
    assertEquals(await run(env, ["--session-id", "task-42", "-p", "second", ...MODEL]), {
      code: 0,
      stdout: "two\n",
      stderr: "",
    });
    assertEquals(await env.sessionFiles(), [file]);
    const sent = (requests()[1].messages as { role: string }[]).filter((m) => m.role === "user").length;
    assertEquals(sent, 2);
  });
});

Deno.test("CLI-16 e2e --tools patterns and +x/-x, --exclude-tools: the tools the request offers", async () => {
  const cases: [string[], string[]][] = [
    [["--tools", "r*,ls"], ["read", "ls"]],
    [["--tools", "+grep,-bash"], ["read", "edit", "write", "grep"]],
    [["--exclude-tools", "bash,e*"], ["read", "write"]],
    [["-t", "read,bash,grep", "-xt", "g*"], ["read", "bash"]],
    [["-nbt", "--tools", "+find"], ["find"]],
  ];
  await withEnv(cases.map((_, i) => answer(`ok ${i}`)), async (env, requests) => {
    for (const [flags] of cases) {
      assertEquals(
        (await run(env, [...flags, "--no-session", "-p", "hi", ...MODEL])).code,
        0,
        flags.join(" "),
      );
    }
    assertEquals(requests().map(toolNames), cases.map(([, names]) => names));
  });
});

Deno.test("CLI-16 e2e a resumed session keeps its tools; --tools +x/-x and --exclude-tools apply on top (as pi 1.6.0)", async () => {
  // [first run's flags, second run's flags (with -c), tools of the second request] — what 1.6.0 sends.
  const cases: [string[], string[], string[]][] = [
    [["--tools", "read"], ["--tools", "+grep"], ["read", "grep"]],
    [["--tools", "read"], ["--tools", "-read,+ls"], ["ls"]],
    [["--tools", "read,bash,grep"], ["--exclude-tools", "bash"], ["read", "grep"]],
    [["--no-tools"], ["--tools", "+grep"], ["grep"]],
    [["--tools", "+grep", "--no-tools"], ["--tools", "+ls"], ["grep", "ls"]],
  ];
  for (const [first, second, expected] of cases) {
    await withEnv([answer("one"), answer("two")], async (env, requests) => {
      assertEquals((await run(env, [...first, "-p", "hi", ...MODEL])).code, 0, first.join(" "));
      assertEquals((await run(env, ["-c", ...second, "-p", "again", ...MODEL])).code, 0, second.join(" "));
      assertEquals(requests().map(toolNames)[1], expected, `${first.join(" ")} then ${second.join(" ")}`);
    });
  }
});

Deno.test("CLI-1.6-AUTH e2e pi auth login --api-key stores the key; check and print-api-key see it; logout removes it", async () => {
  await withEnv([], async (env) => {
    const auth = join(env.agentDir, "auth.json");
    assertEquals(await run(env, ["auth", "check", "--provider", "openai", "--json"]), {
      code: 1,
      stdout: '{"status":"not_ready","provider":"openai","reason":"credentials_not_configured"}\n',
      stderr: "",
    });
    assertEquals(await run(env, ["auth", "login", "openai", "--api-key"], "sk-stored\n"), {
      code: 0,
      stdout: `Saved an API key for openai in ${auth}\n`,
      stderr: "",
    });
    assertEquals(JSON.parse(await Deno.readTextFile(auth)).openai, { type: "api_key", key: "sk-stored" });
    assertEquals(await run(env, ["auth", "check", "--provider", "openai"]), {
      code: 0,
      stdout: "ready\n",
      stderr: "",
    });
    assertEquals(await run(env, ["auth", "print-api-key", "--provider", "openai"]), {
      code: 0,
      stdout: "sk-stored\n",
      stderr: "",
    });
    assertEquals(await run(env, ["auth", "logout", "openai"]), {
      code: 0,
      stdout:
        "Removed stored API key for OpenAI. Environment variables and models.json config are unchanged.\n",
      stderr: "",
    });
    // A provider without account sign-in takes an API key even without --api-key (1.6.0).
    assertEquals(await run(env, ["auth", "login", "groq"]), {
      code: 1,
      stdout: "",
      stderr: "Error: No API key given (pipe it to stdin or type it)\n",
    });
    assertEquals(await run(env, ["auth", "check", "--provider", "openai", "--json", "--bogus"]), {
      code: 1,
      stdout: "",
      stderr:
        'Unknown option --bogus for "auth check".\nUse "pi --help" or "pi auth check --provider <provider> [--json] [--credentials] [--no-refresh]".\n',
    });
  });
});

Deno.test("CLI-20 e2e a file where agent/sessions should be is one clear line, no stack trace", async () => {
  await withEnv([], async (env, requests) => {
    const sessions = join(env.agentDir, "sessions");
    await Deno.remove(sessions, { recursive: true }).catch(() => {});
    await Deno.writeTextFile(sessions, "not a folder\n");
    assertEquals(await run(env, ["-p", "hi", ...MODEL]), {
      code: 1,
      stdout: "",
      stderr:
        `Error: Cannot use the sessions folder: ${sessions} is a file, not a folder. Move it away or use --session-dir.\n`,
    });
    assertEquals(requests().length, 0);
  });
});

Deno.test("CLI-20 e2e --session <a folder> is a clear error", async () => {
  await withEnv([], async (env) => {
    assertEquals(await run(env, ["--session", env.cwd, "-p", "hi", ...MODEL]), {
      code: 1,
      stdout: "",
      stderr: `Error: --session expects a session file, but ${env.cwd} is a folder\n`,
    });
  });
});

Deno.test("MODE-01 e2e pi --mode json|rpc / -p … | head -1: a closed stdout is a quiet exit", async () => {
  // JSON and RPC mode: many small records; print mode: one 200 KB answer of many lines (more than a
  // pipe holds). RPC mode gets its prompt on stdin and keeps stdin open, as a client would.
  const many: ScriptedTurn = {
    content: [{ type: "text", text: "x".repeat(2000) }],
    deltaSize: 4,
    chunkDelayMs: 1,
  };
  const runs: Record<string, { turn: ScriptedTurn; input: string }> = {
    "--mode json hi": { turn: many, input: "true" },
    "--mode rpc": { turn: many, input: `{ echo '{"type":"prompt","message":"hi"}'; sleep 5; }` },
    "-p hi": {
      turn: { content: [{ type: "text", text: "line\n".repeat(40000) }], deltaSize: 10000 },
      input: "true",
    },
  };
  for (const [mode, { turn, input }] of Object.entries(runs)) {
    await withEnv([turn], async (env) => {
      // A real pipe into `head`, which exits after its first line; bash reports pi's exit code.
      const script = `${input} | "$DENO" run -A --no-prompt "$MAIN" ${mode} --model fake-openai/test-model ` +
        `2>"$ERR" | head -1 >/dev/null; echo "\${PIPESTATUS[1]}"`;
      const err = join(env.root, "stderr.txt");
      const out = await new Deno.Command("bash", {
        args: ["-c", script],
        cwd: env.cwd,
        env: {
          ...env.env,
          PATH: Deno.env.get("PATH") ?? "",
          DENO: Deno.execPath(),
          MAIN: MAIN_TS,
          ERR: err,
          DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "", ".cache", "deno"),
        },
        clearEnv: true,
        stdout: "piped",
      }).output();
      assertEquals([new TextDecoder().decode(out.stdout), await Deno.readTextFile(err)], ["0\n", ""], mode);
    });
  }
});

Deno.test("MODE-01 e2e -p on a length stop prints the text, warns on stderr and exits 1", async () => {
  await withEnv([{ content: [{ type: "text", text: "cut sho" }], stopReason: "length" }], async (env) => {
    assertEquals(await run(env, ["-p", "hi", ...MODEL]), {
      code: 1,
      stdout: "cut sho\n",
      stderr: "Response was truncated: the model reached its output token limit.\n",
    });
  });
});

Deno.test("MODE-01 e2e -p when overflow recovery fails exits 1 with the error on stderr (1.6.0: exit 0, no output)", async () => {
  const overflow = (): ScriptedTurn => ({
    fault: {
      kind: "http",
      status: 400,
      message: "This model's maximum context length is 128000 tokens (context_length_exceeded)",
    },
  });
  // pi-ai 1.6.0 quotes the body's error object after the status.
  const overflowText = `400: {"message":"This model's maximum context length is 128000 tokens ` +
    `(context_length_exceeded)","type":"invalid_request_error","param":null,"code":null}`;
  // The first prompt overflows: there is nothing to compact, so the overflow itself is the error.
  await withEnv([overflow(), overflow()], async (env) => {
    assertEquals(await run(env, ["-p", "hi", ...MODEL]), {
      code: 1,
      stdout: "",
      stderr: `${overflowText}\n`,
    });
  }, { retry: { enabled: false } });
  // A later prompt overflows and the summary request for the recovery overflows too (keeping
  // almost nothing recent, so the first turn is there to summarise).
  await withEnv([answer("first answer"), ...Array.from({ length: 6 }, overflow)], async (env) => {
    assertEquals(await run(env, ["-p", "first", "second", ...MODEL]), {
      code: 1,
      stdout: "",
      stderr: `Context overflow recovery failed: Summarization failed: ${overflowText}\n`,
    });
  }, { retry: { enabled: false }, compaction: { keepRecentTokens: 1 } });
});

Deno.test("CLI-1.6-TRUST e2e -a/--approve trusts the folder's .pi/settings.json for the run; -na ignores it", async () => {
  const turns = [answer("a"), answer("b"), answer("c")];
  await withEnv(turns, async (env) => {
    await Deno.mkdir(join(env.cwd, ".pi"));
    await Deno.writeTextFile(
      join(env.cwd, ".pi", "settings.json"),
      JSON.stringify({ defaultProvider: "fake-google", defaultModel: "test-model" }),
    );
    const modelOf = async (args: string[]) => {
      const result = await run(env, [...args, "-p", "hi"]);
      assertEquals(result.code, 0, result.stderr);
      const files = await env.sessionFiles();
      const newest = files.sort().at(-1)!;
      const change = (await readSessionLines(newest)).find((l) => l.type === "model_change")!;
      await Deno.remove(newest);
      return change.provider;
    };
    assertEquals(await modelOf(["-a"]), "fake-google");
    assertEquals(await modelOf(["--no-approve"]), "fake-openai");
    // Without a flag or a saved decision, print mode does not trust a folder with protected files.
    assertEquals(await modelOf([]), "fake-openai");
  }, { defaultProvider: "fake-openai", defaultModel: "test-model" });
});

Deno.test("CLI-15 e2e --model offered by several providers: the one with credentials wins", async () => {
  await withEnv([answer("from keyed")], async (env) => {
    // Two providers offer the model; the one without a key is listed first.
    const modelsPath = join(env.agentDir, "models.json");
    const models = JSON.parse(await Deno.readTextFile(modelsPath));
    const keyed = models.providers["fake-openai"];
    models.providers = { "no-key": { ...keyed, apiKey: undefined }, "fake-openai": keyed };
    await Deno.writeTextFile(modelsPath, JSON.stringify(models));
    assertEquals(await run(env, ["--model", "test-model", "--no-session", "-p", "hi"]), {
      code: 0,
      stdout: "from keyed\n",
      stderr: "",
    });
  });
});

Deno.test("CLI-24 e2e the no-model message names documentation that exists in this checkout", async () => {
  await withEnv([], async (env) => {
    await Deno.remove(join(env.agentDir, "models.json"));
    const result = await run(env, ["-p", "hi"]);
    assertEquals(result.code, 1);
    const paths = [...result.stderr.matchAll(/^ {2}(\/\S+\.md)$/gm)].map((m) => m[1]);
    assertEquals(paths.map((p) => p.split("/").slice(-2).join("/")), [
      "docs/providers.md",
      "docs/models.md",
      "docs/providers.md",
      "docs/models.md",
    ]);
    for (const path of paths) assert((await Deno.stat(path)).isFile, path);
  });
});

Deno.test("CLI-05 e2e -- ends the options: a prompt starting with a dash is sent as is; --no-mcp and -ne are accepted", async () => {
  await withEnv([answer("summarised")], async (env, requests) => {
    assertEquals(
      await run(env, [...MODEL, "--no-mcp", "-ne", "--no-session", "-p", "--", "- Summarize these points"]),
      {
        code: 0,
        stdout: "summarised\n",
        stderr: "",
      },
    );
    const user = (requests()[0].messages as { role: string; content: unknown }[]).find((m) =>
      m.role === "user"
    )!;
    const text = typeof user.content === "string"
      ? user.content
      : (user.content as { text?: string }[]).map((c) => c.text ?? "").join("");
    assertEquals(text, "- Summarize these points");
  });
});
