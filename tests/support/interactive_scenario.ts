/**
 * Set-up for end-to-end tests of the interactive mode: a fake provider with scripted turns, an
 * isolated HOME and agent dir, and a tmux pane in the project folder, ready to start our `pi`
 * or the reference's.
 *
 * @module
 */
import { type AgentEnv, createAgentEnv } from "./agent_env.ts";
import { type FakeProvider, type ScriptedTurn, startFakeProvider } from "./fake_provider/mod.ts";
import { requireReference } from "../../scripts/reference/locate.ts";
import { MAIN_TS } from "./spawn_pi.ts";
import { TmuxPane } from "./tmux_pane.ts";

/** A running scenario. */
export interface InteractiveScenario {
  pane: TmuxPane;
  server: FakeProvider;
  agent: AgentEnv;
  /** The shell command that starts pi (ours or the reference's) with `args`. */
  piCommand(args?: string[]): string;
  /** The screen with the temp root, spinner frames and durations masked. */
  normalized(screen: string): string;
  close(): Promise<void>;
}

/** Single-quotes `text` for bash. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Starts the fake provider, the environment and a pane; `reference` runs pi 1.6.0 instead of ours. */
export async function startInteractiveScenario(
  turns: ScriptedTurn[],
  options: {
    reference?: boolean;
    settings?: Record<string, unknown>;
    width?: number;
    height?: number;
    /** Whether the fake models reason (have thinking levels). */
    reasoning?: boolean;
    /** tmux's extended-keys option (default on). */
    extendedKeys?: boolean;
  } = {},
): Promise<InteractiveScenario> {
  const server = await startFakeProvider(turns);
  const agent = await createAgentEnv(server.url, {
    settings: { defaultProvider: "fake-anthropic", defaultModel: "test-model", ...options.settings },
    reasoning: options.reasoning,
    // Screens show (and wrap) paths under the root, so its length must not depend on the
    // machine's TMPDIR (the fresh-machine check's is long): always directly under /tmp.
    tempBase: "/tmp",
  });
  const env: Record<string, string> = { ...agent.env, PI_OFFLINE: "1" };
  delete env.NO_COLOR;
  let pane: TmuxPane;
  try {
    pane = await TmuxPane.start({
      env,
      cwd: agent.cwd,
      width: options.width,
      height: options.height,
      extendedKeys: options.extendedKeys,
    });
  } catch (error) {
    await agent.cleanup();
    await server.close();
    throw error;
  }
  const piCommand = (args: string[] = []) => {
    const tail = args.map(shellQuote).join(" ");
    if (options.reference) {
      const ref = requireReference();
      return `${shellQuote(ref.node)} ${shellQuote(ref.cli)} ${tail}`.trimEnd();
    }
    // --quiet: Deno's module-loading progress line (stderr) would erase rows of the screen.
    return `${shellQuote(Deno.execPath())} run --quiet --allow-all --no-prompt ${shellQuote(MAIN_TS)} ${tail}`
      .trimEnd();
  };
  return {
    pane,
    server,
    agent,
    piCommand,
    normalized: (screen) =>
      screen
        .replaceAll(agent.root, "<root>")
        // A session file's path: the temp root's length varies, so it may wrap onto several rows
        // (under a long temp folder the folder name, which repeats the cwd, takes two), anywhere.
        .replace(SESSION_FILE_PATH, " <session file>")
        .replace(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/g, "<spin>")
        .replace(/Took \d+(\.\d+)?s/g, "Took <t>")
        // Session ids and file names: a UUID v7 and a timestamp (a long path may wrap inside one).
        .replace(UUID, "<uuid>")
        .replace(/\d{4}-\d{2}-\d{2}T\d{2}-(\n ?)?\d{2}-(\n ?)?\d{2}-(\n ?)?\d{3}Z/g, "<time>")
        .replace(/pi-env-[0-9a-f]+/g, "pi-env-<x>"),
    async close() {
      await pane.close();
      await agent.cleanup();
      await server.close();
    },
  };
}

/** A row break inside a wrapped path: the pane starts each continued row with a space. */
const WRAP = "(?:\\n )?";

/** A UUID, with a row break possible after any character (a path cut by the screen's top row). */
const UUID = new RegExp(
  [..."xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"].map((c) => (c === "x" ? "[0-9a-f]" : "-")).join(WRAP),
  "g",
);

/** ` <root>/agent/sessions/….jsonl`, with a row break possible after any character. */
const SESSION_FILE_PATH = new RegExp(
  ` <root>/agent/sessions/(?:[^\\n]|\\n )*?\\.${WRAP}${[..."jsonl"].join(WRAP)}`,
  "g",
);

/** The pane's terminal settings after pi exited: `stty -a` run in the shell. */
export async function sttyAfterExit(pane: TmuxPane): Promise<string> {
  await pane.command(
    "clear; stty -a | tr -s ' ;\\n' '\\n\\n\\n' | grep -xE -- '-?(icanon|echo)'; echo stty-done",
  );
  const screen = await pane.waitFor((s) => s.includes("\nstty-done"), 15_000, "stty output");
  return screen;
}

/** Whether tmux shows the pane's cursor (the `cursor_flag` format). */
export async function cursorVisible(pane: TmuxPane): Promise<boolean> {
  return (await pane.tmux("display-message", "-p", "#{cursor_flag}")).trim() === "1";
}
