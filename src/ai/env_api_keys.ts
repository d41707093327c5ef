/**
 * API keys from the environment, per provider, with the variable names the reference uses so
 * an existing shell setup keeps working.
 *
 * @module
 */
import { existsSync } from "../util/fs.ts";
import { join } from "../util/path.ts";

/** Marker returned for providers authenticated by ambient credentials rather than a key. */
export const AMBIENT_CREDENTIALS = "<authenticated>";

const ENV_VARS: Record<string, readonly string[]> = {
  "github-copilot": ["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"],
  // An OAuth token wins over a plain key.
  anthropic: ["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"],
  openai: ["OPENAI_API_KEY"],
  "azure-openai-responses": ["AZURE_OPENAI_API_KEY"],
  deepseek: ["DEEPSEEK_API_KEY"],
  google: ["GEMINI_API_KEY"],
  "google-vertex": ["GOOGLE_CLOUD_API_KEY"],
  groq: ["GROQ_API_KEY"],
  cerebras: ["CEREBRAS_API_KEY"],
  xai: ["XAI_API_KEY"],
  openrouter: ["OPENROUTER_API_KEY"],
  "vercel-ai-gateway": ["AI_GATEWAY_API_KEY"],
  zai: ["ZAI_API_KEY"],
  mistral: ["MISTRAL_API_KEY"],
  minimax: ["MINIMAX_API_KEY"],
  "minimax-cn": ["MINIMAX_CN_API_KEY"],
  moonshotai: ["MOONSHOT_API_KEY"],
  "moonshotai-cn": ["MOONSHOT_API_KEY"],
  huggingface: ["HF_TOKEN"],
  fireworks: ["FIREWORKS_API_KEY"],
  opencode: ["OPENCODE_API_KEY"],
  "opencode-go": ["OPENCODE_API_KEY"],
  "kimi-coding": ["KIMI_API_KEY"],
  "cloudflare-workers-ai": ["CLOUDFLARE_API_KEY"],
  "cloudflare-ai-gateway": ["CLOUDFLARE_API_KEY"],
  xiaomi: ["XIAOMI_API_KEY"],
  "xiaomi-token-plan-cn": ["XIAOMI_TOKEN_PLAN_CN_API_KEY"],
  "xiaomi-token-plan-ams": ["XIAOMI_TOKEN_PLAN_AMS_API_KEY"],
  "xiaomi-token-plan-sgp": ["XIAOMI_TOKEN_PLAN_SGP_API_KEY"],
};

const AWS_CREDENTIAL_VARS = [
  "AWS_PROFILE",
  "AWS_BEARER_TOKEN_BEDROCK",
  "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
  "AWS_CONTAINER_CREDENTIALS_FULL_URI",
  "AWS_WEB_IDENTITY_TOKEN_FILE",
];

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    // Without env permission nothing is configured.
    return undefined;
  }
}

/** The environment variables that can hold a key for `provider`, in priority order. */
export function getApiKeyEnvVars(provider: string): readonly string[] | undefined {
  return ENV_VARS[provider];
}

/** The variables for `provider` that are set (non-empty), in priority order; undefined if none. */
export function findEnvKeys(provider: string): string[] | undefined {
  const found = (ENV_VARS[provider] ?? []).filter((name) => env(name) !== undefined);
  return found.length > 0 ? found : undefined;
}

function hasVertexAdcCredentials(): boolean {
  const explicit = env("GOOGLE_APPLICATION_CREDENTIALS");
  if (explicit) return existsSync(explicit);
  const home = env("HOME") ?? env("USERPROFILE");
  return home !== undefined &&
    existsSync(join(home, ".config", "gcloud", "application_default_credentials.json"));
}

/**
 * The API key for `provider` from the environment. Vertex (application default credentials
 * plus project and location) and Bedrock (any AWS credential source) yield "<authenticated>"
 * when configured without a key.
 */
export function getEnvApiKey(provider: string): string | undefined {
  const first = findEnvKeys(provider)?.[0];
  if (first) return env(first);
  if (provider === "google-vertex") {
    const hasProject = !!(env("GOOGLE_CLOUD_PROJECT") || env("GCLOUD_PROJECT"));
    const hasLocation = !!env("GOOGLE_CLOUD_LOCATION");
    if (hasProject && hasLocation && hasVertexAdcCredentials()) return AMBIENT_CREDENTIALS;
  }
  if (provider === "amazon-bedrock") {
    const keyPair = !!(env("AWS_ACCESS_KEY_ID") && env("AWS_SECRET_ACCESS_KEY"));
    if (keyPair || AWS_CREDENTIAL_VARS.some((name) => env(name) !== undefined)) return AMBIENT_CREDENTIALS;
  }
  return undefined;
}
