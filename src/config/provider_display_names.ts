/**
 * Human-readable names of built-in providers, shown in /login and the model selector.
 *
 * @module
 */

/** Display name per built-in provider id (providers not listed show their id). */
export const BUILT_IN_PROVIDER_DISPLAY_NAMES: Readonly<Record<string, string>> = {
  anthropic: "Anthropic",
  "amazon-bedrock": "Amazon Bedrock",
  "azure-openai-responses": "Azure OpenAI Responses",
  cerebras: "Cerebras",
  "cloudflare-ai-gateway": "Cloudflare AI Gateway",
  "cloudflare-workers-ai": "Cloudflare Workers AI",
  deepseek: "DeepSeek",
  fireworks: "Fireworks",
  google: "Google Gemini",
  "google-vertex": "Google Vertex AI",
  groq: "Groq",
  huggingface: "Hugging Face",
  "github-copilot": "GitHub Copilot",
  "kimi-coding": "Kimi For Coding",
  meta: "Meta",
  mistral: "Mistral",
  minimax: "MiniMax",
  "minimax-cn": "MiniMax (China)",
  moonshotai: "Moonshot AI",
  "moonshotai-cn": "Moonshot AI (China)",
  opencode: "OpenCode Zen",
  "opencode-go": "OpenCode Go",
  openai: "OpenAI",
  "openai-codex": "OpenAI Codex",
  openrouter: "OpenRouter",
  radius: "Radius",
  "vercel-ai-gateway": "Vercel AI Gateway",
  xai: "xAI",
  zai: "ZAI",
  xiaomi: "Xiaomi MiMo",
  "xiaomi-token-plan-cn": "Xiaomi MiMo Token Plan (China)",
  "xiaomi-token-plan-ams": "Xiaomi MiMo Token Plan (Amsterdam)",
  "xiaomi-token-plan-sgp": "Xiaomi MiMo Token Plan (Singapore)",
  // Providers 1.6.0 added, with its names.
  "ant-ling": "Ant Ling",
  azure: "Azure",
  baseten: "Baseten",
  nvidia: "NVIDIA",
  "qwen-token-plan": "Qwen Token Plan Team",
  "qwen-token-plan-cn": "Qwen Token Plan Team CN",
  "qwen-token-plan-individual": "Qwen Token Plan Individual",
  "qwen-token-plan-individual-cn": "Qwen Token Plan Individual CN",
  together: "Together",
  typesafe: "TypeSafe",
  "zai-coding-cn": "Z.AI Coding CN",
};
