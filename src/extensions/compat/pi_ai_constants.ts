/**
 * Constants of 1.6.0's `@earendil-works/pi-ai` that extensions read by name: the version of the
 * pi-ai API this host implements and the environment variables Anthropic's auth is configured by.
 *
 * @module
 */

/** The pi-ai release whose API the host modules implement (pi 1.6.0's). */
export const PI_AI_VERSION = "1.6.0";

/** Environment variable holding an Anthropic API key. */
export const ANTHROPIC_API_KEY_ENV = "ANTHROPIC_API_KEY";
/** Environment variable holding an Anthropic bearer token. */
export const ANTHROPIC_AUTH_TOKEN_ENV = "ANTHROPIC_AUTH_TOKEN";
/** Environment variable holding an Anthropic OAuth token. */
export const ANTHROPIC_OAUTH_TOKEN_ENV = "ANTHROPIC_OAUTH_TOKEN";
/** Environment variable naming the Anthropic workload-identity federation rule. */
export const ANTHROPIC_FEDERATION_RULE_ID_ENV = "ANTHROPIC_FEDERATION_RULE_ID";
/** Environment variable naming the Anthropic organization for federation. */
export const ANTHROPIC_ORGANIZATION_ID_ENV = "ANTHROPIC_ORGANIZATION_ID";
/** Environment variable naming the Anthropic service account for federation. */
export const ANTHROPIC_SERVICE_ACCOUNT_ID_ENV = "ANTHROPIC_SERVICE_ACCOUNT_ID";
/** Environment variable pointing at the identity token file for federation. */
export const ANTHROPIC_IDENTITY_TOKEN_FILE_ENV = "ANTHROPIC_IDENTITY_TOKEN_FILE";
/** Environment variable naming the Anthropic workspace for federation. */
export const ANTHROPIC_WORKSPACE_ID_ENV = "ANTHROPIC_WORKSPACE_ID";
