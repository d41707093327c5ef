/**
 * Runs our `pi` (`deno run -A --no-prompt main.ts`) on a case of tests/fixtures/cli/cases.json in
 * the same isolated layout the reference was captured in (see capture_reference.mjs there):
 * HOME=<TMP>/home, PI_CODING_AGENT_DIR=<TMP>/home/agent, cwd=<TMP>/proj, PI_OFFLINE=1.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { getDocumentationPaths } from "../../src/resources/documentation.ts";

const FIXTURES = new URL("../fixtures/cli/", import.meta.url).pathname;
const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** One case of cases.json. */
export interface CliCase {
  name: string;
  args: string[];
  models?: string;
  env?: Record<string, string>;
  stdin?: string;
  files?: Record<string, string>;
  sessions?: { path: string; id: string; cwd: string }[];
}

/** A captured or observed run, with paths normalised to placeholders. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Every case. */
export function loadCases(): CliCase[] {
  return JSON.parse(Deno.readTextFileSync(join(FIXTURES, "cases.json")));
}

/** The reference's captured result for a case. */
export function referenceRun(name: string): CliRun {
  const j = JSON.parse(Deno.readTextFileSync(join(FIXTURES, "reference", `${name}.json`)));
  return { code: j.code, stdout: j.stdout, stderr: j.stderr };
}

/** Runs our CLI on a case and returns its normalised result. */
export async function runCase(c: CliCase): Promise<CliRun> {
  const tmp = await Deno.makeTempDir({ prefix: "picli-" });
  try {
    const sub = (s: string) => s.replaceAll("<TMP>", tmp);
    const home = join(tmp, "home");
    const agent = join(home, "agent");
    const cwd = join(tmp, "proj");
    await Deno.mkdir(agent, { recursive: true });
    await Deno.mkdir(cwd, { recursive: true });
    if (c.models) await Deno.copyFile(join(FIXTURES, c.models), join(agent, "models.json"));
    for (const [rel, content] of Object.entries(c.files ?? {})) {
      await Deno.writeTextFile(join(cwd, rel), content);
    }
    for (const s of c.sessions ?? []) {
      const path = sub(s.path);
      await Deno.mkdir(dirname(path), { recursive: true });
      const lines = [
        { type: "session", version: 3, id: s.id, timestamp: "2026-01-01T00:00:00.000Z", cwd: sub(s.cwd) },
        {
          type: "message",
          id: "aaaa0001",
          parentId: null,
          timestamp: "2026-01-01T00:00:01.000Z",
          message: { role: "user", content: [{ type: "text", text: "hello" }], timestamp: 1767225601000 },
        },
      ];
      await Deno.writeTextFile(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    }
    const env: Record<string, string> = {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: home,
      PI_CODING_AGENT_DIR: agent,
      PI_OFFLINE: "1",
      // Keep Deno's caches where they are, whatever HOME says.
      DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "", ".cache", "deno"),
    };
    for (const [k, v] of Object.entries(c.env ?? {})) env[k] = sub(v);
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", "--no-prompt", MAIN, ...c.args.map(sub)],
      cwd,
      env,
      clearEnv: true,
      stdin: c.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    if (c.stdin !== undefined) {
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(c.stdin));
      await writer.close();
    }
    const out = await child.output();
    const enc = tmp.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-");
    const norm = (s: string) =>
      s.replaceAll(getDocumentationPaths().docs, "<DOCS>").replaceAll(tmp, "<TMP>").replaceAll(
        enc,
        "<TMPENC>",
      );
    const decode = (b: Uint8Array) => norm(new TextDecoder().decode(b));
    return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}
