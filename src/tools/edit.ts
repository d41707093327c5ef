/**
 * The `edit` tool: targeted exact-text replacements in one file, with a fuzzy fallback for
 * typographic differences. Only the replaced text changes: a UTF-8 BOM and the line endings of
 * untouched lines stay as they were. Serialises with other writers of the same file, and returns a
 * numbered diff and a unified patch in `details`.
 *
 * @module
 */
import { permissionDeniedText } from "./permission_errors.ts";
import { checkAccess, readFileBytes, writeTextFile } from "../util/fs.ts";
import type { AgentTool } from "../agent/types.ts";
import type { Edit } from "./edit_diff.ts";
import { withFileMutationQueue } from "./file_mutation_queue.ts";
import { resolveToCwd } from "./path_utils.ts";
import { PREFER_STRICT_ARGUMENTS, type ToolDeclarations } from "./tool_metadata.ts";
import { abortable, abortError } from "./abortable.ts";

/** Arguments after {@link prepareEditArguments}. */
export interface EditToolInput {
  /** File to edit, relative to the tool's folder or absolute. */
  path: string;
  /** Replacements, each matched against the original file. */
  edits: Edit[];
}

/** What a successful edit reports besides its text. */
export interface EditToolDetails {
  /** Numbered diff for people: `+N`/`-N` lines with context. */
  diff: string;
  /** A standard unified patch of the change (`--- path` / `+++ path` headers). */
  patch: string;
  /** First changed line in the new file (1-based). */
  firstChangedLine?: number;
}

/** File access the edit tool needs; replace to edit files elsewhere (e.g. over SSH). */
export interface EditOperations {
  /** The file's bytes. */
  readFile: (absolutePath: string) => Promise<Uint8Array>;
  /** Replaces the file's text. */
  writeFile: (absolutePath: string, content: string) => Promise<void>;
  /** Throws when the file is missing or not readable and writable. */
  access: (absolutePath: string) => Promise<void>;
}

/** Options for {@link createEditTool}. */
export interface EditToolOptions {
  /** File access; defaults to the local file system. */
  operations?: EditOperations;
}

const EDIT_DESCRIPTION =
  "Edit a single file using exact text replacement. Every edits[].oldText must match a unique, non-overlapping region of the original file. If two changes affect the same block or nearby lines, merge them into one edit instead of emitting overlapping edits. Do not include large unchanged regions just to connect distant changes.";

/** The JSON schema sent to the model (key order as the reference serialises it). */
const EDIT_PARAMETERS = {
  type: "object",
  required: ["path", "edits"],
  properties: {
    path: { type: "string", description: "Path to the file to edit (relative or absolute)" },
    edits: {
      type: "array",
      items: {
        type: "object",
        required: ["oldText", "newText"],
        properties: {
          oldText: {
            type: "string",
            description:
              "Exact text for one targeted replacement. It must be unique in the original file and must not overlap with any other edits[].oldText in the same call.",
          },
          newText: { type: "string", description: "Replacement text for this targeted edit." },
        },
      },
      description:
        "One or more targeted replacements. Each edit is matched against the original file, not incrementally. Do not include overlapping or nested edits. If two changes touch the same block or nearby lines, merge them into one edit instead.",
    },
  },
};

const defaultOperations: EditOperations = {
  readFile: (path) => readFileBytes(path),
  writeFile: (path, content) => writeTextFile(path, content),
  access: (path) => checkAccess(path, { write: true }),
};

function isSingleEdit(value: unknown): value is Edit {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  const edit = value as Record<string, unknown>;
  return typeof edit.oldText === "string" && typeof edit.newText === "string";
}

/**
 * Normalises what models actually send: `edits` as a JSON string, a single edit object instead
 * of a one-element array, or the older top-level `oldText`/`newText` pair (appended to
 * `edits`). Anything else passes through.
 */
export function prepareEditArguments(input: unknown): EditToolInput {
  if (!input || typeof input !== "object") return input as EditToolInput;
  const args = input as Record<string, unknown>;
  if (typeof args.edits === "string") {
    try {
      const parsed: unknown = JSON.parse(args.edits);
      if (Array.isArray(parsed)) args.edits = parsed;
      else if (isSingleEdit(parsed)) args.edits = [parsed];
    } catch {
      // Leave the string; validation reports it.
    }
  } else if (isSingleEdit(args.edits)) {
    args.edits = [args.edits];
  }
  if (typeof args.oldText !== "string" || typeof args.newText !== "string") {
    return args as unknown as EditToolInput;
  }
  const edits = Array.isArray(args.edits) ? [...args.edits] : [];
  edits.push({ oldText: args.oldText, newText: args.newText });
  const { oldText: _o, newText: _n, ...rest } = args;
  return { ...rest, edits } as unknown as EditToolInput;
}

/**
 * Creates the `edit` tool for files under `cwd`.
 *
 * @example
 * ```ts
 * import { createEditTool } from "@pi-deno/coding-agent";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/greet.ts`, 'console.log("hello");\n');
 * const edit = createEditTool(dir);
 * const result = await edit.execute("call-1", {
 *   path: "greet.ts",
 *   edits: [{ oldText: '"hello"', newText: '"hello, world"' }],
 * });
 * console.log(result.details?.diff);
 * ```
 */
export function createEditTool(
  cwd: string,
  options?: EditToolOptions,
):
  & AgentTool<EditToolInput, EditToolDetails>
  & { promptSnippet: string; promptGuidelines: string[] }
  & ToolDeclarations {
  const ops = options?.operations ?? defaultOperations;
  return {
    name: "edit",
    label: "edit",
    description: EDIT_DESCRIPTION,
    promptSnippet:
      "Make precise file edits with exact text replacement, including multiple disjoint edits in one call",
    promptGuidelines: [
      "Use edit for targeted changes. Batch changes to one file in a single call.",
      "Each edits[].oldText must exactly and uniquely match the original file. Keep matches short and non-overlapping; merge nearby changes without including large unchanged regions.",
    ],
    parameters: EDIT_PARAMETERS,
    constrainedSampling: PREFER_STRICT_ARGUMENTS,
    prepareArguments: prepareEditArguments,
    execute(_toolCallId, input, signal) {
      if (!Array.isArray(input?.edits) || input.edits.length === 0) {
        return Promise.reject(
          new Error("Edit tool input is invalid. edits must contain at least one replacement."),
        );
      }
      const { path, edits } = input;
      const absolutePath = resolveToCwd(path, cwd);
      return withFileMutationQueue(absolutePath, () =>
        abortable(signal, async () => {
          // Matching, diffing and splicing load with the first edit, not at start-up.
          const [
            {
              applyEditsToNormalizedContent,
              describeAccessError,
              generateEditDiff,
              loadDiff,
              normalizeToLF,
              stripBom,
            },
            { applyReplacementsToOriginal },
          ] = await Promise.all([import("./edit_diff.ts"), import("./edit_replacements.ts")]);
          try {
            await ops.access(absolutePath);
          } catch (error) {
            // A --sandbox profile's refusal reads as such (permission_errors.ts).
            throw new Error(
              permissionDeniedText(error) ?? `Could not edit file: ${path}. ${describeAccessError(error)}.`,
            );
          }
          if (signal?.aborted) throw abortError();
          const raw = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await ops.readFile(absolutePath));
          if (signal?.aborted) throw abortError();
          const { bom, text } = stripBom(raw);
          const normalized = normalizeToLF(text);
          const { baseContent, newContent, replacements } = applyEditsToNormalizedContent(
            normalized,
            edits,
            path,
          );
          // The diff first, so its computation cannot fail after the write.
          await loadDiff();
          const { diff, patch, firstChangedLine } = generateEditDiff(
            path,
            baseContent,
            newContent,
            replacements,
          );
          if (signal?.aborted) throw abortError();
          // Spliced into the original text, so untouched lines keep their line endings.
          const final = text === normalized ? newContent : applyReplacementsToOriginal(text, replacements);
          await ops.writeFile(absolutePath, bom + final);
          if (signal?.aborted) throw abortError();
          return {
            content: [{ type: "text", text: `Successfully replaced ${edits.length} block(s) in ${path}.` }],
            details: { diff, patch, firstChangedLine },
          };
        }));
    },
  };
}
