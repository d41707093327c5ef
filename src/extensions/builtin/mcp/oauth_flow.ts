/**
 * The OAuth 2.1 flow of MCP's authorization spec as 1.6.0 runs it for one server: discovery (the
 * protected resource metadata of RFC 9728, named by the server's `WWW-Authenticate` challenge or at
 * its well-known path, then the authorization server's RFC 8414 / OpenID metadata, issuer checked),
 * dynamic client registration (RFC 7591) unless a client id is configured, the authorization request
 * with PKCE S256 and `resource` (RFC 8707), the code exchange and refreshes. Every step's result is
 * written to the server's `mcp-auth.json` entry in 1.6.0's order, so the file reads the same.
 *
 * @module
 */
import { base64UrlEncode, pkceChallenge } from "../../../config/oauth/pkce.ts";
import type {
  McpOAuthClient,
  McpOAuthDiscovery,
  McpOAuthServerStore,
  McpOAuthState,
  McpOAuthTokens,
} from "./oauth_store.ts";

/** MCP's protocol version sent with metadata requests (1.6.0's latest). */
const PROTOCOL_VERSION = "2025-11-25";
/** Each request to the authorization server is bounded, so none can hold a lock or a sign-in for long. */
const OAUTH_REQUEST_TIMEOUT_MS = 15_000;

/** The `oauth` settings of a server in `mcp.json`, resolved. */
export interface McpOAuthSettings {
  clientId?: string;
  clientSecret?: string;
  callbackPort?: number;
  callbackUrl?: string;
  scope?: string;
  clientName?: string;
  clientRegistration?: string;
  authServerMetadataUrl?: URL;
}

/** What a server's 401 said (`WWW-Authenticate: Bearer …`). */
export interface McpOAuthChallenge {
  resourceMetadataUrl?: URL;
  scope?: string;
  error?: string;
  errorDescription?: string;
}

/** The user has to sign in (no tokens, or the refresh was refused). */
export class McpOAuthAuthorizationRequiredError extends Error {
  constructor() {
    super("MCP OAuth authorization requires user interaction");
    this.name = "McpOAuthAuthorizationRequiredError";
  }
}

/** An OAuth error answer (`{"error": …}`). */
export class OAuthError extends Error {
  readonly code: string;
  constructor(code: string, message?: string) {
    super(message || code);
    this.name = "OAuthError";
    this.code = code;
  }
}

/** The challenge fields of a `WWW-Authenticate` header (Bearer or DPoP only). */
export function parseWwwAuthenticate(header: string | null | undefined): McpOAuthChallenge {
  if (!header) return {};
  const scheme = header.trimStart().split(/\s+/, 1)[0]?.toLowerCase();
  if (scheme !== "bearer" && scheme !== "dpop") return {};
  const field = (name: string) => {
    const match = header.match(new RegExp(String.raw`(?:^|[,\s])${name}=(?:"([^"]*)"|([^\s,]+))`, "i"));
    return match?.[1] || match?.[2] || undefined;
  };
  const metadata = field("resource_metadata");
  const out: McpOAuthChallenge = {};
  if (metadata && URL.canParse(metadata)) out.resourceMetadataUrl = new URL(metadata);
  const scope = field("scope");
  if (scope) out.scope = scope;
  const error = field("error");
  if (error) out.error = error;
  const description = field("error_description");
  if (description) out.errorDescription = description;
  return out;
}

const CALLBACK_HOST = "127.0.0.1";
/** The redirect URI when nothing names one. */
export const DEFAULT_REDIRECT_URL = `http://${CALLBACK_HOST}/callback`;

/** Where the loopback callback listens and the redirect URI it stands for. */
export interface LoopbackSettings {
  host: string;
  redirectHost: string;
  port?: number;
  path: string;
  /** A redirect URI fixed by the settings (a configured port), sent exactly as written. */
  fixedRedirectUrl?: string;
}

/** The loopback callback the settings describe (`callbackUrl`, `callbackPort`). */
export function loopbackSettings(settings: McpOAuthSettings): LoopbackSettings {
  const configured = settings.callbackUrl ?? DEFAULT_REDIRECT_URL;
  const url = new URL(configured);
  const address = url.hostname.replace(/^\[|\]$/g, "");
  const port = url.port ? Number(url.port) : settings.callbackPort;
  let fixedRedirectUrl: string | undefined;
  if (url.port) fixedRedirectUrl = settings.callbackUrl;
  else if (port !== undefined) {
    url.port = String(port);
    fixedRedirectUrl = url.href;
  }
  return {
    // `localhost` is served on 127.0.0.1; browsers fall back to it when ::1 refuses.
    host: address === "localhost" ? CALLBACK_HOST : address,
    redirectHost: address,
    ...(port === undefined ? {} : { port }),
    path: url.pathname,
    ...(fixedRedirectUrl === undefined ? {} : { fixedRedirectUrl }),
  };
}

/** Redirect URIs a stored client was registered with. */
export function registeredRedirectUrls(client: McpOAuthClient | undefined): string[] {
  return client?.redirect_uris ?? [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isLoopback(hostname: string): boolean {
  return ["localhost", "127.0.0.1", "[::1]", "::1"].includes(hostname);
}

/** Only http(s) URLs: the authorization URL is opened with the platform's opener. */
function safeUrl(value: unknown, name: string): string {
  if (typeof value !== "string" || !URL.canParse(value)) throw new Error(`Invalid ${name}`);
  const protocol = new URL(value).protocol;
  if (protocol !== "http:" && protocol !== "https:") throw new Error(`Invalid ${name}`);
  return value;
}

function secureEndpoint(value: string): URL {
  const url = new URL(value);
  if (url.protocol !== "https:" && !isLoopback(url.hostname)) {
    throw new Error(`Refusing to send OAuth credentials to non-HTTPS endpoint ${url.href}`);
  }
  return url;
}

/** Drops `undefined` fields, keeping the order of the rest. */
function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}

function timedFetch(signal: AbortSignal | undefined): (input: URL, init?: RequestInit) => Promise<Response> {
  return (input, init) => {
    const timeout = AbortSignal.timeout(OAUTH_REQUEST_TIMEOUT_MS);
    return fetch(input, { ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  };
}

type Fetch = ReturnType<typeof timedFetch>;

function metadataRequest(fetchFn: Fetch, url: URL): Promise<Response> {
  return fetchFn(url, { headers: { Accept: "application/json", "MCP-Protocol-Version": PROTOCOL_VERSION } });
}

/** 4xx and 502 mean "not here": discovery tries the next URL. */
function isMiss(status: number): boolean {
  return (status >= 400 && status < 500) || status === 502;
}

function pathSuffix(pathname: string): string {
  return pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
}

async function protectedResourceMetadata(
  serverUrl: string,
  resourceMetadataUrl: URL | undefined,
  fetchFn: Fetch,
): Promise<Record<string, unknown>> {
  const server = new URL(serverUrl);
  let response = await metadataRequest(
    fetchFn,
    resourceMetadataUrl ??
      new URL(`/.well-known/oauth-protected-resource${pathSuffix(server.pathname)}`, server.origin),
  );
  if (!resourceMetadataUrl && server.pathname !== "/" && isMiss(response.status)) {
    await response.body?.cancel();
    response = await metadataRequest(
      fetchFn,
      new URL("/.well-known/oauth-protected-resource", server.origin),
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`HTTP ${response.status} loading OAuth protected resource metadata`);
  }
  const input = await response.json();
  if (!isRecord(input)) throw new Error("Invalid OAuth protected resource metadata");
  const servers = input.authorization_servers;
  if (servers !== undefined && servers !== null && !Array.isArray(servers)) {
    throw new Error("Invalid authorization_servers");
  }
  return compact({
    ...input,
    resource: safeUrl(input.resource, "OAuth protected resource metadata resource"),
    authorization_servers: (servers as unknown[] | undefined | null)?.map((url) =>
      safeUrl(url, "authorization server URL")
    ),
  });
}

function parseServerMetadata(input: unknown): Record<string, unknown> {
  if (!isRecord(input)) throw new Error("Invalid authorization server metadata");
  if (!Array.isArray(input.response_types_supported)) throw new Error("Invalid response_types_supported");
  return compact({
    ...input,
    issuer: safeUrl(input.issuer, "authorization server issuer"),
    authorization_endpoint: safeUrl(input.authorization_endpoint, "authorization endpoint"),
    token_endpoint: safeUrl(input.token_endpoint, "token endpoint"),
    registration_endpoint: input.registration_endpoint
      ? safeUrl(input.registration_endpoint, "registration endpoint")
      : undefined,
  });
}

async function authorizationServerMetadata(
  issuerUrl: string,
  fetchFn: Fetch,
): Promise<Record<string, unknown> | undefined> {
  const issuer = new URL(issuerUrl);
  const path = pathSuffix(issuer.pathname);
  const urls = [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer.origin),
    new URL(`/.well-known/openid-configuration${path}`, issuer.origin),
    ...(path ? [new URL(`${path}/.well-known/openid-configuration`, issuer.origin)] : []),
  ];
  for (const url of urls) {
    const response = await metadataRequest(fetchFn, url);
    if (!response.ok) {
      await response.body?.cancel();
      if (isMiss(response.status)) continue;
      throw new Error(`HTTP ${response.status} loading authorization server metadata from ${url}`);
    }
    const metadata = parseServerMetadata(await response.json());
    const trim = (value: string) => value.endsWith("/") ? value.slice(0, -1) : value;
    if (trim(metadata.issuer as string) !== trim(issuerUrl)) {
      throw new Error(
        `OAuth issuer mismatch: expected ${JSON.stringify(issuerUrl)}, received ${
          JSON.stringify(metadata.issuer)
        }`,
      );
    }
    return metadata;
  }
  return undefined;
}

async function discover(
  serverUrl: string,
  resourceMetadataUrl: URL | undefined,
  metadataUrl: URL | undefined,
  fetchFn: Fetch,
): Promise<McpOAuthDiscovery> {
  let resourceMetadata: Record<string, unknown> | undefined;
  try {
    resourceMetadata = await protectedResourceMetadata(serverUrl, resourceMetadataUrl, fetchFn);
  } catch (error) {
    // A network failure fails the sign-in; a server without resource metadata is allowed.
    if (error instanceof TypeError) throw error;
  }
  if (metadataUrl) {
    const response = await metadataRequest(fetchFn, metadataUrl);
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`HTTP ${response.status} loading authorization server metadata from ${metadataUrl}`);
    }
    const metadata = parseServerMetadata(await response.json());
    return compact({
      authorizationServerUrl: metadata.issuer as string,
      authorizationServerMetadata: metadata,
      resourceMetadata,
    });
  }
  const authorizationServerUrl = (resourceMetadata?.authorization_servers as string[] | undefined)?.[0] ??
    String(new URL("/", serverUrl));
  return compact({
    authorizationServerUrl,
    authorizationServerMetadata: await authorizationServerMetadata(authorizationServerUrl, fetchFn),
    resourceMetadata,
  });
}

/** The `resource` parameter: the protected resource, which must contain the MCP server's URL. */
function selectResource(
  serverUrl: string,
  metadata: Record<string, unknown> | undefined,
): string | undefined {
  if (!metadata) return undefined;
  const requested = new URL(serverUrl);
  requested.hash = "";
  const configured = new URL(metadata.resource as string);
  const slash = (path: string) => path.endsWith("/") ? path : `${path}/`;
  if (
    requested.origin !== configured.origin ||
    !slash(requested.pathname).startsWith(slash(configured.pathname))
  ) {
    throw new Error(`Protected resource ${metadata.resource} does not match MCP server ${requested}`);
  }
  return metadata.resource as string;
}

function applicationType(redirectUris: string[]): string {
  const native = redirectUris.some((uri) => {
    if (!URL.canParse(uri)) return false;
    const url = new URL(uri);
    return (url.protocol !== "http:" && url.protocol !== "https:") || isLoopback(url.hostname);
  });
  return native ? "native" : "web";
}

function parseTokens(input: unknown): McpOAuthTokens {
  if (!isRecord(input)) throw new Error("Invalid OAuth token response");
  const absent = (value: unknown) => value === undefined || value === null || value === "";
  const text = (value: unknown, name: string) => {
    if (absent(value)) return undefined;
    if (typeof value !== "string") throw new Error(`Invalid ${name}`);
    return value;
  };
  if (typeof input.access_token !== "string" || !input.access_token) throw new Error("Invalid access_token");
  if (typeof input.token_type !== "string" || !input.token_type) throw new Error("Invalid token_type");
  const expires = absent(input.expires_in) ? undefined : Number(input.expires_in);
  if (expires !== undefined && !Number.isFinite(expires)) throw new Error("Invalid expires_in");
  return compact({
    access_token: input.access_token,
    token_type: input.token_type,
    expires_in: expires,
    scope: text(input.scope, "scope"),
    refresh_token: text(input.refresh_token, "refresh_token"),
    id_token: text(input.id_token, "id_token"),
  });
}

/** How the client authenticates at the token endpoint (`client_secret_basic`, `_post` or `none`). */
function clientAuthMethod(client: McpOAuthClient, supported: string[]): string {
  const hinted = client.token_endpoint_auth_method;
  if (
    hinted && ["client_secret_basic", "client_secret_post", "none"].includes(hinted) &&
    (supported.length === 0 || supported.includes(hinted))
  ) return hinted;
  if (supported.length === 0) return client.client_secret ? "client_secret_basic" : "none";
  if (client.client_secret && supported.includes("client_secret_basic")) return "client_secret_basic";
  if (client.client_secret && supported.includes("client_secret_post")) return "client_secret_post";
  if (supported.includes("none")) return "none";
  return client.client_secret ? "client_secret_post" : "none";
}

async function tokenRequest(
  discovery: McpOAuthDiscovery,
  client: McpOAuthClient,
  resource: string | undefined,
  params: URLSearchParams,
  fetchFn: Fetch,
): Promise<McpOAuthTokens> {
  const metadata = discovery.authorizationServerMetadata;
  const url = secureEndpoint(
    (metadata?.token_endpoint as string | undefined) ??
      String(new URL("/token", discovery.authorizationServerUrl)),
  );
  const headers = new Headers({
    Accept: "application/json",
    "content-type": "application/x-www-form-urlencoded",
  });
  if (resource) params.set("resource", resource);
  const method = clientAuthMethod(
    client,
    (metadata?.token_endpoint_auth_methods_supported as string[]) ?? [],
  );
  if (method === "client_secret_basic") {
    headers.set("Authorization", `Basic ${btoa(`${client.client_id}:${client.client_secret ?? ""}`)}`);
  } else {
    params.set("client_id", client.client_id);
    if (method === "client_secret_post" && client.client_secret) {
      params.set("client_secret", client.client_secret);
    }
  }
  const response = await fetchFn(url, { method: "POST", headers, body: params });
  const text = await response.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON: reported with the status below.
  }
  if (isRecord(value) && typeof value.error === "string") {
    throw new OAuthError(
      value.error,
      typeof value.error_description === "string" ? value.error_description : value.error,
    );
  }
  if (!response.ok) throw new OAuthError("server_error", `HTTP ${response.status}: ${text}`);
  return parseTokens(value);
}

/** Options of {@link authorizeMcp}. */
export interface AuthorizeOptions {
  serverUrl: string;
  store: McpOAuthServerStore;
  settings: McpOAuthSettings;
  /** The redirect URI this sign-in (or the stored client) uses. */
  redirectUrl: string;
  /** Client name sent with a registration when the settings name none. */
  clientName: string;
  resourceMetadataUrl?: URL;
  scope?: string;
  signal?: AbortSignal;
  /** Only refresh; `REDIRECT` instead of registering or preparing a browser step. */
  refreshOnly?: boolean;
  /** Prepare a browser step without trying the stored refresh token first. */
  skipRefresh?: boolean;
  /** Exchange this code (the second half of a sign-in). */
  authorizationCode?: string;
  /** The redirect URI of the authorization request the code answers. */
  authorizationRedirectUrl?: string;
  /** Hears the authorization URL of a browser step. */
  onRedirect?: (url: URL) => void;
}

/** The server's state, fresh when the stored one belongs to another URL (no credentials cross servers). */
function own(options: AuthorizeOptions): McpOAuthState {
  const serverUrl = String(new URL(options.serverUrl));
  const state = options.store.load();
  return state?.serverUrl === serverUrl ? state : { serverUrl };
}

function update(options: AuthorizeOptions, change: (state: McpOAuthState) => McpOAuthState): void {
  options.store.save(change(own(options)));
}

/** Stores tokens with their expiry time, as 1.6.0. */
export function saveTokens(options: AuthorizeOptions, tokens: McpOAuthTokens): void {
  const expiresAt = tokens.expires_in === undefined ? undefined : Date.now() + tokens.expires_in * 1000;
  update(options, (state) => {
    const next: McpOAuthState = { ...state, tokens };
    if (expiresAt === undefined) delete next.tokensExpireAt;
    else next.tokensExpireAt = expiresAt;
    return next;
  });
}

type Invalidation = "all" | "client" | "tokens" | "discovery";

function invalidate(options: AuthorizeOptions, kind: Invalidation): void {
  update(options, (state) => {
    const next = { ...state };
    if (kind === "all" || kind === "client") delete next.clientInformation;
    if (kind === "all" || kind === "tokens") {
      delete next.tokens;
      delete next.tokensExpireAt;
    }
    if (kind === "all") delete next.codeVerifier;
    if (kind === "all" || kind === "discovery") delete next.discovery;
    if (kind === "all") delete next.oauthState;
    return next;
  });
}

/** The configured client, or none. */
function configuredClient(settings: McpOAuthSettings): McpOAuthClient | undefined {
  return settings.clientId
    ? {
      client_id: settings.clientId,
      ...(settings.clientSecret ? { client_secret: settings.clientSecret } : {}),
    }
    : undefined;
}

async function runFlow(
  options: AuthorizeOptions,
  used: { clientId?: string },
): Promise<"AUTHORIZED" | "REDIRECT"> {
  const fetchFn = timedFetch(options.signal);
  const metadataUrl = options.settings.authServerMetadataUrl &&
    secureEndpoint(String(options.settings.authServerMetadataUrl));
  const cached = metadataUrl ? undefined : own(options).discovery;
  const discovered: McpOAuthDiscovery = cached?.authorizationServerUrl
    ? compact({
      authorizationServerUrl: cached.authorizationServerUrl,
      authorizationServerMetadata: cached.authorizationServerMetadata ??
        await authorizationServerMetadata(cached.authorizationServerUrl, fetchFn),
      resourceMetadata: cached.resourceMetadata,
    })
    : await discover(options.serverUrl, options.resourceMetadataUrl, metadataUrl, fetchFn);
  if (!metadataUrl) {
    const discovery = {
      ...discovered,
      ...(options.resourceMetadataUrl ? { resourceMetadataUrl: options.resourceMetadataUrl.href } : {}),
    };
    update(options, (state) => ({ ...state, discovery }));
  }
  const resource = selectResource(options.serverUrl, discovered.resourceMetadata);
  const scope = options.scope ||
    (discovered.resourceMetadata?.scopes_supported as string[] | undefined)?.join(" ") || undefined;
  const stored = configuredClient(options.settings) ?? own(options).clientInformation;
  used.clientId = stored?.client_id;
  const redirectUrl = options.redirectUrl;
  if (options.authorizationCode && options.authorizationRedirectUrl !== undefined) {
    if (redirectUrl !== options.authorizationRedirectUrl) {
      throw new Error(
        `The code exchange would use the redirect URI ${redirectUrl}, but the authorization request used ${options.authorizationRedirectUrl}`,
      );
    }
  }
  let client = stored;
  if (!client) {
    if (options.refreshOnly) return "REDIRECT";
    if (options.authorizationCode) {
      throw new Error(
        "OAuth client information is missing during code exchange: the authorization request's client was removed, or the client settings changed",
      );
    }
    client = await registerClient(discovered, options, redirectUrl, scope, fetchFn);
    const registered = client;
    update(options, (state) => ({ ...state, clientInformation: registered }));
  }
  if (options.authorizationCode) {
    const verifier = own(options).codeVerifier;
    if (!verifier) throw new Error("No OAuth PKCE code verifier is stored");
    const tokens = await tokenRequest(
      discovered,
      client,
      resource,
      new URLSearchParams({
        grant_type: "authorization_code",
        code: options.authorizationCode,
        code_verifier: verifier,
        redirect_uri: redirectUrl,
      }),
      fetchFn,
    );
    saveTokens(options, tokens.scope === undefined && scope ? { ...tokens, scope } : tokens);
    return "AUTHORIZED";
  }
  const existing = options.skipRefresh ? undefined : own(options).tokens;
  if (existing?.refresh_token) {
    try {
      const tokens = await tokenRequest(
        discovered,
        client,
        resource,
        new URLSearchParams({ grant_type: "refresh_token", refresh_token: existing.refresh_token }),
        fetchFn,
      );
      const refreshed = { refresh_token: existing.refresh_token, ...tokens };
      saveTokens(
        options,
        refreshed.scope === undefined && existing.scope ? { ...refreshed, scope: existing.scope } : refreshed,
      );
      return "AUTHORIZED";
    } catch (error) {
      if (options.signal?.aborted) throw error;
      if (error instanceof OAuthError && error.code !== "server_error") throw error;
      if (!(error instanceof OAuthError) && !(error instanceof TypeError)) throw error;
    }
  }
  if (options.refreshOnly) return "REDIRECT";
  await startAuthorization(discovered, options, client, redirectUrl, scope, resource);
  return "REDIRECT";
}

async function registerClient(
  discovered: McpOAuthDiscovery,
  options: AuthorizeOptions,
  redirectUrl: string,
  scope: string | undefined,
  fetchFn: Fetch,
): Promise<McpOAuthClient> {
  const metadata = discovered.authorizationServerMetadata;
  const endpoint = metadata?.registration_endpoint as string | undefined;
  if (metadata && !endpoint) {
    throw new Error("Authorization server does not support dynamic client registration");
  }
  const clientMetadata = compact({
    client_name: options.settings.clientName ?? options.clientName,
    redirect_uris: [redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: options.settings.clientSecret ? "client_secret_post" : "none",
  });
  const response = await fetchFn(
    new URL(endpoint ?? new URL("/register", discovered.authorizationServerUrl)),
    {
      method: "POST",
      headers: { Accept: "application/json", "content-type": "application/json" },
      body: JSON.stringify({
        ...clientMetadata,
        application_type: applicationType(clientMetadata.redirect_uris),
        ...(scope ? { scope } : {}),
      }),
    },
  );
  if (!response.ok) {
    throw new Error(
      `OAuth dynamic client registration failed with status ${response.status}: ${await response.text()}`,
    );
  }
  const input = await response.json();
  if (!isRecord(input) || typeof input.client_id !== "string" || !input.client_id) {
    throw new Error("Invalid client_id");
  }
  const secret = input.client_secret;
  return compact({
    ...input,
    client_id: input.client_id,
    client_secret: typeof secret === "string" && secret ? secret : undefined,
    client_id_issued_at: typeof input.client_id_issued_at === "number"
      ? input.client_id_issued_at
      : undefined,
    client_secret_expires_at: typeof input.client_secret_expires_at === "number"
      ? input.client_secret_expires_at
      : undefined,
    redirect_uris: Array.isArray(input.redirect_uris) ? input.redirect_uris as string[] : [],
  });
}

async function startAuthorization(
  discovered: McpOAuthDiscovery,
  options: AuthorizeOptions,
  client: McpOAuthClient,
  redirectUrl: string,
  scope: string | undefined,
  resource: string | undefined,
): Promise<void> {
  const metadata = discovered.authorizationServerMetadata;
  const responseTypes = metadata?.response_types_supported as string[] | undefined;
  if (responseTypes && !responseTypes.includes("code")) {
    throw new Error("Authorization server does not support authorization codes");
  }
  const methods = metadata?.code_challenge_methods_supported as string[] | undefined;
  if (methods && !methods.includes("S256")) {
    throw new Error("Authorization server does not support PKCE S256");
  }
  // The pending sign-in's `state`: kept when one is stored, so a refresh cannot void the user's sign-in.
  let state = own(options).oauthState;
  if (!state) {
    state = [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join(
      "",
    );
    const fresh = state;
    update(options, (value) => ({ ...value, oauthState: fresh }));
  }
  const url = new URL(
    (metadata?.authorization_endpoint as string | undefined) ??
      String(new URL("/authorize", discovered.authorizationServerUrl)),
  );
  const verifier = base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)));
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", client.client_id);
  url.searchParams.set("code_challenge", await pkceChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("redirect_uri", redirectUrl);
  url.searchParams.set("state", state);
  if (scope) url.searchParams.set("scope", scope);
  if (scope?.split(/\s+/).includes("offline_access")) url.searchParams.set("prompt", "consent");
  if (resource) url.searchParams.set("resource", resource);
  update(options, (value) => ({ ...value, codeVerifier: verifier }));
  options.onRedirect?.(url);
}

/**
 * Runs the flow once more after the server refused the client (forgotten, then registered again) or
 * the grant (tokens dropped), as 1.6.0.
 */
export async function authorizeMcp(options: AuthorizeOptions): Promise<"AUTHORIZED" | "REDIRECT"> {
  const used: { clientId?: string } = {};
  try {
    return await runFlow(options, used);
  } catch (error) {
    if (error instanceof OAuthError && ["invalid_client", "unauthorized_client"].includes(error.code)) {
      if (options.refreshOnly) {
        if (
          (configuredClient(options.settings) ?? own(options).clientInformation)?.client_id === used.clientId
        ) {
          for (const kind of ["client", "tokens", "discovery"] as const) invalidate(options, kind);
        }
      } else invalidate(options, "all");
      return await runFlow(options, {});
    }
    if (error instanceof OAuthError && error.code === "invalid_grant") {
      invalidate(options, "tokens");
      return await runFlow(options, {});
    }
    throw error;
  }
}

/** The redirect URI a refresh names: the settings' fixed one or the stored client's, else the default. */
export function refreshRedirectUrl(settings: McpOAuthSettings, state: McpOAuthState | undefined): string {
  return loopbackSettings(settings).fixedRedirectUrl ?? registeredRedirectUrls(state?.clientInformation)[0] ??
    DEFAULT_REDIRECT_URL;
}
