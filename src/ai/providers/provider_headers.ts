/**
 * Request details shared by the HTTP providers: GitHub Copilot's per-request headers and the
 * Cloudflare base URLs whose account placeholders come from the environment.
 *
 * @module
 */
import { readEnv } from "../../util/env.ts";
import type { Message, Model } from "../types.ts";

/** Fills `{VAR}` placeholders of a base URL from the environment (Cloudflare account ids). */
export function fillBaseUrlPlaceholders(model: Model): string {
  return model.baseUrl.replace(/\{([A-Z_][A-Z0-9_]*)\}/g, (_match, name: string) => {
    const value = readEnv(name);
    if (!value) throw new Error(`${name} is required for provider ${model.provider} but is not set.`);
    return value;
  });
}

function hasImages(messages: Message[]): boolean {
  return messages.some((msg) =>
    (msg.role === "user" || msg.role === "toolResult") && Array.isArray(msg.content) &&
    msg.content.some((c) => c.type === "image")
  );
}

/** Copilot wants to know who started a request and whether it carries images. */
export function copilotDynamicHeaders(messages: Message[]): Record<string, string> {
  const last = messages[messages.length - 1];
  const headers: Record<string, string> = {
    "X-Initiator": last && last.role !== "user" ? "agent" : "user",
    "Openai-Intent": "conversation-edits",
  };
  if (hasImages(messages)) headers["Copilot-Vision-Request"] = "true";
  return headers;
}
