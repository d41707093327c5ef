/**
 * API keys from the environment, per provider, with the variable names the reference uses so
 * an existing shell setup keeps working.
 *
 * @module
 */
import { readEnv } from "../util/env.ts";
import { existsSync } from "../util/fs.ts";
import { join } from "../util/path.ts";

/** Marker returned for providers authenticated by ambient credentials rather than a key. */
export const AMBIENT_CREDENTIALS = "<authenticated>";

/**
 * Environment values scoped to one request or lookup (pi-ai's `ProviderEnv`). They win over
 * the process environment; a name set to "" here counts as unset instead of falling through
 * to the process, so callers (and tests) can state a whole environment explicitly.
 */
export type ProviderEnv = Record<string, string>;

const ENV_VARS: Record<string, readonly string[]> = {
  "github-copilot": ["COPILOT_GITHUB_TOKEN"],
  // An OAuth token wins over a plain key.
  // (pi 1.x also accepts ANTHROPIC_AUTH_TOKEN for bearer-auth gateways; not supported here yet.)
  anthropic: ["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"],
  "ant-ling": ["ANT_LING_API_KEY"],
  // Qwen Token Plan: the per-plan variable first, then the region variable both plans shared.
  "qwen-token-plan": ["QWEN_TOKEN_PLAN_TEAM_API_KEY", "QWEN_TOKEN_PLAN_API_KEY"],
  "qwen-token-plan-cn": ["QWEN_TOKEN_PLAN_TEAM_CN_API_KEY", "QWEN_TOKEN_PLAN_CN_API_KEY"],
  "qwen-token-plan-individual": ["QWEN_TOKEN_PLAN_INDIVIDUAL_API_KEY", "QWEN_TOKEN_PLAN_API_KEY"],
  "qwen-token-plan-individual-cn": ["QWEN_TOKEN_PLAN_INDIVIDUAL_CN_API_KEY", "QWEN_TOKEN_PLAN_CN_API_KEY"],
  openai: ["OPENAI_API_KEY"],
  azure: ["AZURE_OPENAI_API_KEY"],
  nvidia: ["NVIDIA_API_KEY"],
  deepseek: ["DEEPSEEK_API_KEY"],
  google: ["GEMINI_API_KEY"],
  "google-vertex": ["GOOGLE_CLOUD_API_KEY"],
  groq: ["GROQ_API_KEY"],
  cerebras: ["CEREBRAS_API_KEY"],
  xai: ["XAI_API_KEY"],
  typesafe: ["TYPESAFE_API_KEY"],
  radius: ["RADIUS_API_KEY"],
  openrouter: ["OPENROUTER_API_KEY"],
  "vercel-ai-gateway": ["AI_GATEWAY_API_KEY"],
  zai: ["ZAI_API_KEY"],
  "zai-coding-cn": ["ZAI_CODING_CN_API_KEY"],
  mistral: ["MISTRAL_API_KEY"],
  minimax: ["MINIMAX_API_KEY"],
  "minimax-cn": ["MINIMAX_CN_API_KEY"],
  moonshotai: ["MOONSHOT_API_KEY"],
  "moonshotai-cn": ["MOONSHOT_API_KEY"],
  huggingface: ["HF_TOKEN"],
  fireworks: ["FIREWORKS_API_KEY"],
  together: ["TOGETHER_API_KEY"],
  baseten: ["BASETEN_API_KEY"],
  opencode: ["OPENCODE_API_KEY"],
  "opencode-go": ["OPENCODE_API_KEY"],
  "kimi-coding": ["KIMI_API_KEY"],
  meta: ["META_API_KEY"],
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

/**
 * One environment value: from `scoped` when it names the variable, else from the process
 * environment; undefined when unset or empty.
 */
export function providerEnvValue(name: string, scoped?: ProviderEnv): string | undefined {
  if (scoped && Object.hasOwn(scoped, name)) return scoped[name] || undefined;
  return readEnv(name) || undefined;
}

/** The environment variables that can hold a key for `provider`, in priority order. */
export function getApiKeyEnvVars(provider: string): readonly string[] | undefined {
  return ENV_VARS[provider];
}

/** The variables for `provider` that are set (non-empty), in priority order; undefined if none. */
export function findEnvKeys(provider: string, env?: ProviderEnv): string[] | undefined {
  const found = (ENV_VARS[provider] ?? []).filter((name) => providerEnvValue(name, env) !== undefined);
  return found.length > 0 ? found : undefined;
}

function hasVertexAdcCredentials(env?: ProviderEnv): boolean {
  const explicit = providerEnvValue("GOOGLE_APPLICATION_CREDENTIALS", env);
  if (explicit) return existsSync(explicit);
  const home = providerEnvValue("HOME", env) ?? providerEnvValue("USERPROFILE", env);
  return home !== undefined &&
    existsSync(join(home, ".config", "gcloud", "application_default_credentials.json"));
}

/**
 * False for a Cloudflare provider whose account id (and, for AI Gateway, gateway id) is not set:
 * as in pi-ai 1.6.0, its key alone does not make the provider usable (its URLs need both).
 */
function hasCloudflareIds(provider: string, env?: ProviderEnv): boolean {
  if (provider !== "cloudflare-workers-ai" && provider !== "cloudflare-ai-gateway") return true;
  if (!providerEnvValue("CLOUDFLARE_ACCOUNT_ID", env)) return false;
  return provider === "cloudflare-workers-ai" || providerEnvValue("CLOUDFLARE_GATEWAY_ID", env) !== undefined;
}

/**
 * The API key for `provider` from the environment (`env` first, then the process). Vertex
 * (application default credentials plus project and location) and Bedrock (any AWS credential
 * source) yield "<authenticated>" when configured without a key.
 */
export function getEnvApiKey(provider: string, env?: ProviderEnv): string | undefined {
  if (!hasCloudflareIds(provider, env)) return undefined;
  const keyVar = findEnvKeys(provider, env)?.[0];
  if (keyVar) return providerEnvValue(keyVar, env);
  const value = (name: string) => providerEnvValue(name, env);
  if (provider === "google-vertex") {
    const hasProject = !!(value("GOOGLE_CLOUD_PROJECT") || value("GCLOUD_PROJECT"));
    const hasLocation = !!value("GOOGLE_CLOUD_LOCATION");
    if (hasProject && hasLocation && hasVertexAdcCredentials(env)) return AMBIENT_CREDENTIALS;
  }
  if (provider === "amazon-bedrock") {
    const keyPair = !!(value("AWS_ACCESS_KEY_ID") && value("AWS_SECRET_ACCESS_KEY"));
    if (keyPair || AWS_CREDENTIAL_VARS.some((name) => value(name) !== undefined)) return AMBIENT_CREDENTIALS;
  }
  return undefined;
}
