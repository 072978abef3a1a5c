// The known name a mistyped one most likely meant: the closest by edit distance, when it is near enough to be a
// typo (at most a third of the longer name's length, and 2 edits always allowed); else undefined, so an
// unrelated name is never offered as the fix.
import { closest, distance } from 'fastest-levenshtein';

export function nearestName(name: string, known: Iterable<string>): string | undefined {
  const names = [...known];
  if (!names.length) return undefined;
  const best = closest(name, names);
  const limit = Math.max(2, Math.floor(Math.max(name.length, best.length) / 3));
  return distance(name, best) <= limit ? best : undefined;
}
