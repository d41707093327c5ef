/**
 * Lone UTF-16 surrogates make provider JSON encoders reject a request outright, so text is
 * cleaned before it is sent.
 *
 * @module
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Removes unpaired surrogate code units; properly paired ones (emoji etc.) stay. */
export function sanitizeSurrogates(text: string): string {
  return text.replace(LONE_SURROGATE, "");
}
