/**
 * Runs a user's `!command` (not a model tool call): output streamed to a callback with ANSI
 * codes and binary noise removed, tail-truncated for the transcript, and saved in full to a
 * temp file once it outgrows the limits.
 *
 * @module
 */
import { randomHex } from "../util/bytes.ts";
import { writeAllSync } from "../util/fs.ts";
import { tmpDir } from "../util/os.ts";
import { join } from "../util/path.ts";
import { type BashOperations, sanitizeBinaryOutput } from "./shell.ts";
import { DEFAULT_MAX_BYTES, truncateTail } from "./truncate.ts";
import { splitIncompleteAnsiSuffix, stripAnsi } from "./ansi_strip.ts";

/** The outcome of a user bash command. */
export interface BashResult {
  /** Combined stdout and stderr, sanitised, cut to the last lines/bytes that fit. */
  output: string;
  /** Undefined when the command was cancelled. */
  exitCode: number | undefined;
  /** True when the user (or an abort) stopped the command. */
  cancelled: boolean;
  /** True when `output` is only the tail of what the command wrote. */
  truncated: boolean;
  /** A temporary file with the whole output, once it grew past the output limits. */
  fullOutputPath?: string;
}

/** Runs the command through `operations` in `cwd`. */
export async function executeBashWithOperations(
  command: string,
  cwd: string,
  operations: BashOperations,
  options: { onChunk?: (text: string) => void; signal?: AbortSignal } = {},
): Promise<BashResult> {
  const chunks: string[] = [];
  let keptBytes = 0;
  const maxKeptBytes = DEFAULT_MAX_BYTES * 2;
  let totalBytes = 0;
  let tempPath: string | undefined;
  let tempFile: Deno.FsFile | undefined;
  const ensureTemp = () => {
    if (tempPath) return;
    tempPath = join(tmpDir(), `pi-bash-${randomHex(8)}.log`);
    tempFile = Deno.openSync(tempPath, { write: true, createNew: true, mode: 0o600 });
    for (const chunk of chunks) writeAllSync(tempFile, chunk);
  };
  const decoder = new TextDecoder();
  // An escape sequence cut by a chunk boundary waits for the rest, so no "[31" fragment remains.
  let pendingAnsi = "";
  let discarded = false;
  const appendText = (raw: string) => {
    const text = sanitizeBinaryOutput(stripAnsi(raw)).replace(/\r/g, "");
    if (!text) return;
    if (totalBytes > DEFAULT_MAX_BYTES) ensureTemp();
    if (tempFile) writeAllSync(tempFile, text);
    chunks.push(text);
    keptBytes += text.length;
    while (keptBytes > maxKeptBytes && chunks.length > 1) {
      keptBytes -= chunks.shift()!.length;
      discarded = true;
    }
    options.onChunk?.(text);
  };
  const onData = (data: Uint8Array) => {
    totalBytes += data.length;
    const { complete, pending } = splitIncompleteAnsiSuffix(
      pendingAnsi + decoder.decode(data, { stream: true }),
    );
    pendingAnsi = pending;
    appendText(complete);
  };
  const finish = (exitCode: number | undefined, cancelled: boolean): BashResult => {
    appendText(pendingAnsi + decoder.decode());
    pendingAnsi = "";
    const full = chunks.join("");
    const truncation = truncateTail(full);
    if (truncation.truncated) ensureTemp();
    tempFile?.close();
    tempFile = undefined;
    return {
      output: truncation.truncated ? truncation.content : full,
      exitCode: cancelled ? undefined : exitCode,
      cancelled,
      // Also when earlier output was dropped from memory (it is in the full-output file).
      truncated: discarded || truncation.truncated,
      fullOutputPath: tempPath,
    };
  };
  try {
    const result = await operations.exec(command, cwd, { onData, signal: options.signal });
    return finish(result.exitCode ?? undefined, options.signal?.aborted ?? false);
  } catch (err) {
    if (options.signal?.aborted) return finish(undefined, true);
    tempFile?.close();
    throw err;
  }
}
