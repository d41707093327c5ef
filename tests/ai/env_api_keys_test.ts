import {
  AMBIENT_CREDENTIALS,
  findEnvKeys,
  getApiKeyEnvVars,
  getEnvApiKey,
} from "../../src/ai/env_api_keys.ts";
import { assertEquals } from "../support/assert.ts";

/** Runs `fn` with the given variables set (or removed for undefined), restoring them afterwards. */
function withEnv(vars: Record<string, string | undefined>, fn: () => void): void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, Deno.env.get(k)]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
  };
  apply(vars);
  try {
    fn();
  } finally {
    apply(saved);
  }
}

Deno.test("PROV-03 anthropic prefers ANTHROPIC_OAUTH_TOKEN over ANTHROPIC_API_KEY", () => {
  withEnv({ ANTHROPIC_OAUTH_TOKEN: "sk-ant-oat-1", ANTHROPIC_API_KEY: "sk-ant-api-1" }, () => {
    assertEquals(getEnvApiKey("anthropic"), "sk-ant-oat-1");
    assertEquals(findEnvKeys("anthropic"), ["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"]);
  });
  withEnv({ ANTHROPIC_OAUTH_TOKEN: "", ANTHROPIC_API_KEY: "sk-ant-api-1" }, () => {
    assertEquals(getEnvApiKey("anthropic"), "sk-ant-api-1");
  });
});

Deno.test("PROV-03 provider variable names follow the reference", () => {
  assertEquals(getApiKeyEnvVars("google"), ["GEMINI_API_KEY"]);
  assertEquals(getApiKeyEnvVars("github-copilot"), ["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"]);
  assertEquals(getApiKeyEnvVars("moonshotai-cn"), ["MOONSHOT_API_KEY"]);
  assertEquals(getApiKeyEnvVars("huggingface"), ["HF_TOKEN"]);
  assertEquals(getApiKeyEnvVars("vercel-ai-gateway"), ["AI_GATEWAY_API_KEY"]);
  assertEquals(getApiKeyEnvVars("amazon-bedrock"), undefined);
  withEnv({ GEMINI_API_KEY: "g-key" }, () => assertEquals(getEnvApiKey("google"), "g-key"));
  withEnv({ MISTRAL_API_KEY: undefined }, () => assertEquals(getEnvApiKey("mistral"), undefined));
  assertEquals(getEnvApiKey("unknown-provider"), undefined);
});

Deno.test("PROV-03 Bedrock accepts any AWS credential source as ambient credentials", () => {
  const none = {
    AWS_PROFILE: undefined,
    AWS_ACCESS_KEY_ID: undefined,
    AWS_SECRET_ACCESS_KEY: undefined,
    AWS_BEARER_TOKEN_BEDROCK: undefined,
    AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: undefined,
    AWS_CONTAINER_CREDENTIALS_FULL_URI: undefined,
    AWS_WEB_IDENTITY_TOKEN_FILE: undefined,
  };
  withEnv(none, () => assertEquals(getEnvApiKey("amazon-bedrock"), undefined));
  withEnv(
    { ...none, AWS_ACCESS_KEY_ID: "id" },
    () => assertEquals(getEnvApiKey("amazon-bedrock"), undefined),
  );
  withEnv({ ...none, AWS_ACCESS_KEY_ID: "id", AWS_SECRET_ACCESS_KEY: "s" }, () => {
    assertEquals(getEnvApiKey("amazon-bedrock"), AMBIENT_CREDENTIALS);
  });
  withEnv(
    { ...none, AWS_PROFILE: "dev" },
    () => assertEquals(getEnvApiKey("amazon-bedrock"), "<authenticated>"),
  );
});

Deno.test("PROV-03 Vertex needs credentials file, project and location", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const creds = `${dir}/adc.json`;
    await Deno.writeTextFile(creds, "{}");
    const base = {
      GOOGLE_CLOUD_API_KEY: undefined,
      GCLOUD_PROJECT: undefined,
      GOOGLE_APPLICATION_CREDENTIALS: creds,
    };
    withEnv({ ...base, GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "us-central1" }, () => {
      assertEquals(getEnvApiKey("google-vertex"), AMBIENT_CREDENTIALS);
    });
    withEnv({ ...base, GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: undefined }, () => {
      assertEquals(getEnvApiKey("google-vertex"), undefined);
    });
    withEnv({
      ...base,
      GOOGLE_APPLICATION_CREDENTIALS: `${dir}/missing.json`,
      GOOGLE_CLOUD_PROJECT: "p",
      GOOGLE_CLOUD_LOCATION: "l",
    }, () => {
      assertEquals(getEnvApiKey("google-vertex"), undefined);
    });
    withEnv({ GOOGLE_CLOUD_API_KEY: "vk" }, () => assertEquals(getEnvApiKey("google-vertex"), "vk"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
