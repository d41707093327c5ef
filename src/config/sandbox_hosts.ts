/**
 * The hosts of the built-in model catalogue's base URLs, which a confined pi may reach. Kept as a
 * list so that start-up does not load the catalogue (43 JSON files) to confine the process;
 * tests/config/sandbox_hosts_test.ts checks it against src/ai/models/ and fails when they differ.
 *
 * Base URLs with placeholders (Cloudflare account ids, Vertex locations) and Azure's, which come
 * from the environment, are not here: name such hosts in the `sandbox.allowNet` setting.
 *
 * @module
 */

/** Hosts of the built-in providers, sorted. */
export const BUILTIN_PROVIDER_HOSTS: readonly string[] = [
  "ai-gateway.vercel.sh",
  "api.ant-ling.com",
  "api.anthropic.com",
  "api.cerebras.ai",
  "api.deepseek.com",
  "api.fireworks.ai",
  "api.groq.com",
  "api.individual.githubcopilot.com",
  "api.kimi.com",
  "api.meta.ai",
  "api.minimax.io",
  "api.minimaxi.com",
  "api.mistral.ai",
  "api.moonshot.ai",
  "api.moonshot.cn",
  "api.openai.com",
  "api.together.ai",
  "api.x.ai",
  "api.xiaomimimo.com",
  "api.z.ai",
  "bedrock-runtime.eu-central-1.amazonaws.com",
  "bedrock-runtime.us-east-1.amazonaws.com",
  "chatgpt.com",
  "generativelanguage.googleapis.com",
  "inference.baseten.co",
  "integrate.api.nvidia.com",
  "open.bigmodel.cn",
  "opencode.ai",
  "openrouter.ai",
  "radius.pi.dev",
  "router.huggingface.co",
  "token-plan-ams.xiaomimimo.com",
  "token-plan-cn.xiaomimimo.com",
  "token-plan-sgp.xiaomimimo.com",
  "token-plan.maas.qianwenaiapi.com",
  "token-plan.maas.qwencloudapi.com",
];
