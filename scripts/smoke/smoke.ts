/**
 * The release smoke test (issue 18): runs one built `pi` the way a user would, against the fake
 * provider server of the tests, and checks what it prints and sends.
 *
 *   deno run -A scripts/smoke/smoke.ts --binary dist/pi-linux-x64   a compiled binary (CI, per runner)
 *   deno run -A scripts/smoke/smoke.ts --source                      `deno task pi`'s command line
 *
 * Checks, in a fresh folder with its own HOME and agent dir (the binary is copied there first, so
 * nothing next to the checkout can help it):
 *   1. `pi --version` prints the version of deno.json and the form (`1.6.0 (binary)`), exit 0;
 *   2. `pi -e ./hello_ext.ts -p …` loads a TypeScript extension from a file next to the binary
 *      (it imports `typebox`; its tool is offered to the model and answers), reads a PNG wider than
 *      the inline limit (so photon's WebAssembly resizes it) and prints the model's answer, exit 0.
 *
 * `--source` runs `deno run <the pi task's flags> --config deno.json main.ts` from that folder:
 * the same flags as `deno task pi` (which itself always runs in the repository's folder, so it
 * could not show an extension next to the binary). tests/scripts/smoke_script_test.ts runs it so.
 *
 * Prints one `smoke: ok …` line per check; on a failure, `smoke: FAILED …` with what pi printed,
 * and exit code 1.
 *
 * @module
 */
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAgentEnv } from "../../tests/support/agent_env.ts";
import { startFakeProvider } from "../../tests/support/fake_provider/mod.ts";
import { type RunForm, versionLine } from "../../src/cli/version_form.ts";
import { VERSION } from "../../src/version.ts";
import { readPiTask, REPO_ROOT } from "../release/pi_task.ts";
import {
  EXTENSION_FILE,
  EXTENSION_SOURCE,
  EXTENSION_TOOL,
  extensionGreeting,
  IMAGE_FILE,
  IMAGE_SIZE,
  imageSize,
  makePng,
} from "./smoke_fixtures.ts";

/** How to start the pi under test. */
interface PiCommand {
  form: RunForm;
  command: string;
  prefix: string[];
}

/** A finished run. */
interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A failed check: the message names the check and what was seen. */
class SmokeFailure extends Error {}

const RUN_TIMEOUT_MS = 180_000;

/** Variables Windows programs need to start at all (a cleared environment lacks them). */
const WINDOWS_VARIABLES = [
  "SystemRoot",
  "SystemDrive",
  "windir",
  "ComSpec",
  "PATHEXT",
  "TEMP",
  "TMP",
  "PROCESSOR_ARCHITECTURE",
  "NUMBER_OF_PROCESSORS",
];

async function run(pi: PiCommand, args: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  const child = new Deno.Command(pi.command, {
    args: [...pi.prefix, ...args],
    cwd,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  }, RUN_TIMEOUT_MS);
  try {
    const out = await child.output();
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
  } finally {
    clearTimeout(timer);
  }
}

function expect(condition: boolean, check: string, detail: string, result?: Run): asserts condition {
  if (condition) return;
  const seen = result
    ? `\n  exit code: ${result.code}\n  stdout: ${JSON.stringify(result.stdout)}\n  stderr: ${
      JSON.stringify(result.stderr)
    }`
    : "";
  throw new SmokeFailure(`${check}: ${detail}${seen}`);
}

/** Every object in `value` (depth first). */
function* objects(value: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(value)) { for (const item of value) yield* objects(item); }
  else if (value && typeof value === "object") {
    yield value as Record<string, unknown>;
    for (const item of Object.values(value)) yield* objects(item);
  }
}

function decodeBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

async function piCommand(args: string[], work: string): Promise<PiCommand> {
  const binaryAt = args.indexOf("--binary");
  if (binaryAt >= 0 && args[binaryAt + 1]) {
    const source = args[binaryAt + 1];
    // A copy in the test folder: the extension sits next to it, and nothing beside the build
    // output can stand in for something the binary lacks.
    const copy = join(work, basename(source));
    await Deno.copyFile(source, copy);
    if (Deno.build.os !== "windows") await Deno.chmod(copy, 0o755);
    return { form: "binary", command: copy, prefix: [] };
  }
  if (args.includes("--source")) {
    const root = fileURLToPath(REPO_ROOT);
    const task = await readPiTask();
    return {
      form: "source",
      command: Deno.execPath(),
      prefix: ["run", ...task.flags, "--config", join(root, "deno.json"), join(root, task.entry)],
    };
  }
  throw new SmokeFailure("usage: smoke.ts --binary <path to pi> | --source");
}

async function main(args: string[]): Promise<number> {
  const server = await startFakeProvider([
    {
      content: [
        { type: "toolCall", id: "call_hello", name: EXTENSION_TOOL, arguments: { name: "smoke" } },
        { type: "toolCall", id: "call_read", name: "read", arguments: { path: IMAGE_FILE } },
      ],
    },
    { content: [{ type: "text", text: "smoke ok" }] },
  ]);
  const agent = await createAgentEnv(server.url);
  const work = join(agent.root, "bin");
  await Deno.mkdir(work);
  try {
    const pi = await piCommand(args, work);
    const env: Record<string, string> = { ...agent.env, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1" };
    // The binary needs no module cache: give it none of this machine's.
    if (pi.form === "binary") delete env.DENO_DIR;
    if (Deno.build.os === "windows") {
      for (const name of WINDOWS_VARIABLES) {
        const value = Deno.env.get(name);
        if (value !== undefined) env[name] = value;
      }
      env.USERPROFILE = agent.home;
      env.APPDATA = join(agent.home, "AppData", "Roaming");
      env.LOCALAPPDATA = join(agent.home, "AppData", "Local");
    }
    console.log(`smoke: ${pi.form === "binary" ? `binary ${pi.command}` : "source form (deno run main.ts)"}`);

    // 1. --version
    const version = await run(pi, ["--version"], work, env);
    const wanted = versionLine(VERSION, pi.form);
    expect(
      version.code === 0 && version.stdout === `${wanted}\n`,
      "--version",
      `expected "${wanted}"`,
      version,
    );
    console.log(`smoke: ok   --version: ${wanted}`);

    // 2. an extension next to the binary, an image read, a print-mode answer
    await Deno.writeTextFile(join(work, EXTENSION_FILE), EXTENSION_SOURCE);
    await Deno.writeFile(join(work, IMAGE_FILE), makePng(IMAGE_SIZE.width, IMAGE_SIZE.height));
    const turn = await run(
      pi,
      [
        "--provider",
        "fake-anthropic",
        "--model",
        "test-model",
        "-e",
        `./${EXTENSION_FILE}`,
        "-p",
        "Smoke test.",
      ],
      work,
      env,
    );
    expect(turn.code === 0 && turn.stdout === "smoke ok\n", "-p", 'expected "smoke ok" and exit 0', turn);
    expect(
      server.requests.length === 2,
      "-p",
      `expected 2 provider requests, got ${server.requests.length}`,
      turn,
    );
    const offered = [...objects((server.requests[0].body as { tools?: unknown }).tools)].map((t) => t.name);
    expect(
      offered.includes(EXTENSION_TOOL),
      "extension",
      `the first request offers no ${EXTENSION_TOOL} tool (tools: ${offered.join(", ")})`,
      turn,
    );
    const answer = server.requests[1].body;
    // Text blocks, and tool results whose content is a plain string (Anthropic's short form).
    const texts = [...objects(answer)].flatMap((
      o,
    ) => [o.text, o.type === "tool_result" ? o.content : undefined])
      .filter((t): t is string => typeof t === "string");
    expect(
      texts.includes(extensionGreeting("smoke")),
      "extension",
      `its tool's answer is not in the next request (texts: ${JSON.stringify(texts)})`,
      turn,
    );
    console.log(
      `smoke: ok   extension: ./${EXTENSION_FILE} next to the binary registered ${EXTENSION_TOOL}, which answered`,
    );

    const images = [...objects(answer)].filter((o) => o.type === "image");
    const data = images.map((o) => (o.source as { data?: unknown } | undefined)?.data ?? o.data)
      .find((d): d is string => typeof d === "string");
    expect(data !== undefined, "image read", "the read tool's result carries no image", turn);
    const size = imageSize(decodeBase64(data));
    expect(
      size !== undefined && size.width === 2000 && size.width < IMAGE_SIZE.width,
      "image read",
      `expected the ${IMAGE_SIZE.width}x${IMAGE_SIZE.height} PNG resized to 2000 wide, got ${
        JSON.stringify(size)
      }`,
      turn,
    );
    const note =
      `original ${IMAGE_SIZE.width}x${IMAGE_SIZE.height}, displayed at ${size.width}x${size.height}`;
    expect(texts.some((t) => t.includes(note)), "image read", `no "${note}" note in the tool result`, turn);
    console.log(
      `smoke: ok   image read: ${IMAGE_FILE} ${IMAGE_SIZE.width}x${IMAGE_SIZE.height} resized (photon) and sent as ${size.width}x${size.height}`,
    );
    console.log(`smoke: ok   -p: printed "smoke ok", exit 0`);
    return 0;
  } catch (error) {
    if (!(error instanceof SmokeFailure)) throw error;
    console.error(`smoke: FAILED ${error.message}`);
    return 1;
  } finally {
    await server.close();
    await agent.cleanup();
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
