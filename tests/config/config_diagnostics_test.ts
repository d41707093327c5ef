/**
 * Broken auth.json and models.json are reported at start-up with the file, the line and the problem, and
 * never with a credential (1.6.0 shows "No API key found" / "Model not found" instead).
 */
import { assertEquals } from "../support/assert.ts";
import { join } from "../../src/util/path.ts";
import { AuthStorage } from "../../src/config/auth_storage.ts";
import { configLoadDiagnostics } from "../../src/config/config_diagnostics.ts";
import { ModelRegistry } from "../../src/config/model_registry.ts";

Deno.test("AUTH-01 PROV-06 broken auth.json and models.json become start-up warnings naming file and line", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-config-diag-" }));
  try {
    const authPath = join(dir, "auth.json");
    const modelsPath = join(dir, "models.json");
    Deno.writeTextFileSync(authPath, '{"anthropic": {"type": "api_key", "key": "sk-ant-secret"},');
    Deno.writeTextFileSync(
      modelsPath,
      '{"providers": {"local": {"baseUrl": "http://localhost:1/v1", "apiKey": "sk-local-secret",}\n',
    );
    const auth = AuthStorage.create(authPath);
    const registry = ModelRegistry.create(auth, modelsPath);
    const diagnostics = configLoadDiagnostics(auth, registry);
    assertEquals(diagnostics, [
      {
        type: "warning",
        message:
          `Cannot use auth.json (${authPath}): line 1, column 59: Expected double-quoted property name. ` +
          "Its credentials are ignored and the file is left as it is until you fix it.",
      },
      {
        type: "warning",
        message:
          "Failed to parse models.json: line 2, column 1: Expected ',' or '}' after property value\n\n" +
          `File: ${modelsPath}`,
      },
    ]);
    assertEquals(diagnostics.some((d) => d.message.includes("secret")), false);
    // A schema error lists every problem; a bad provider names itself and the file.
    Deno.writeTextFileSync(authPath, "{}");
    Deno.writeTextFileSync(
      modelsPath,
      JSON.stringify({ providers: { local: { baseUrl: 5, apiKey: "sk-x" } } }),
    );
    assertEquals(
      configLoadDiagnostics(AuthStorage.create(authPath), ModelRegistry.create(auth, modelsPath)),
      [{
        type: "warning",
        message:
          `Invalid models.json schema:\n  - providers.local.baseUrl: must be string\n\nFile: ${modelsPath}`,
      }],
    );
    Deno.writeTextFileSync(
      modelsPath,
      JSON.stringify({ providers: { local: { apiKey: "k", models: [{ id: "m" }] } } }),
    );
    assertEquals(
      configLoadDiagnostics(AuthStorage.create(authPath), ModelRegistry.create(auth, modelsPath)),
      [{
        type: "warning",
        message:
          'Provider "local": Provider local, model m: no "api" specified. Set at provider or model level.' +
          `\n\nFile: ${modelsPath}`,
      }],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("AUTH-01 credentials stored under azure-openai-responses are pointed at the azure rename", () => {
  const auth = AuthStorage.inMemory({ "azure-openai-responses": { type: "api_key", key: "k" } });
  assertEquals(configLoadDiagnostics(auth, ModelRegistry.inMemory(auth)), [{
    type: "warning",
    message: 'auth.json has credentials for "azure-openai-responses", which is now called "azure": ' +
      "rename the key in auth.json (or log in again) to use them.",
  }]);
  const both = AuthStorage.inMemory({
    "azure-openai-responses": { type: "api_key", key: "k" },
    azure: { type: "api_key", key: "k" },
  });
  assertEquals(configLoadDiagnostics(both, ModelRegistry.inMemory(both)), []);
});
