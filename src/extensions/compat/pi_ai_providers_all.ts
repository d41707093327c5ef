/**
 * `@earendil-works/pi-ai/providers/all` for extensions: typed reads of the built-in model catalog.
 * 1.6.0's `getBuiltinModel`, `getBuiltinModels` and `getBuiltinProviders` are our catalog lookups
 * under their 1.6.0 names (same results: undefined for an unknown model, an empty list for an
 * unknown provider). The `Provider` objects and `Models` collections of that entry
 * (`builtinProviders`, `builtinModels`, `radiusProvider`) and the image and classifier catalogs are
 * not available in this build yet; those names are left out (see
 * tests/extensions/module_exports_test.ts).
 *
 * @module
 */
export {
  getModel as getBuiltinModel,
  getModels as getBuiltinModels,
  getProviders as getBuiltinProviders,
} from "../../ai/models.ts";
