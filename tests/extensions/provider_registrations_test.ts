/**
 * EXT-PROV-10/11: the queue behind `pi.registerProvider()` (src/extensions/provider_registrations.ts) and the
 * Worker case. While extensions load, registrations wait in order and `unregisterProvider` drops queued ones;
 * binding applies them, reporting each refused one as an error of its extension (1.6.0's `register_provider`)
 * and applying the rest; afterwards calls reach the target at once and throw to the caller. An extension
 * confined to a Worker gets a clear error instead of a registration that would be lost on the Worker's side.
 */
import { join } from "../../src/util/path.ts";
import { assertEquals } from "../support/assert.ts";
import { ExtensionProviderRegistrations } from "../../src/extensions/provider_registrations.ts";
import type { ProviderConfigInput } from "../../src/config/model_registry.ts";
import { loadExtensions } from "../../src/extensions/loader.ts";
import { ExtensionRunner } from "../../src/extensions/runner.ts";
import { bareExtensionContext } from "../support/extension_context.ts";

Deno.test("EXT-PROV-10 queued registrations: in order, unregister drops queued ones, refused ones are extension errors", () => {
  const registrations = new ExtensionProviderRegistrations();
  const calls: string[] = [];
  registrations.register("a", { baseUrl: "http://a" }, "/ext/one.ts");
  registrations.register("bad", { baseUrl: "http://bad" }, "/ext/two.ts");
  registrations.register("dropped", { baseUrl: "http://d" }, "/ext/one.ts");
  registrations.unregister("dropped");
  const target = {
    registerProvider(name: string, config: ProviderConfigInput) {
      if (name === "bad") throw new Error(`Provider ${name}: refused`);
      calls.push(`register ${name} ${config.baseUrl}`);
    },
    unregisterProvider(name: string) {
      calls.push(`unregister ${name}`);
    },
  };
  const errors = registrations.bind(target).map(({ stack: _stack, ...error }) => error);
  assertEquals(errors, [{
    extensionPath: "/ext/two.ts",
    event: "register_provider",
    error: "Provider bad: refused",
  }]);
  assertEquals(calls, ["register a http://a"]);
  // Bound: at once, and a refused config throws to the caller.
  registrations.register("b", { baseUrl: "http://b" }, "/ext/one.ts");
  registrations.unregister("a");
  let thrown: string | undefined;
  try {
    registrations.register("bad", {}, "/ext/one.ts");
  } catch (error) {
    thrown = (error as Error).message;
  }
  assertEquals(thrown, "Provider bad: refused");
  assertEquals(calls, ["register a http://a", "register b http://b", "unregister a"]);
});

Deno.test("EXT-PROV-11 an extension in a Worker is told pi.registerProvider() is not available there", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pi_prov_worker_" });
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
        const errors = [];
        for (const call of [() => pi.registerProvider("p", { baseUrl: "http://x" }), () => pi.unregisterProvider("p")]) {
          try { call(); } catch (error) { errors.push(error.message); }
        }
        pi.registerCommand("errors", { handler: async () => errors });
      }`,
    );
    const loaded = await loadExtensions([{ path: entry, resolvedPath: entry }], {
      cwd: dir,
      cacheDir: join(dir, "cache"),
    });
    assertEquals(loaded.errors, []);
    // What the Worker is sent with a call: a snapshot of the session's context.
    const ctx = bareExtensionContext(dir, { getSystemPrompt: () => "" });
    const runner = new ExtensionRunner(loaded.extensions, () => ctx);
    assertEquals(await runner.command("errors")!.handler("", ctx), [
      "pi.registerProvider() is not available to an extension running in a Worker yet",
      "pi.unregisterProvider() is not available to an extension running in a Worker yet",
    ]);
    // Nothing was queued on pi's side either.
    assertEquals(
      loaded.runtime.providers?.bind({ registerProvider: () => {}, unregisterProvider: () => {} }),
      [],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
