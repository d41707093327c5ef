/**
 * Where an Azure OpenAI request goes, as pi-ai 1.6.0 resolves it: the base URL (option,
 * AZURE_OPENAI_BASE_URL, a resource name from AZURE_OPENAI_RESOURCE_NAME, else the model's),
 * normalised to `/openai/v1` on Azure hosts; the `api-version` (option, AZURE_OPENAI_API_VERSION,
 * default "v1"); and the deployment sent as the model (option, or the model's entry in
 * AZURE_OPENAI_DEPLOYMENT_NAME_MAP, `model=deployment,…`; else the model id).
 *
 * @module
 */
import { providerEnvValue } from "../env_api_keys.ts";
import type { Model } from "../types.ts";

/** Endpoint options of the Azure APIs (pi-ai 1.6.0's `AzureEndpointOptions`). */
export interface AzureEndpointOptions {
  /** Full base URL, e.g. `https://my-resource.openai.azure.com/openai/v1`. */
  azureBaseUrl?: string;
  /** Resource name: the base URL becomes `https://<name>.openai.azure.com/openai/v1`. */
  azureResourceName?: string;
  /** The `api-version` query parameter (default "v1"). */
  azureApiVersion?: string;
  /** Deployment to send as the model. */
  azureDeploymentName?: string;
  /** Request-scoped environment. */
  env?: Record<string, string>;
}

const DEFAULT_API_VERSION = "v1";

function deploymentMap(value: string | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const entry of (value ?? "").split(",")) {
    const trimmed = entry.trim();
    if (!trimmed) continue;
    const [modelId, deployment] = trimmed.split("=", 2);
    if (modelId && deployment) map.set(modelId.trim(), deployment.trim());
  }
  return map;
}

/** The deployment name sent as the request's `model`. */
export function resolveDeploymentName(model: Model, options?: AzureEndpointOptions): string {
  if (options?.azureDeploymentName) return options.azureDeploymentName;
  return deploymentMap(providerEnvValue("AZURE_OPENAI_DEPLOYMENT_NAME_MAP", options?.env)).get(model.id) ||
    model.id;
}

function normaliseBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl.trim().replace(/\/+$/, ""));
  } catch {
    throw new Error(`Invalid Azure OpenAI base URL: ${baseUrl}`);
  }
  const azureHost = [".openai.azure.com", ".cognitiveservices.azure.com", ".ai.azure.com"].some((suffix) =>
    url.hostname.endsWith(suffix)
  );
  const path = url.pathname.replace(/\/+$/, "");
  // Azure hosts serve the v1 API under /openai/v1; a bare resource URL means that.
  if (azureHost && ["", "/", "/openai", "/openai/v1/responses"].includes(path)) {
    url.pathname = "/openai/v1";
    url.search = "";
  }
  return url.toString().replace(/\/+$/, "");
}

/** The base URL, or an error saying how to configure one. */
export function resolveAzureBaseUrl(model: Model, options?: AzureEndpointOptions): string {
  const explicit = options?.azureBaseUrl?.trim() ||
    providerEnvValue("AZURE_OPENAI_BASE_URL", options?.env)?.trim() || undefined;
  const resource = options?.azureResourceName || providerEnvValue("AZURE_OPENAI_RESOURCE_NAME", options?.env);
  const base = explicit ?? (resource ? `https://${resource}.openai.azure.com/openai/v1` : undefined) ??
    (model.baseUrl || undefined);
  if (!base) {
    throw new Error(
      "Azure OpenAI base URL is required. Set AZURE_OPENAI_BASE_URL or AZURE_OPENAI_RESOURCE_NAME, or pass azureBaseUrl, azureResourceName, or model.baseUrl.",
    );
  }
  return normaliseBaseUrl(base);
}

/** The `api-version` to send. */
export function resolveAzureApiVersion(options?: AzureEndpointOptions): string {
  return options?.azureApiVersion || providerEnvValue("AZURE_OPENAI_API_VERSION", options?.env) ||
    DEFAULT_API_VERSION;
}
