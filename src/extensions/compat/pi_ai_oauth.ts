/**
 * `@earendil-works/pi-ai/oauth` for extensions. In 1.6.0 this entry is type-only (the OAuth types
 * that `registerProvider({ oauth })` declarations use), so it exports no values at run time; here
 * the same types come from the host's OAuth registry.
 *
 * @module
 */
export type {
  OAuthAuthInfo,
  OAuthCredentials,
  OAuthDeviceCodeInfo,
  OAuthLoginCallbacks,
  OAuthPrompt,
  OAuthSelectOption,
} from "../../config/oauth_registry.ts";
import type { OAuthSelectOption } from "../../config/oauth_registry.ts";

/** A choice the login flow asks for (1.6.0's `OAuthSelectPrompt`). */
export interface OAuthSelectPrompt {
  /** The question. */
  message: string;
  /** The choices. */
  options: OAuthSelectOption[];
}
