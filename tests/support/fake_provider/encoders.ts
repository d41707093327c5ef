/**
 * Imports every wire encoder so each registers itself with the fake server.
 *
 * @module
 */
// Mistral first: its path also ends in /chat/completions, which the OpenAI encoder would take.
import "./mistral.ts";
// pi-messages before Anthropic: a Radius path also ends in /v1/messages.
import "./pi_messages.ts";
import "./anthropic.ts";
import "./openai_completions.ts";
import "./openai_responses.ts";
import "./google.ts";
import "./google_vertex_token.ts";
import "./bedrock.ts";
