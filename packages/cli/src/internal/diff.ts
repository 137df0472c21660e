/**
 * A unified diff of two texts with three lines of context: what `--dry-run` shows. Effect's
 * `TextDiff` computes and formats it; the search is bounded (a config is small, a hostile one may
 * not be), past which the rest of a region shows as removed and added.
 */
import * as TextDiff from "effect/TextDiff"

export const unifiedDiff = (oldText: string, newText: string, oldName: string, newName: string): string => {
  const text = TextDiff.unified(TextDiff.lines(oldText, newText, { maxEdits: 4_000 }), { context: 3, fromFile: oldName, toFile: newName })
  // a script without changes formats as nothing: the names still say which file was compared
  return text === "" ? `--- ${oldName}\n+++ ${newName}\n` : text
}
