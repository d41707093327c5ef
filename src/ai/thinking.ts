/**
 * Which thinking levels a model accepts, and how a requested level is moved onto one it does.
 *
 * @module
 */
import type { Model, ModelThinkingLevel } from "./types.ts";

/** Every thinking level, weakest first. */
export const THINKING_LEVELS: readonly ModelThinkingLevel[] = [
  "off",
  "minimal",
  "low",
  "medium",
  "high",
  "xhigh",
  "max",
];

/**
 * Levels the model supports: only "off" for non-reasoning models; otherwise all levels except
 * those its thinkingLevelMap sets to null, and "xhigh" and "max" only when the map names them
 * explicitly.
 */
export function getSupportedThinkingLevels(
  model: Pick<Model, "reasoning" | "thinkingLevelMap">,
): ModelThinkingLevel[] {
  if (!model.reasoning) return ["off"];
  return THINKING_LEVELS.filter((level) => {
    const mapped = model.thinkingLevelMap?.[level];
    if (mapped === null) return false;
    if (level === "xhigh" || level === "max") return mapped !== undefined;
    return true;
  });
}

/** True when the model offers the "xhigh" level. */
export function supportsXhigh(model: Pick<Model, "reasoning" | "thinkingLevelMap">): boolean {
  return getSupportedThinkingLevels(model).includes("xhigh");
}

/** True when the model offers the "max" level (pi-ai 1.x). */
export function supportsMax(model: Pick<Model, "reasoning" | "thinkingLevelMap">): boolean {
  return getSupportedThinkingLevels(model).includes("max");
}

/**
 * The supported level closest to `level`: itself when supported, else the next stronger one,
 * else the next weaker one.
 */
export function clampThinkingLevel(
  model: Pick<Model, "reasoning" | "thinkingLevelMap">,
  level: ModelThinkingLevel,
): ModelThinkingLevel {
  const available = getSupportedThinkingLevels(model);
  if (available.includes(level)) return level;
  const requested = THINKING_LEVELS.indexOf(level);
  if (requested === -1) return available[0] ?? "off";
  for (let i = requested; i < THINKING_LEVELS.length; i++) {
    if (available.includes(THINKING_LEVELS[i])) return THINKING_LEVELS[i];
  }
  for (let i = requested - 1; i >= 0; i--) {
    if (available.includes(THINKING_LEVELS[i])) return THINKING_LEVELS[i];
  }
  return available[0] ?? "off";
}
