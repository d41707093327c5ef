/**
 * What a built-in tool declares besides its schema, as pi 1.6.0's tool definitions do: the shape
 * of its `structuredContent` (`outputSchema`) and whether providers that support strict
 * JSON-schema tools should constrain the model's arguments to the schema (`constrainedSampling`).
 * Providers read these; the agent loop ignores them.
 *
 * @module
 */
import type { ConstrainedSamplingConfig, JsonSchema } from "../ai/types.ts";
import type { AgentTool } from "../agent/types.ts";

/** Constrained sampling of tool arguments: `prefer` uses strict mode where the provider has it. */
export interface ConstrainedSampling {
  /** The only kind: arguments constrained by the JSON schema. */
  type: "json_schema";
  /** `prefer`: strict where supported; `require`: fail where not. */
  strict: "prefer" | "require";
}

/** The optional declarations a tool object may carry. */
export interface ToolDeclarations {
  /** JSON schema of the tool's `structuredContent`. */
  outputSchema?: JsonSchema;
  /** How providers should constrain the arguments (any of pi-ai's configs, as a `Tool` carries them). */
  constrainedSampling?: false | ConstrainedSamplingConfig;
}

/** What read, bash, edit and write declare in 1.6.0. */
export const PREFER_STRICT_ARGUMENTS: ConstrainedSampling = { type: "json_schema", strict: "prefer" };

/** A built-in tool with the prompt metadata the system prompt builder reads (snippet, guidelines). */
export type PromptedTool<Input, Details> = AgentTool<Input, Details> & {
  promptSnippet: string;
  promptGuidelines?: string[];
};
