/**
 * `pi --export <session.jsonl> [output]`: writes the session file as a self-contained HTML page
 * and exits, before any settings, credentials or models are read (as pi 1.6.0 does). The
 * exporter is imported only here, so no other run loads it.
 *
 * @module
 */
import { red, yellow } from "../util/style.ts";
import type { CliArgs } from "./args.ts";
import type { CliIO } from "./cli_io.ts";

/**
 * Exports `parsed.export` to the first positional argument (or the default name) and returns the
 * exit code: 0 with `Exported to: <path>` on stdout, 1 with `Error: …` on stderr. Lines of the
 * file that had to be skipped are warned about on stderr; the export still succeeds, as in 1.6.0.
 */
export async function runExportCommand(parsed: CliArgs, io: CliIO): Promise<number> {
  const input = parsed.export as string;
  const outputPath = parsed.messages.length > 0 ? parsed.messages[0] : undefined;
  try {
    const { exportSessionFileToHtml } = await import("../core/export/export_html.ts");
    const result = exportSessionFileToHtml(input, outputPath);
    for (const warning of result.warnings) io.stderr(`${yellow(`Warning: ${warning}`)}\n`);
    io.stdout(`Exported to: ${result.path}\n`);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : "Failed to export session";
    io.stderr(`${red(`Error: ${message}`)}\n`);
    return 1;
  }
}
