/**
 * Imports every wire encoder so each registers itself with the fake server.
 *
 * @module
 */
import "./anthropic.ts";
import "./openai_completions.ts";
import "./openai_responses.ts";
import "./google.ts";
import "./bedrock.ts";
