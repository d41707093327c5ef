/**
 * CLI-15 and issue 12: which built-in providers a resumed one-shot run loads. `--model` wins over a
 * resumed session's model, so `-c -p --model provider/id` loads what `-p --model provider/id` does;
 * without `--model` the run restores the session's model and loads only its provider, when the
 * loaded providers restore it exactly as sdk.ts does (known, with credentials, no virtual models).
 */
import { assertEquals } from "../support/assert.ts";
import { parseArgs } from "../../src/cli/args.ts";
import { catalogScope, scopeResolvesModel } from "../../src/cli/catalog_scope.ts";
import { loadBuiltinModels } from "../../src/ai/model_catalog.ts";
import { AuthStorage } from "../../src/config/auth_storage.ts";
import { ModelRegistry } from "../../src/config/model_registry.ts";

const SONNET = { provider: "anthropic", modelId: "claude-sonnet-4-5" };

Deno.test("CLI-15 -c/--session/--fork -p --model provider/id loads the providers -p --model loads", () => {
  const fresh = catalogScope(parseArgs(["-p", "--model", "anthropic/claude-sonnet-4-5", "hi"]));
  assertEquals(fresh, ["anthropic"]);
  for (const resume of [["-c"], ["--session", "x.jsonl"], ["--fork", "x.jsonl"]]) {
    const args = parseArgs([...resume, "-p", "--model", "anthropic/claude-sonnet-4-5", "hi"]);
    assertEquals(catalogScope(args, SONNET), fresh, resume.join(" "));
    assertEquals(catalogScope(args, null), fresh, resume.join(" "));
  }
});

Deno.test("CLI-15 -c -p without --model loads only the provider of the session's model", () => {
  const args = parseArgs(["-c", "-p", "hi"]);
  assertEquals(catalogScope(args, SONNET), ["anthropic"]);
  // A models.json provider is always loaded: no built-in one is needed.
  assertEquals(catalogScope(args, { provider: "my-proxy", modelId: "m" }), []);
  // No model in the session (or no messages): the initial model may be any provider's.
  assertEquals(catalogScope(args, null), undefined);
  // The interactive mode and RPC keep the whole catalog; so do --models and --list-models.
  assertEquals(catalogScope(parseArgs(["-c"]), SONNET), undefined);
  assertEquals(catalogScope(parseArgs(["-c", "--mode", "rpc"]), SONNET), undefined);
  assertEquals(catalogScope(parseArgs(["-c", "-p", "--models", "claude*", "hi"]), SONNET), undefined);
});

Deno.test("CLI-15 -c -p without --model: the scope settles it only when the session's model restores", async () => {
  await loadBuiltinModels(["anthropic"]);
  const args = parseArgs(["-c", "-p", "hi"]);
  const withKey = ModelRegistry.inMemory(AuthStorage.inMemory({ anthropic: { type: "api_key", key: "k" } }));
  assertEquals(scopeResolvesModel(args, withKey, SONNET), true);
  // Without credentials sdk.ts falls back to another model: everything must be loaded.
  const noKey = ModelRegistry.inMemory(
    AuthStorage.inMemory({}, { env: { ANTHROPIC_API_KEY: "", ANTHROPIC_OAUTH_TOKEN: "" } }),
  );
  assertEquals(scopeResolvesModel(args, noKey, SONNET), false);
  assertEquals(scopeResolvesModel(args, withKey, { provider: "anthropic", modelId: "no-such-model" }), false);
  assertEquals(scopeResolvesModel(args, withKey, null), false);
});
