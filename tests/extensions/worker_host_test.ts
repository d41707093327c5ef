/**
 * Extensions in Deno Workers (issue 15): an extension whose package.json declares
 * `pi.permissions`, or that the user's `extensionPermissions` setting names, loads in a Worker with
 * those permissions; its tools, commands and handlers work through messages, and what Deno
 * refuses it fails inside the extension with a "permission denied" error.
 */
import { join } from "../../src/util/path.ts";
import { assertEquals, assertRejects } from "../support/assert.ts";
import { loadExtensions } from "../../src/extensions/loader.ts";
import { ExtensionRunner } from "../../src/extensions/runner.ts";
import type { ExtensionContext, ExtensionError } from "../../src/extensions/types.ts";
import {
  parseExtensionPermissions,
  workerPermissions,
} from "../../src/extensions/worker_host_permissions.ts";
import { bareExtensionContext } from "../support/extension_context.ts";

const EXTENSION = `
import { Type } from "@earendil-works/pi-ai";
export default function (pi) {
  pi.registerTool({
    name: "echo_tool",
    description: "Echoes",
    parameters: Type.Object({ text: Type.String() }),
    async execute(_id, params, _signal, onUpdate, ctx) {
      onUpdate?.({ content: [{ type: "text", text: "working" }] });
      return { content: [{ type: "text", text: params.text + " in " + ctx.cwd }], details: { worker: typeof WorkerGlobalScope } };
    },
  });
  pi.registerCommand("where", { description: "Says where", handler: async (args) => "cmd:" + args });
  pi.on("tool_call", (event) => {
    if (event.toolName === "blocked") return { block: true, reason: "no" };
    event.input.extra = 1;
  });
  pi.on("before_agent_start", async (event) => {
    const out = {};
    for (const [name, attempt] of Object.entries({
      write: () => Deno.writeTextFile(event.prompt, "x"),
      // A cleared environment: with LD_PRELOAD inherited (libfaketime) Deno words the refusal differently.
      run: () => new Deno.Command("true", { clearEnv: true }).output(),
      net: () => Deno.connect({ hostname: "127.0.0.1", port: 9 }),
    })) {
      try { await attempt(); out[name] = "done"; } catch (error) { out[name] = error.name + ": " + error.message; }
    }
    return { systemPrompt: JSON.stringify(out) };
  });
  pi.on("agent_start", () => Deno.writeTextFileSync(pi.getFlag("target") ?? "/nonexistent/x", "x"));
  pi.registerFlag("target", { type: "string", default: "" });
}
`;

const ctx = (cwd: string): ExtensionContext => bareExtensionContext(cwd);

async function withPackage(
  permissions: unknown,
  run: (dir: string, entry: string, cache: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "pi_worker_ext_" });
  try {
    const pkg = join(dir, "pkg");
    await Deno.mkdir(pkg);
    await Deno.writeTextFile(
      join(pkg, "package.json"),
      JSON.stringify({ name: "confined", pi: { extensions: ["./index.ts"], permissions } }),
    );
    await Deno.writeTextFile(join(pkg, "index.ts"), EXTENSION);
    await run(dir, join(pkg, "index.ts"), join(dir, "cache"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("EXT-WORKER a package's pi.permissions loads the extension in a Worker: tools, commands, handlers and flags cross; writes, runs and sockets are refused", async () => {
  await withPackage({ write: false, run: false, net: false }, async (dir, entry, cache) => {
    const loaded = await loadExtensions([{ path: entry, resolvedPath: entry }], {
      cwd: dir,
      cacheDir: cache,
      factoryTimeoutMs: 20_000,
    });
    assertEquals(loaded.errors, []);
    const [extension] = loaded.extensions;
    assertEquals([...extension.tools.keys()], ["echo_tool"]);
    assertEquals([...extension.commands.keys()], ["where"]);
    assertEquals([...extension.flags.keys()], ["target"]);
    const errors: ExtensionError[] = [];
    const runner = new ExtensionRunner(loaded.extensions, () => ctx(dir));
    runner.onError((error) => errors.push(error));

    const updates: unknown[] = [];
    const result = await extension.tools.get("echo_tool")!.execute(
      "call-1",
      { text: "hi" },
      undefined,
      (partial) => updates.push(partial),
      ctx(dir),
    );
    assertEquals(result.content, [{ type: "text", text: `hi in ${dir}` }]);
    assertEquals(result.details, { worker: "function" }, "the tool ran inside a Worker");
    assertEquals(updates, [{ content: [{ type: "text", text: "working" }] }]);
    assertEquals(await runner.command("where")!.handler("here", ctx(dir)), "cmd:here");

    const input: Record<string, unknown> = { path: "a" };
    assertEquals(await runner.emitToolCall({ toolName: "read", toolCallId: "1", input }), undefined);
    assertEquals(input, { path: "a", extra: 1 }, "edits of event.input reach pi");
    assertEquals(await runner.emitToolCall({ toolName: "blocked", toolCallId: "2", input: {} }), {
      block: true,
      reason: "no",
    });

    const target = join(dir, "written.txt");
    const start = await runner.emitBeforeAgentStart(target, undefined, "base");
    assertEquals(JSON.parse(start.systemPrompt!), {
      write: `NotCapable: Requires write access to "${target}", run again with the --allow-write flag`,
      run: `NotCapable: Requires run access to "true", run again with the --allow-run flag`,
      net: `NotCapable: Requires net access to "127.0.0.1:9", run again with the --allow-net flag`,
    });
    loaded.runtime.flagValues.set("target", target);
    await runner.emit({ type: "agent_start" });
    assertEquals(errors.map(({ extensionPath, event, error }) => ({ extensionPath, event, error })), [{
      extensionPath: entry,
      event: "agent_start",
      error: `permission denied: write ${target} (not granted to the extension)`,
    }]);
    await assertRejects(() => Deno.stat(target), "No such file");
  });
});

Deno.test("EXT-WORKER the user's extensionPermissions setting names an extension by folder; a bad declaration fails its load naming the file", async () => {
  await withPackage(undefined, async (dir, entry, cache) => {
    const loaded = await loadExtensions([{ path: entry, resolvedPath: entry }], {
      cwd: dir,
      cacheDir: cache,
      extensionPermissions: {
        setting: { "./pkg": { write: false } },
        settingsFile: join(dir, "settings.json"),
        agentDir: dir,
      },
    });
    assertEquals(loaded.errors, []);
    const target = join(dir, "t.txt");
    loaded.runtime.flagValues.set("target", target);
    const errors: string[] = [];
    const runner = new ExtensionRunner(loaded.extensions, () => ctx(dir));
    runner.onError((error) => errors.push(error.error));
    await runner.emit({ type: "agent_start" });
    assertEquals(errors, [`permission denied: write ${target} (not granted to the extension)`]);
  });
  await withPackage({ write: "no" }, async (dir, entry, cache) => {
    const loaded = await loadExtensions([{ path: entry, resolvedPath: entry }], {
      cwd: dir,
      cacheDir: cache,
    });
    assertEquals(loaded.errors, [{
      path: entry,
      error: `Failed to load extension: ${
        join(dir, "pkg", "package.json")
      }: "pi.permissions.write" must be true, false or a list of strings`,
    }]);
  });
});

Deno.test("EXT-WORKER declarations: unknown kinds are refused, undeclared kinds inherit, paths resolve against the declaring folder", () => {
  let message = "";
  try {
    parseExtensionPermissions({ hrtime: true }, "/p/package.json", "pi.permissions");
  } catch (error) {
    message = (error as Error).message;
  }
  assertEquals(
    message,
    `/p/package.json: "pi.permissions.hrtime" is not a permission (use read, write, net, run, env, sys)`,
  );
  assertEquals(
    workerPermissions(
      {
        permissions: { read: ["data", "~/x"], write: false, net: ["api.example.com"] },
        source: "",
        baseDir: "/p",
      },
      ["/cache"],
      "/home/me",
    ),
    {
      ffi: false,
      read: ["/p/data", "/home/me/x", "/cache"],
      write: false,
      net: ["api.example.com"],
      run: "inherit",
      env: "inherit",
      sys: "inherit",
    },
  );
});

Deno.test("EXT-WORKER a factory that throws in the Worker fails the load with its message; an error the extension leaves uncaught is its 'uncaught' error and the Worker goes on", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pi_worker_ext_" });
  try {
    const write = async (name: string, source: string) => {
      await Deno.mkdir(join(dir, name));
      await Deno.writeTextFile(
        join(dir, name, "package.json"),
        JSON.stringify({ pi: { permissions: { run: false } } }),
      );
      await Deno.writeTextFile(join(dir, name, "index.ts"), source);
      return join(dir, name, "index.ts");
    };
    const failing = await write(
      "failing",
      `export default function () { throw new Error("factory broke"); }`,
    );
    const leaking = await write(
      "leaking",
      `export default function (pi) {
        pi.on("agent_start", () => { setTimeout(() => { throw new Error("late"); }, 0); });
        pi.registerCommand("ping", { handler: async () => "pong" });
      }`,
    );
    const loaded = await loadExtensions([
      { path: failing, resolvedPath: failing },
      { path: leaking, resolvedPath: leaking },
    ], { cwd: dir, cacheDir: join(dir, "cache") });
    assertEquals(loaded.errors, [{ path: failing, error: "Failed to load extension: factory broke" }]);
    const reported: string[] = [];
    loaded.runtime.reportError = (error) => reported.push(`${error.event}: ${error.error}`);
    const runner = new ExtensionRunner(loaded.extensions, () => ctx(dir));
    await runner.emit({ type: "agent_start" });
    const deadline = Date.now() + 10_000;
    while (reported.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assertEquals(reported, ["uncaught: late"]);
    assertEquals(await runner.command("ping")!.handler("", ctx(dir)), "pong");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("EXT-WORKER dialogs are requests pi's UI answers, actions reach the session, and what cannot cross says so", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pi_worker_ext_" });
  try {
    await Deno.mkdir(join(dir, "ext"));
    await Deno.writeTextFile(
      join(dir, "ext", "package.json"),
      JSON.stringify({ pi: { permissions: { net: false } } }),
    );
    const entry = join(dir, "ext", "index.ts");
    await Deno.writeTextFile(
      entry,
      `export default function (pi) {
        pi.registerCommand("pick", {
          handler: async (_args, ctx) => {
            const choice = await ctx.ui.select("Pick one", ["a", "b"]);
            pi.appendEntry("picked", { choice });
            ctx.ui.notify("picked " + choice, "info");
            let manager;
            try { ctx.sessionManager; } catch (error) { manager = error.message; }
            return { choice, manager, prompt: ctx.getSystemPrompt(), tools: pi.getActiveTools() };
          },
        });
      }`,
    );
    const loaded = await loadExtensions([{ path: entry, resolvedPath: entry }], {
      cwd: dir,
      cacheDir: join(dir, "cache"),
    });
    assertEquals(loaded.errors, []);
    const seen: unknown[] = [];
    const hostCtx = {
      ...ctx(dir),
      ui: {
        select: (title: string, options: string[]) => {
          seen.push(["select", title, options]);
          return Promise.resolve("b");
        },
        notify: (message: string, type: string) => seen.push(["notify", message, type]),
      } as unknown as ExtensionContext["ui"],
    };
    loaded.runtime.actions = {
      appendEntry: (customType: string, data: unknown) => seen.push(["appendEntry", customType, data]),
      getActiveTools: () => ["read", "bash"],
      getSessionName: () => undefined,
      context: () => hostCtx,
    } as unknown as NonNullable<typeof loaded.runtime.actions>;
    const runner = new ExtensionRunner(loaded.extensions, () => hostCtx);
    assertEquals(await runner.command("pick")!.handler("", hostCtx), {
      choice: "b",
      manager: "ctx.sessionManager is not available to an extension running in a Worker yet",
      prompt: "base",
      tools: ["read", "bash"],
    });
    // Fire-and-forget messages arrive in order, before the command's answer.
    assertEquals(seen, [
      ["select", "Pick one", ["a", "b"]],
      ["appendEntry", "picked", { choice: "b" }],
      ["notify", "picked b", "info"],
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
