/**
 * 1.6.0 pi-ai's model-kind checks for extensions. A catalog entry without `type` is a chat model;
 * `hasApi` narrows a chat model to one wire API.
 *
 * @module
 */
import type { Api, Model } from "../../ai/types.ts";

/** The kinds of model 1.6.0's catalogs hold. */
export type ModelType = "chat" | "image" | "classifier";

/** A model entry that may say what kind it is. */
export interface TypedModel {
  /** The kind; absent means chat. */
  type?: ModelType | string;
  /** The wire API. */
  api: Api;
}

/** The kind of `model` ("chat" when it does not say). */
export function getModelType(model: { type?: ModelType | string }): string {
  return model.type ?? "chat";
}

/** Whether `model` is of kind `type` (entries without `type` are chat models). */
export function isModelType(model: { type?: ModelType | string }, type: ModelType): boolean {
  return getModelType(model) === type;
}

/** Whether `model` is a chat model speaking `api` (a non-chat model never matches). */
export function hasApi<TApi extends Api>(model: TypedModel, api: TApi): model is Model<TApi> & TypedModel {
  return isModelType(model, "chat") && model.api === api;
}
