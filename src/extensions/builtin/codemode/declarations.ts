/**
 * How codemode describes tools, in pi 1.6.0's words: the identifier a script calls a tool by, the
 * one-line "Codemode: `tools.<id>(args)` resolves to …" added to declared tools, the tool samples
 * `ALL_TOOLS` and `describeTool()` give (description plus a TypeScript declaration), and the
 * `codemode` tool's own description.
 *
 * @module
 */
import { resolveLocalRef } from "../tool_search/ranker.ts";
import { schemaToType } from "./schema_type.ts";

/** The tool's name. */
export const CODEMODE_TOOL_NAME = "codemode";
/** Custom entry type of one successful script's `store()` writes. */
export const CODEMODE_STORE_ENTRY_TYPE = "codemode-store";
/** What the system prompt's tool list says of it. */
export const CODEMODE_PROMPT_SNIPPET = "Run JavaScript that calls other tools";
/** The guideline the system prompt adds while it is active. */
export const CODEMODE_PROMPT_GUIDELINES = [
  "Use codemode to batch independent tool calls (Promise.allSettled), chain them, or filter large output, instead of many separate calls.",
];

const DESCRIPTION_INTRO =
  `Run JavaScript that calls other tools. The input is raw JavaScript (not JSON, no code fence), run as an async function body in a QuickJS sandbox: top-level \`await\` and \`return\` work. No Node, file system, network, or timers.
- \`await tools.<name>({ ...args })\` resolves to a string, or an object if the tool's declaration says so, and rejects with an Error on failure. A tool whose declaration returns an object resolves on failure too when it returned that object; check its fields. Calls still running when the script ends are cancelled.
- Optional first line: \`// @options: {"max_output_tokens": 10000, "timeout_ms": 60000}\``;

const GLOBALS = [
  "Globals:",
  "- `text(value)`, `image(dataUrlOrImageBlock)`, `console.log(...)`, and top-level `return` add output; `exit()` ends the script. With several text items, each starts with a `==> text N/M <==` line, and `console` lines follow the other output in one `<console_output>` block. `image()` also saves the image to a temp file and the result names its path.",
  "- `store(key, value)` and `load(key)` keep JSON values across codemode calls.",
  "- `ALL_TOOLS`, `await searchTools(query, { limit?, namespace? })`, `await describeTool(name)`, `await describeNamespace(name)`: find unlisted tools, such as MCP tools.",
].join("\n");

/**
 * The `codemode` tool's description. 1.6.0 also lists `models` (classifiers and image models),
 * which this build does not have yet; and it lists callable tools that are neither declared nor
 * deferred, which MCP tools never are.
 */
export const CODEMODE_DESCRIPTION = `${DESCRIPTION_INTRO}\n\n${GLOBALS}`;

/**
 * The grammar 1.6.0 declares for providers that constrain tool input with one (the options line,
 * then any source). Recorded with the tool; no provider of this build sends it yet.
 */
export const CODEMODE_SOURCE_GRAMMAR = String.raw`
start: options_source | plain_source
options_source: OPTIONS_LINE NEWLINE SOURCE
plain_source: SOURCE

OPTIONS_LINE: /[ \t]*\/\/ @options:[^\r\n]*/
NEWLINE: /\r?\n/
SOURCE: /[\s\S]+/
`;

/** The `codemode` parameters. */
export const CODEMODE_PARAMETERS = {
  type: "object",
  properties: { code: { type: "string", description: "Raw JavaScript source." } },
  required: ["code"],
} as const;

/** A tool as codemode describes it. */
export interface DescribedTool {
  name: string;
  description: string;
  parameters?: unknown;
  outputSchema?: unknown;
}

/** The identifier a script uses: characters not valid in a JavaScript identifier become `_`. */
export function toCodemodeIdentifier(name: string): string {
  let identifier = "";
  for (const char of name) {
    const valid = identifier === "" ? /^[A-Za-z_$]$/.test(char) : /^[A-Za-z0-9_$]$/.test(char);
    identifier += valid ? char : "_";
  }
  return identifier === "" ? "_" : identifier;
}

type Schema = Record<string, unknown>;

function isRecord(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The schema a chain of local `$ref`s ends at (a cycle or a missing target stops the chain). */
function followRef(schema: unknown, root: unknown): unknown {
  const seen = new Set<unknown>();
  let current = schema;
  while (isRecord(current) && !seen.has(current) && typeof current.$ref === "string") {
    const target = resolveLocalRef(current.$ref, root);
    if (target === undefined) break;
    seen.add(current);
    current = target;
  }
  return current;
}

/** The field names of an object schema, nested objects `depth` levels deep and `const` values shown. */
function describeFields(schema: unknown, root: unknown, depth: number): string | undefined {
  const resolved = followRef(schema, root);
  if (!isRecord(resolved) || resolved.type !== "object" || !isRecord(resolved.properties)) return undefined;
  const required = new Set(Array.isArray(resolved.required) ? resolved.required : []);
  const fields = Object.entries(resolved.properties).map(([name, field]) => {
    const target = followRef(field, root);
    const constValue = isRecord(target) ? target.const : undefined;
    const nested = constValue !== undefined
      ? JSON.stringify(constValue)
      : depth > 0
      ? describeFields(field, root, depth - 1)
      : undefined;
    return `${name}${required.has(name) ? "" : "?"}${nested ? `: ${nested}` : ""}`;
  });
  return `{ ${fields.join(", ")} }`;
}

function describeUnionFields(schema: unknown, root: unknown): string | undefined {
  const resolved = followRef(schema, root);
  if (!isRecord(resolved)) return undefined;
  const variants = (resolved.anyOf ?? resolved.oneOf) as unknown[] | undefined;
  if (!Array.isArray(variants) || variants.length === 0) return undefined;
  const described = variants.map((variant) => describeFields(variant, root, 0));
  return described.every((fields) => fields !== undefined) ? described.join(" | ") : undefined;
}

const TEXT_OUTPUT = { type: "string" };

/** What a script's call of the tool resolves to, in one line. */
function describeOutput(name: string, schema: unknown): string {
  const type = schemaToType(schema);
  if (type === "string") return "a string";
  const fields = describeFields(schema, schema, 1) ?? describeUnionFields(schema, schema);
  if (fields) return `\`${fields}\``;
  if (!type.includes("\n")) return `\`${type}\``;
  return `a value; \`await describeTool(${JSON.stringify(name)})\` shows its type`;
}

/** A declared tool's description followed by how scripts call it (1.6.0's `on` mode). */
export function describeScriptCall(tool: DescribedTool): string {
  return `${tool.description.trim()}\n\nCodemode: \`tools.${
    toCodemodeIdentifier(tool.name)
  }(args)\` resolves to ${describeOutput(tool.name, tool.outputSchema ?? TEXT_OUTPUT)}.`;
}

/** Largest rendered input type, in characters, before it becomes `unknown`. */
const INPUT_SCHEMA_MAX_CHARS = 16_000;

/**
 * The sample `ALL_TOOLS` and `describeTool()` give: the description with the tool's prompt
 * guidelines as bullets (the system prompt has them only for declared tools), then the declaration.
 */
export function renderToolSample(tool: DescribedTool & { guidelines?: readonly string[] }): string {
  const bullets = (tool.guidelines ?? []).flatMap((line) => line.trim() ? [`- ${line.trim()}`] : []);
  const description = bullets.length > 0
    ? `${tool.description.trim()}\n\n${bullets.join("\n")}`
    : tool.description;
  const input = tool.parameters === undefined
    ? "unknown"
    : schemaToType(tool.parameters, { maxChars: INPUT_SCHEMA_MAX_CHARS });
  const output = schemaToType(tool.outputSchema ?? TEXT_OUTPUT);
  const declaration = `declare const tools: { ${
    toCodemodeIdentifier(tool.name)
  }(args: ${input}): Promise<${output}>; };`;
  return `${description.trim()}\n\ncodemode tool declaration:\n\`\`\`ts\n${declaration}\n\`\`\``;
}

/** Keywords whose values are data, so a `$ref` key inside is not a reference. */
const SCHEMA_DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);
/** Keywords whose values map names to schemas. */
const SCHEMA_MAP_KEYWORDS = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "dependencies",
  "$defs",
  "definitions",
]);

/** `schema` with its local `$ref`s pointing below `pointer`, for nesting it in another schema. */
function relocateSchema(schema: unknown, pointer: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => relocateSchema(item, pointer));
  if (!isRecord(schema)) return schema;
  const relocated: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$ref" && typeof value === "string" && (value === "#" || value.startsWith("#/"))) {
      relocated[key] = `${pointer}${value.slice(1)}`;
    } else if (SCHEMA_DATA_KEYWORDS.has(key)) relocated[key] = value;
    else if (SCHEMA_MAP_KEYWORDS.has(key) && isRecord(value)) {
      relocated[key] = Object.fromEntries(
        Object.entries(value).map(([name, subschema]) => [name, relocateSchema(subschema, pointer)]),
      );
    } else relocated[key] = relocateSchema(value, pointer);
  }
  return relocated;
}

/** The MCP result a script gets (`CallToolResult`), with the tool's own output schema inside. */
export function mcpResultSchema(structured: unknown): Schema {
  return {
    type: "object",
    properties: {
      content: { type: "array", items: CONTENT_BLOCK_SCHEMA },
      // Servers may send structured content without declaring a schema for it.
      structuredContent: structured ? relocateSchema(structured, "#/properties/structuredContent") : {},
      isError: { type: "boolean" },
    },
    required: ["content"],
    // Fields newer protocol versions add.
    additionalProperties: true,
  };
}

const CONTENT_BLOCK_SCHEMA = {
  type: "object",
  properties: {
    type: { enum: ["text", "image", "audio", "resource_link", "resource"] },
    text: { type: "string" },
    data: { type: "string" },
    mimeType: { type: "string" },
  },
  required: ["type"],
  additionalProperties: true,
};
