/**
 * The provider, `user_bash` and boundary events (issue 16) for an extension confined in a Deno
 * Worker (issue 15): results cross as copies, and headers edited in place come back to pi. A
 * `user_bash` backend (`operations`, functions) cannot cross: it arrives as an invalid result, so the
 * command is blocked, not run.
 */
import { join } from "../../src/util/path.ts";
import { assertEquals, assertRejects } from "../support/assert.ts";
import { loadExtensions } from "../../src/extensions/loader.ts";
import { ExtensionRunner } from "../../src/extensions/runner.ts";
import type { ExtensionContext, ExtensionError } from "../../src/extensions/types.ts";
import { bareExtensionContext } from "../support/extension_context.ts";

const EXTENSION = `
export default function (pi) {
  pi.on("before_provider_headers", (event) => {
    event.headers["x-from-worker"] = typeof WorkerGlobalScope;
    event.headers["x-drop"] = null;
  });
  pi.on("before_provider_request", (event) => ({ ...event.payload, temperature: 0.5 }));
  pi.on("user_bash", (event) => {
    if (event.command === "answer") {
      return { result: { output: "from the worker\\n", exitCode: 0, cancelled: false, truncated: false } };
    }
    if (event.command === "backend") return { operations: { exec: async () => ({ exitCode: 0 }) } };
  });
  pi.on("turn_end", (event) => ({
    entries: [...event.entries, { type: "custom", customType: "seen", data: event.turnIndex }],
    continue: true,
  }));
}
`;

const ctx = (cwd: string): ExtensionContext => bareExtensionContext(cwd);

Deno.test("EXT-EVT-07 a Worker-hosted extension edits headers in place, replaces the payload, answers user_bash and proposes boundary entries; a backend it lends cannot cross and blocks the command", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pi_worker_events_" });
  try {
    const pkg = join(dir, "pkg");
    await Deno.mkdir(pkg);
    await Deno.writeTextFile(
      join(pkg, "package.json"),
      JSON.stringify({ name: "confined", pi: { extensions: ["./index.ts"], permissions: { write: false } } }),
    );
    const entry = join(pkg, "index.ts");
    await Deno.writeTextFile(entry, EXTENSION);
    const loaded = await loadExtensions([{ path: entry, resolvedPath: entry }], {
      cwd: dir,
      cacheDir: join(dir, "cache"),
      factoryTimeoutMs: 20_000,
    });
    assertEquals(loaded.errors, []);
    const runner = new ExtensionRunner(loaded.extensions, () => ctx(dir));
    const errors: ExtensionError[] = [];
    runner.onError((error) => errors.push(error));

    const headers: Record<string, string | null> = { "x-drop": "1", "x-keep": "2" };
    const returned = await runner.emitBeforeProviderHeaders(headers);
    assertEquals(returned === headers, true, "the same object, edited");
    assertEquals(headers, { "x-drop": null, "x-keep": "2", "x-from-worker": "function" });

    assertEquals(await runner.emitBeforeProviderRequest({ model: "m" }), { model: "m", temperature: 0.5 });

    const bash = { excludeFromContext: false, cwd: dir };
    assertEquals(await runner.emitUserBash({ command: "answer", ...bash }), {
      result: { output: "from the worker\n", exitCode: 0, cancelled: false, truncated: false },
    });
    assertEquals(await runner.emitUserBash({ command: "other", ...bash }), undefined);
    await assertRejects(() => runner.emitUserBash({ command: "backend", ...bash }));
    // The functions are lost on the way, so what arrives is not a valid result.
    assertEquals(errors.map((e) => [e.event, e.error]), [[
      "user_bash",
      "Invalid user_bash handler result: return undefined for local execution or exactly one valid { operations } or { result } object",
    ]]);

    const outcome = await runner.emitBoundary(
      { type: "turn_end", turnIndex: 3 },
      (entries) => entries.length,
    );
    assertEquals(outcome, {
      entries: [{ type: "custom", customType: "seen", data: 3 }],
      continue: true,
      context: 1,
      valid: true,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
