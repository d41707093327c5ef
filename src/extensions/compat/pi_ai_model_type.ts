/**
 * 1.6.0 pi-ai's model-kind checks for extensions. A catalog entry without `type` is a chat model;
 * `hasApi` narrows a chat model to one wire API. Typed as 1.6.0 declares them (type guards over
 * `AnyModel`).
 *
 * @module
 */
import type { AnyModel, ModelType, ModelTypeMap } from "../../ai/model_kinds.ts";
import type { Api, Model } from "../../ai/types.ts";

export type { AnyModel, ModelType, ModelTypeMap } from "../../ai/model_kinds.ts";

/** The kind of `model` ("chat" when it does not say). */
export function getModelType(model: AnyModel): ModelType {
  return model.type ?? "chat";
}

/** Whether `model` is of kind `type` (entries without `type` are chat models). */
export function isModelType<TType extends ModelType>(
  model: AnyModel,
  type: TType,
): model is ModelTypeMap[TType] {
  return getModelType(model) === type;
}

/** Whether `model` is a chat model speaking `api` (a non-chat model never matches). */
export function hasApi<TApi extends Api>(model: AnyModel, api: TApi): model is Model<TApi> {
  return isModelType(model, "chat") && model.api === api;
}
