/**
 * 1.6.0 pi-agent-core's `DEFAULT_AGENT_IDENTITY`: the client identity its agent loop merges under a
 * request's own (`mergeClientIdentity(DEFAULT_AGENT_IDENTITY, config.identity)`), pi's attribution
 * — the same `PI_ATTRIBUTION` object pi-ai exports.
 *
 * @module
 */
import { type ClientIdentity, PI_ATTRIBUTION } from "./pi_ai_identity.ts";

/** The identity an agent's requests carry unless their own says otherwise. */
export const DEFAULT_AGENT_IDENTITY: ClientIdentity = { attribution: PI_ATTRIBUTION };
