/**
 * The first prompt of a non-interactive run (CLI-19, G2): piped stdin, then the `@file` text,
 * then the first positional message, joined with no separator. Later messages are sent after it.
 *
 * @module
 */
import type { ImageContent } from "../ai/types.ts";

/** Inputs of {@link buildInitialMessage}. */
export interface InitialMessageInput {
  /** Positional messages; the first one is consumed (removed) when present. */
  messages: string[];
  fileText?: string;
  fileImages?: ImageContent[];
  stdinContent?: string;
}

/** The composed first prompt and its images (both undefined when there is nothing). */
export interface InitialMessage {
  initialMessage?: string;
  initialImages?: ImageContent[];
}

/** Composes the initial message; shifts the first positional message out of `input.messages`. */
export function buildInitialMessage(input: InitialMessageInput): InitialMessage {
  const parts: string[] = [];
  if (input.stdinContent !== undefined) parts.push(input.stdinContent);
  if (input.fileText) parts.push(input.fileText);
  const first = input.messages.shift();
  if (first !== undefined) parts.push(first);
  return {
    initialMessage: parts.length > 0 ? parts.join("") : undefined,
    initialImages: input.fileImages && input.fileImages.length > 0 ? input.fileImages : undefined,
  };
}
