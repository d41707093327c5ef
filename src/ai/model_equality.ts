/**
 * Model identity, kept apart from the catalog so that comparing two models loads no model data.
 *
 * @module
 */
import type { Model } from "./types.ts";

/** Same model: equal id and provider; false when either is missing. */
export function modelsAreEqual(
  a: Pick<Model, "id" | "provider"> | null | undefined,
  b: Pick<Model, "id" | "provider"> | null | undefined,
): boolean {
  if (!a || !b) return false;
  return a.id === b.id && a.provider === b.provider;
}
