/**
 * Upgrades of older session files to the current format, applied in memory on load.
 * v1 had no tree (entries in a list, compaction pointing at an index); v2 called extension
 * messages `hookMessage`.
 *
 * @module
 */
import { CURRENT_SESSION_VERSION, type FileEntry } from "./entries.ts";
import { generateEntryId } from "./ids.ts";

type Loose = Record<string, unknown>;

/** v1 → v2: give every entry an id and chain parentIds in file order. */
function migrateV1ToV2(entries: FileEntry[]): void {
  const ids = new Set<string>();
  let prevId: string | null = null;
  for (const raw of entries) {
    const entry = raw as unknown as Loose;
    if (entry.type === "session") {
      entry.version = 2;
      continue;
    }
    // The reference checks ids against an empty set; we remember them, which only lowers the
    // (tiny) chance of a duplicate.
    const id = generateEntryId(ids);
    ids.add(id);
    entry.id = id;
    entry.parentId = prevId;
    prevId = id;
    if (entry.type === "compaction" && typeof entry.firstKeptEntryIndex === "number") {
      // The index counts file lines including the header.
      const target = entries[entry.firstKeptEntryIndex] as unknown as Loose | undefined;
      if (target && target.type !== "session") entry.firstKeptEntryId = target.id;
      delete entry.firstKeptEntryIndex;
    }
  }
}

/** v2 → v3: the `hookMessage` role became `custom`. */
function migrateV2ToV3(entries: FileEntry[]): void {
  for (const raw of entries) {
    const entry = raw as unknown as Loose;
    if (entry.type === "session") {
      entry.version = 3;
      continue;
    }
    const message = entry.message as Loose | undefined;
    if (entry.type === "message" && message && message.role === "hookMessage") message.role = "custom";
  }
}

/**
 * Brings `entries` (header included) to the current version in place. Returns true when
 * anything changed, i.e. when the file should be rewritten.
 */
export function migrateToCurrentVersion(entries: FileEntry[]): boolean {
  const header = entries.find((e) => e.type === "session") as Loose | undefined;
  const version = typeof header?.version === "number" ? header.version : 1;
  if (version >= CURRENT_SESSION_VERSION) return false;
  if (version < 2) migrateV1ToV2(entries);
  if (version < 3) migrateV2ToV3(entries);
  return true;
}

/** Same as {@link migrateToCurrentVersion}, without the result (reference SDK name). */
export function migrateSessionEntries(entries: FileEntry[]): void {
  migrateToCurrentVersion(entries);
}
