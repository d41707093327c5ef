/**
 * Ranking tools by a query, as pi 1.6.0 ranks them for `tool_search` and codemode's `searchTools()`:
 * Okapi BM25 over each tool's description and schema words, with the tool name and its namespace
 * (an MCP server) as separately weighted fields. Same tokens, weights and order as 1.6.0, so the
 * same query loads the same tools.
 *
 * @module
 */

/** How many tools a search returns unless asked otherwise. */
export const DEFAULT_TOOL_SEARCH_LIMIT = 8;

/** A group of tools, such as one MCP server (`mcp__<server>`). */
export interface ToolNamespace {
  name: string;
  /** Other names scripts may use for it (the server's own name). */
  aliases?: string[];
  description?: string;
  instructions?: string;
}

/** What a search reads of a tool. */
export interface SearchableTool {
  name: string;
  description: string;
  parameters: unknown;
  namespace?: ToolNamespace;
}

/** The text of one tool, split into the fields the ranker weighs. */
export interface ToolSearchDocument {
  name: string;
  text: string;
  namespaceText?: string;
}

/** One ranked tool. */
export interface ToolSearchMatch {
  name: string;
  score: number;
}

const STOP_WORDS = new Set([
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "by",
  "for",
  "from",
  "in",
  "is",
  "it",
  "of",
  "on",
  "or",
  "that",
  "the",
  "this",
  "to",
  "with",
]);

let segmenter: Intl.Segmenter | undefined;

/** A naive singular, so `issues` finds `issue` and `searches` finds `search`. */
function singular(term: string): string {
  if (term.length > 4 && term.endsWith("ies")) return `${term.slice(0, -3)}y`;
  if (term.length > 4 && /(ches|shes|sses|xes|zes)$/.test(term)) return term.slice(0, -2);
  if (term.length > 3 && term.endsWith("s") && !term.endsWith("ss")) return term.slice(0, -1);
  return term;
}

/** Words of `text`: camelCase and punctuation split, lower case, stop words dropped, ASCII words singular. */
export function tokenize(text: string): string[] {
  const normalized = text
    .normalize("NFC")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, " ");
  // Plain ASCII splits at spaces into the same words; only other scripts (Chinese without spaces,
  // say) need the much slower segmenter.
  const words = /^[a-z0-9 ]*$/.test(normalized) ? normalized.split(" ") : Array.from(
    (segmenter ??= new Intl.Segmenter(undefined, { granularity: "word" })).segment(normalized),
    (segment) => segment.isWordLike ? segment.segment : "",
  );
  return words
    .filter((word) => word.length > 0 && !STOP_WORDS.has(word))
    .map((word) => /^[a-z0-9]+$/.test(word) ? singular(word) : word);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The subschema a local `$ref` (`#/…`) names in `root`, or undefined. */
export function resolveLocalRef(ref: string, root: unknown): unknown {
  if (ref !== "#" && !ref.startsWith("#/")) return undefined;
  let current = root;
  for (const segment of ref.slice(2).split("/").filter(Boolean)) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return undefined;
    }
    const key = decoded.replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isRecord(current) || !(key in current)) return undefined;
    current = current[key];
  }
  return typeof current === "boolean" || isRecord(current) ? current : undefined;
}

/** Descriptions and property names of a schema, following local `$ref`s once each. */
function schemaWords(schema: unknown, root: unknown, parts: string[], seen: Set<unknown>): void {
  if (!isRecord(schema)) return;
  if (typeof schema.$ref === "string") {
    const target = resolveLocalRef(schema.$ref, root);
    if (isRecord(target) && !seen.has(target)) {
      seen.add(target);
      schemaWords(target, root, parts, seen);
    }
  }
  if (typeof schema.description === "string") parts.push(schema.description);
  if (isRecord(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      parts.push(name);
      schemaWords(property, root, parts, seen);
    }
  }
  schemaWords(schema.items, root, parts, seen);
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const variants = schema[key];
    if (Array.isArray(variants)) { for (const variant of variants) schemaWords(variant, root, parts, seen); }
  }
}

/** A tool's search document: description and schema words, and its namespace's words apart. */
export function createToolSearchDocument(tool: SearchableTool): ToolSearchDocument {
  const parts = [tool.description];
  schemaWords(tool.parameters, tool.parameters, parts, new Set([tool.parameters]));
  const namespace = tool.namespace;
  return {
    name: tool.name,
    text: parts.filter((part) => part.trim()).join(" "),
    namespaceText: namespace
      ? [namespace.name, namespace.description ?? "", namespace.instructions ?? ""].join(" ")
      : "",
  };
}

/** Lower case with characters a script identifier cannot have as `_` (`dev-radius` is `dev_radius`). */
function normalizeName(name: string): string {
  return name.trim().toLowerCase().replace(/[^a-z0-9_$]/g, "_");
}

/** Whether the query is the tool's whole name, or its part after a `__`. */
function isExactNameQuery(query: string, name: string): boolean {
  const normalized = normalizeName(name);
  return normalized === query || normalized.endsWith(`__${query}`);
}

/** A query term in the name counts this many times its IDF: more than any number of description mentions. */
const NAME_WEIGHT = 3;
/** A query term in the namespace: shared by all of a server's tools, so it helps find the server only. */
const NAMESPACE_WEIGHT = 0.5;
const K1 = 1.2;
const B = 0.75;

interface IndexedDocument {
  name: string;
  nameTerms: Set<string>;
  localNameTerms: string[];
  textCounts: Map<string, number>;
  textLength: number;
  namespaceTerms: Set<string>;
}

function indexDocument(document: ToolSearchDocument): IndexedDocument {
  const textCounts = new Map<string, number>();
  for (const term of tokenize(document.text)) textCounts.set(term, (textCounts.get(term) ?? 0) + 1);
  const segments = document.name.split("__");
  return {
    name: document.name,
    nameTerms: new Set(tokenize(document.name)),
    localNameTerms: [...new Set(tokenize(segments[segments.length - 1]))],
    textCounts,
    textLength: [...textCounts.values()].reduce((sum, count) => sum + count, 0),
    namespaceTerms: new Set(tokenize(document.namespaceText ?? "")),
  };
}

/**
 * The best `limit` documents for `query`: a query that is exactly a tool's name first, then tools
 * matching more of the query's terms (in any field), then by score; a tool whose whole local name is
 * in the query gets a bonus worth one more match of every term. Ties keep document order.
 */
export function rankTools(
  query: string,
  documents: readonly ToolSearchDocument[],
  limit: number,
): ToolSearchMatch[] {
  const queryTerms = new Set(tokenize(query));
  if (queryTerms.size === 0 || documents.length === 0 || limit <= 0) return [];
  const indexed = documents.map(indexDocument);
  const averageLength = indexed.reduce((sum, document) => sum + document.textLength, 0) / indexed.length ||
    1;
  const idf = new Map([...queryTerms].map((term) => {
    const frequency = indexed.filter((document) =>
      document.nameTerms.has(term) || document.textCounts.has(term) || document.namespaceTerms.has(term)
    ).length;
    return [term, Math.log(1 + (indexed.length - frequency + 0.5) / (frequency + 0.5))];
  }));
  const fullNameBonus = [...idf.values()].reduce((sum, value) => sum + value, 0);
  const exactQuery = normalizeName(query);
  const matches: { name: string; score: number; covered: number; exact: boolean }[] = [];
  for (const document of indexed) {
    const norm = K1 * (1 - B + (B * document.textLength) / averageLength);
    let score = 0;
    let covered = 0;
    for (const term of queryTerms) {
      const count = document.textCounts.get(term) ?? 0;
      const weight = (document.nameTerms.has(term) ? NAME_WEIGHT : 0) +
        (document.namespaceTerms.has(term) ? NAMESPACE_WEIGHT : 0) +
        (count * (K1 + 1)) / (count + norm);
      if (weight > 0) covered++;
      score += (idf.get(term) ?? 0) * weight;
    }
    if (score === 0) continue;
    const local = document.localNameTerms;
    if (local.length > 0 && local.every((term) => queryTerms.has(term))) score += fullNameBonus;
    matches.push({ name: document.name, score, covered, exact: isExactNameQuery(exactQuery, document.name) });
  }
  return matches
    .sort((a, b) => Number(b.exact) - Number(a.exact) || b.covered - a.covered || b.score - a.score)
    .slice(0, limit)
    .map(({ name, score }) => ({ name, score }));
}
