/**
 * TypeBox 1.3's `CanComposite` (which pi 1.6.0 ships and re-exports), gone from the TypeBox 1.4
 * this build uses: whether a schema is a valid operand of `Type.Composite` — an object or a tuple
 * schema, by its kind.
 *
 * @module
 */
import { Type } from "npm:typebox@1.4.3";

/** True for an object or tuple schema (what `Type.Composite` merges). */
export function CanComposite(type: unknown): boolean {
  return Type.IsObject(type) || Type.IsTuple(type);
}
