/**
 * The short hash the catalog index stores for model ids that contain a `/` (see
 * src/ai/model_catalog.ts): 7 base-36 characters of the 32-bit FNV-1a hash of the lower-cased id.
 * A collision only makes a run load one provider more than it needs.
 *
 * @module
 */

/** Width of one hash in the index strings. */
export const MODEL_ID_HASH_WIDTH = 7;

/** The index hash of `id` (case-insensitive). */
export function modelIdHash(id: string): string {
  const text = id.toLowerCase();
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36).padStart(MODEL_ID_HASH_WIDTH, "0");
}
