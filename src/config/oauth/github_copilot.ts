/**
 * GitHub Copilot login (pi 1.6.0's `github-copilot` OAuth): the GitHub device flow (optionally on a
 * GitHub Enterprise domain), then the exchange of the GitHub token for a short-lived Copilot token,
 * which is what requests carry. The stored `refresh` is the GitHub token; "refreshing" asks for a new
 * Copilot token with it. The Copilot token names the account's API host (`proxy-ep=`), which becomes
 * the models' base URL, and the account's model list decides which Copilot models are offered.
 *
 * Tests point every request at a fake server with `PI_GITHUB_COPILOT_OAUTH_URL` (an origin such as
 * `http://127.0.0.1:8080`): each URL keeps its path and loses its host.
 *
 * @module
 */

import type { Api, Model } from "../../ai/types.ts";
import type { OAuthCredentials, OAuthLoginCallbacks, OAuthProviderInterface } from "../oauth_registry.ts";
import { abortableSleep, pollDeviceCodeFlow } from "./device_code.ts";
import { oauthEndpoint } from "./endpoint_override.ts";
import { loginSignal, showDeviceCode } from "./login_input.ts";
import { trustedHttpUrl } from "./trusted_url.ts";

/** VS Code Copilot Chat's public OAuth client id (kept encoded as in 1.6.0). */
const CLIENT_ID = atob("SXYxLmI1MDdhMDhjODdlY2ZlOTg=");
/** The headers Copilot's endpoints expect from an editor integration. */
const COPILOT_HEADERS: Record<string, string> = {
  "User-Agent": "GitHubCopilotChat/0.35.0",
  "Editor-Version": "vscode/1.107.0",
  "Editor-Plugin-Version": "copilot-chat/0.35.0",
  "Copilot-Integration-Id": "vscode-chat",
};
/** Headers of the two device-flow requests to GitHub itself. */
const GITHUB_FORM_HEADERS: Record<string, string> = {
  Accept: "application/json",
  "Content-Type": "application/x-www-form-urlencoded",
  "User-Agent": COPILOT_HEADERS["User-Agent"],
};
const COPILOT_API_VERSION = "2026-06-01";
const DEFAULT_API_BASE = "https://api.individual.githubcopilot.com";
/** The Copilot token is renewed five minutes before GitHub says it expires. */
const EXPIRY_MARGIN_MS = 5 * 60 * 1000;
/** Every Copilot API request gives up after this long. */
const REQUEST_TIMEOUT_MS = 5000;
/** Environment variable (tests only) that sends every request of this flow to another origin. */
export const GITHUB_COPILOT_OAUTH_URL_ENV = "PI_GITHUB_COPILOT_OAUTH_URL";

type RetryPolicy = { maxRetries: number; maxElapsedMs: number };

/** `url`, or the same path on the test origin when one is set. */
function endpoint(url: string): string {
  return oauthEndpoint(url, GITHUB_COPILOT_OAUTH_URL_ENV);
}

/** The host name of a GitHub Enterprise URL or domain, or null when it names none. */
export function normalizeGitHubDomain(input: string): string | null {
  const trimmed = input.trim();
  if (!trimmed) return null;
  try {
    return (trimmed.includes("://") ? new URL(trimmed) : new URL(`https://${trimmed}`)).hostname;
  } catch {
    return null;
  }
}

function urls(domain: string) {
  return {
    deviceCode: endpoint(`https://${domain}/login/device/code`),
    accessToken: endpoint(`https://${domain}/login/oauth/access_token`),
    copilotToken: endpoint(`https://api.${domain}/copilot_internal/v2/token`),
  };
}

/**
 * The Copilot API base URL for a Copilot token: its `proxy-ep=proxy.X` becomes `https://api.X`; without
 * one, the enterprise's `copilot-api.<domain>` or the individual endpoint.
 */
export function getGitHubCopilotBaseUrl(token: string | undefined, enterpriseDomain?: string): string {
  const proxy = token?.match(/proxy-ep=([^;]+)/)?.[1];
  if (proxy) return `https://${proxy.replace(/^proxy\./, "api.")}`;
  if (enterpriseDomain) return `https://copilot-api.${enterpriseDomain}`;
  return DEFAULT_API_BASE;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === "object" ? value as Record<string, unknown> : undefined;
}

/** An HTTP failure as 1.6.0 words it: `<status> <statusText>: <body>`. */
async function httpError(response: Response): Promise<Error> {
  return new Error(`${response.status} ${response.statusText}: ${await response.text()}`);
}

async function fetchJson(url: string, init: RequestInit): Promise<unknown> {
  const response = await fetch(url, init);
  if (!response.ok) throw await httpError(response);
  return await response.json();
}

/** Models the account may use, and catalog models whose policy still has to be switched on. */
interface CopilotModelCatalog {
  availableModelIds: string[];
  policyModelIds: string[];
}

/**
 * Reads Copilot's `/models` answer: models without tool calls are skipped; "available" are those
 * enabled in the model picker and not disabled by policy. Individual accounts that report no picker
 * model at all fall back to the models whose policy is enabled (`allowPolicyFallback`).
 */
export function parseGitHubCopilotModelCatalog(
  raw: unknown,
  allowPolicyFallback: boolean,
  knownModelIds: ReadonlySet<string>,
): CopilotModelCatalog {
  const data = asRecord(raw)?.data;
  if (!Array.isArray(data)) throw new Error("Invalid Copilot models response");
  const models = data.flatMap((entry) => {
    const item = asRecord(entry);
    if (!item || typeof item.id !== "string") return [];
    if (asRecord(asRecord(item.capabilities)?.supports)?.tool_calls === false) return [];
    return [{
      id: item.id,
      picker: item.model_picker_enabled === true,
      policy: asRecord(item.policy)?.state,
    }];
  });
  const pickerIds = models.filter((m) => m.picker && m.policy !== "disabled").map((m) => m.id);
  const usePolicyFallback = allowPolicyFallback && pickerIds.length === 0;
  const availableModelIds = pickerIds.length > 0 || !allowPolicyFallback
    ? pickerIds
    : models.filter((m) => m.policy === "enabled").map((m) => m.id);
  const policyModelIds = models
    .filter((m) => m.policy === "unconfigured" && knownModelIds.has(m.id) && (m.picker || usePolicyFallback))
    .map((m) => m.id);
  return { availableModelIds, policyModelIds };
}

/** Ids of the Copilot models in the built-in catalog (only these get their policy enabled). */
async function catalogModelIds(): Promise<Set<string>> {
  const { loadBuiltinModels, loadedBuiltinModels } = await import("../../ai/model_catalog.ts");
  await loadBuiltinModels(["github-copilot"]);
  return new Set((loadedBuiltinModels("github-copilot") ?? []).map((model) => model.id));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return abortableSleep(ms, signal, "Login cancelled");
}

/** A fetch that retries HTTP 429 within a budget, honouring `Retry-After` (seconds or a date). */
async function fetchWithRateLimitRetry(
  url: string,
  init: RequestInit,
  signal: AbortSignal,
  policy: RetryPolicy,
): Promise<Response> {
  const budget = policy.maxRetries > 0 && policy.maxElapsedMs > 0
    ? AbortSignal.timeout(policy.maxElapsedMs)
    : undefined;
  const requestSignal = budget ? AbortSignal.any([signal, budget]) : signal;
  const deadline = budget ? Date.now() + policy.maxElapsedMs : undefined;
  for (let retry = 0;; retry++) {
    const response = await fetch(url, {
      ...init,
      signal: AbortSignal.any([requestSignal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
    });
    if (response.status !== 429 || retry === policy.maxRetries) return response;
    let delayMs = 500 * 2 ** retry;
    const retryAfter = response.headers.get("retry-after");
    if (retryAfter) {
      const seconds = Number.parseFloat(retryAfter);
      delayMs = Number.isNaN(seconds) ? Date.parse(retryAfter) - Date.now() : seconds * 1000;
      if (!Number.isFinite(delayMs)) return response;
    }
    delayMs = Math.max(0, delayMs);
    if (deadline !== undefined && delayMs >= deadline - Date.now()) return response;
    await response.body?.cancel();
    await sleep(delayMs, requestSignal);
  }
}

async function fetchCopilotModels(
  token: string,
  enterpriseDomain: string | undefined,
  signal: AbortSignal,
  policy: RetryPolicy,
): Promise<CopilotModelCatalog> {
  const baseUrl = getGitHubCopilotBaseUrl(token, enterpriseDomain);
  // Some individual accounts report every picker flag false despite enabled policies; only there.
  const allowPolicyFallback = baseUrl === DEFAULT_API_BASE;
  const response = await fetchWithRateLimitRetry(
    endpoint(`${baseUrl}/models`),
    {
      headers: {
        Accept: "application/json",
        Authorization: `Bearer ${token}`,
        ...COPILOT_HEADERS,
        "X-GitHub-Api-Version": COPILOT_API_VERSION,
      },
    },
    signal,
    policy,
  );
  if (!response.ok) throw await httpError(response);
  return parseGitHubCopilotModelCatalog(await response.json(), allowPolicyFallback, await catalogModelIds());
}

interface DeviceCode {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  interval?: number;
  expiresIn: number;
}

async function startDeviceFlow(domain: string, signal: AbortSignal): Promise<DeviceCode> {
  const data = asRecord(
    await fetchJson(urls(domain).deviceCode, {
      method: "POST",
      headers: GITHUB_FORM_HEADERS,
      body: new URLSearchParams({ client_id: CLIENT_ID, scope: "read:user" }),
      signal,
    }),
  );
  if (!data) throw new Error("Invalid device code response");
  const { device_code, user_code, verification_uri, interval, expires_in } = data;
  if (
    typeof device_code !== "string" || typeof user_code !== "string" ||
    typeof verification_uri !== "string" ||
    (interval !== undefined && typeof interval !== "number") || typeof expires_in !== "number"
  ) {
    throw new Error("Invalid device code response fields");
  }
  const verificationUri = trustedHttpUrl(verification_uri);
  if (!verificationUri) throw new Error("Untrusted verification_uri in device code response");
  return { deviceCode: device_code, userCode: user_code, verificationUri, interval, expiresIn: expires_in };
}

function pollForGitHubToken(domain: string, device: DeviceCode, signal: AbortSignal): Promise<string> {
  return pollDeviceCodeFlow<string>({
    intervalSeconds: device.interval,
    expiresInSeconds: device.expiresIn,
    waitBeforeFirstPoll: true,
    signal,
    poll: async () => {
      const raw = asRecord(
        await fetchJson(urls(domain).accessToken, {
          method: "POST",
          headers: GITHUB_FORM_HEADERS,
          body: new URLSearchParams({
            client_id: CLIENT_ID,
            device_code: device.deviceCode,
            grant_type: "urn:ietf:params:oauth:grant-type:device_code",
          }),
          signal,
        }),
      );
      if (typeof raw?.access_token === "string") return { status: "complete", value: raw.access_token };
      if (typeof raw?.error === "string") {
        if (raw.error === "authorization_pending") return { status: "pending" };
        if (raw.error === "slow_down") {
          return {
            status: "slow_down",
            intervalSeconds: typeof raw.interval === "number" ? raw.interval : undefined,
          };
        }
        const description = raw.error_description ? `: ${raw.error_description}` : "";
        return { status: "failed", message: `Device flow failed: ${raw.error}${description}` };
      }
      return { status: "failed", message: "Invalid device token response" };
    },
  });
}

/** Trades the GitHub token for a Copilot token. */
async function exchangeForCopilotToken(
  githubToken: string,
  enterpriseDomain: string | undefined,
  signal: AbortSignal | undefined,
): Promise<OAuthCredentials> {
  const raw = asRecord(
    await fetchJson(urls(enterpriseDomain || "github.com").copilotToken, {
      headers: { Accept: "application/json", Authorization: `Bearer ${githubToken}`, ...COPILOT_HEADERS },
      signal,
    }),
  );
  if (!raw) throw new Error("Invalid Copilot token response");
  if (typeof raw.token !== "string" || typeof raw.expires_at !== "number") {
    throw new Error("Invalid Copilot token response fields");
  }
  const credentials: OAuthCredentials = {
    refresh: githubToken,
    access: raw.token,
    expires: raw.expires_at * 1000 - EXPIRY_MARGIN_MS,
  };
  if (enterpriseDomain) credentials.enterpriseUrl = enterpriseDomain;
  return credentials;
}

/** Switches on one model's policy for the account; false when Copilot refused or could not be reached. */
async function enableModel(
  token: string,
  modelId: string,
  enterpriseDomain: string | undefined,
  signal: AbortSignal,
): Promise<boolean> {
  const url = endpoint(`${getGitHubCopilotBaseUrl(token, enterpriseDomain)}/models/${modelId}/policy`);
  let response: Response;
  try {
    response = await fetchWithRateLimitRetry(
      url,
      {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Authorization: `Bearer ${token}`,
          ...COPILOT_HEADERS,
          "openai-intent": "chat-policy",
          "x-interaction-type": "chat-policy",
        },
        body: JSON.stringify({ state: "enabled" }),
      },
      signal,
      { maxRetries: 2, maxElapsedMs: 5000 },
    );
  } catch (error) {
    if (signal.aborted) throw error;
    return false;
  }
  if (response.status === 429) throw await httpError(response);
  await response.body?.cancel();
  return response.ok;
}

/** Enables models one by one (best effort); a rate limit that outlasts the retries stops the batch. */
async function enableModels(
  token: string,
  modelIds: string[],
  enterpriseDomain: string | undefined,
  signal: AbortSignal,
): Promise<string[]> {
  const enabled: string[] = [];
  for (const id of modelIds) {
    try {
      if (await enableModel(token, id, enterpriseDomain, signal)) enabled.push(id);
    } catch (error) {
      if (signal.aborted) throw error;
      break;
    }
  }
  return enabled;
}

async function login(callbacks: OAuthLoginCallbacks): Promise<OAuthCredentials> {
  const signal = loginSignal(callbacks);
  const input = await callbacks.onPrompt({
    message: "GitHub Enterprise URL/domain (blank for github.com)",
    placeholder: "company.ghe.com",
    allowEmpty: true,
  });
  if (signal.aborted) throw new Error("Login cancelled");
  const enterpriseDomain = normalizeGitHubDomain(input) ?? undefined;
  if (input.trim() && !enterpriseDomain) throw new Error("Invalid GitHub Enterprise URL/domain");
  const domain = enterpriseDomain ?? "github.com";
  const device = await startDeviceFlow(domain, signal);
  showDeviceCode(callbacks, {
    userCode: device.userCode,
    verificationUri: device.verificationUri,
    intervalSeconds: device.interval,
    expiresInSeconds: device.expiresIn,
  });
  const githubToken = await pollForGitHubToken(domain, device, signal);
  const credentials = await exchangeForCopilotToken(githubToken, enterpriseDomain, signal);
  const catalog = await fetchCopilotModels(credentials.access, enterpriseDomain, signal, {
    maxRetries: 2,
    maxElapsedMs: 5000,
  });
  let enabled: string[] = [];
  if (catalog.policyModelIds.length > 0) {
    callbacks.onProgress?.("Enabling models...");
    enabled = await enableModels(credentials.access, catalog.policyModelIds, enterpriseDomain, signal);
  }
  return { ...credentials, availableModelIds: [...new Set([...catalog.availableModelIds, ...enabled])] };
}

function enterpriseDomainOf(credentials: OAuthCredentials): string | undefined {
  const value = credentials.enterpriseUrl;
  return typeof value === "string" && value ? normalizeGitHubDomain(value) ?? undefined : undefined;
}

async function refreshToken(credentials: OAuthCredentials): Promise<OAuthCredentials> {
  const enterpriseDomain = enterpriseDomainOf(credentials);
  const signal = new AbortController().signal;
  const refreshed = await exchangeForCopilotToken(credentials.refresh, enterpriseDomain, undefined);
  const { availableModelIds } = await fetchCopilotModels(refreshed.access, enterpriseDomain, signal, {
    maxRetries: 0,
    maxElapsedMs: 0,
  });
  return { ...refreshed, availableModelIds };
}

/**
 * Copilot models for the logged-in account: the account's API host as base URL, and only the models
 * the account lists (when the credentials carry that list).
 */
function modifyModels(models: Model<Api>[], credentials: OAuthCredentials): Model<Api>[] {
  const baseUrl = endpoint(getGitHubCopilotBaseUrl(credentials.access, enterpriseDomainOf(credentials)))
    .replace(/\/+$/, "");
  const ids = credentials.availableModelIds;
  const available = Array.isArray(ids) && ids.every((id) => typeof id === "string")
    ? new Set(ids)
    : undefined;
  return models.flatMap((model) => {
    if (model.provider !== "github-copilot") return [model];
    if (available && !available.has(model.id)) return [];
    return [{ ...model, baseUrl }];
  });
}

/** GitHub Copilot's OAuth provider (`/login github-copilot`, `pi auth login github-copilot`). */
export const githubCopilotOAuth: OAuthProviderInterface = {
  id: "github-copilot",
  name: "GitHub Copilot",
  login,
  refreshToken,
  getApiKey: (credentials) => credentials.access,
  modifyModels,
};
