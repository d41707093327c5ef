/**
 * `@earendil-works/pi-ai/models` for extensions: the model helpers of 1.6.0's entry that we have
 * (cost, thinking levels, model equality, model kinds, `ModelsError`). The `Models`/`Provider`
 * collection API of that entry (`createModels`, `createProvider`) is not available in this build
 * yet; those names are left out, so importing one is a SyntaxError naming it rather than a stub,
 * and tests/extensions/module_exports_test.ts lists them.
 *
 * @module
 */
export { calculateCost } from "../../ai/cost.ts";
export { modelsAreEqual } from "../../ai/model_equality.ts";
export { clampThinkingLevel, getSupportedThinkingLevels } from "../../ai/thinking.ts";
export type { Api, Model, ModelThinkingLevel, Usage } from "../../ai/types.ts";
export { ModelsError, type ModelsErrorCode } from "./pi_ai_diagnostics.ts";
export {
  type AnyModel,
  getModelType,
  hasApi,
  isModelType,
  type ModelType,
  type ModelTypeMap,
} from "./pi_ai_model_type.ts";
