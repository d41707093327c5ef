/**
 * The kinds of catalog entry pi-ai 1.6.0 types: chat models (our {@link Model}), image-generation
 * models and classifier models. This build talks to chat models only; the other two are typed so
 * that code written against 1.6.0's `AnyModel` (extensions narrowing with `isModelType`) compiles.
 *
 * @module
 */
import type { Api, Model, ModelCost, ModelInputLimits, Provider } from "./types.ts";

/** Image-generation APIs 1.6.0 knows; others may be registered. */
export type ImageApi = "openrouter-images" | (string & Record<never, never>);

/** Classifier APIs 1.6.0 knows; others may be registered. */
export type ClassifierApi =
  | "typesafe-system-one"
  | "cloudflare-workers-ai-system-one"
  | "llama-cpp-classify"
  | "openai-decisions"
  | (string & Record<never, never>);

/** Fields every catalog entry has, whatever it is for. */
export interface BaseModel<TApi extends string> {
  /** The provider's model id. */
  id: string;
  /** Human-readable name. */
  name: string;
  /** Wire API used to talk to the model. */
  api: TApi;
  /** Provider the model belongs to. */
  provider: Provider;
  /** Base URL of the API. */
  baseUrl: string;
  /** Input kinds the model accepts. */
  input: ("text" | "image")[];
  /** Request and image-size limits of the provider. */
  inputLimits?: ModelInputLimits;
  /** Prices per million tokens. */
  cost: ModelCost;
  /** Extra HTTP headers sent with every request to this model. */
  headers?: Record<string, string>;
}

/** An image-generation model (not served by this build). */
export interface ImageModel<TApi extends ImageApi> extends BaseModel<TApi> {
  /** Always "image". */
  type: "image";
  /** Output kinds; always includes "image". */
  output: ("text" | "image")[];
}

/** A structured classifier model (not served by this build). */
export interface ClassifierModel<TApi extends ClassifierApi> extends BaseModel<TApi> {
  /** Always "classifier". */
  type: "classifier";
  /** Context window in tokens. */
  contextWindow: number;
  /** System One compatibility switches. */
  compat?: TApi extends "typesafe-system-one" | "cloudflare-workers-ai-system-one"
    ? { imageInput?: "assets" | "images" | "state-image-urls"; sendImageOptInHeader?: boolean }
    : never;
}

/** The model shape of each kind. */
export interface ModelTypeMap {
  /** Chat models: what `stream()` takes. */
  chat: Model<Api>;
  /** Image-generation models. */
  image: ImageModel<ImageApi>;
  /** Classifier models. */
  classifier: ClassifierModel<ClassifierApi>;
}

/** What a catalog entry is for. */
export type ModelType = keyof ModelTypeMap;

/** Any catalog entry; narrow it with `isModelType()`. */
export type AnyModel = ModelTypeMap[ModelType];
