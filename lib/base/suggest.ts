/**
 * "Did you mean": the closest known word to a misspelled one, by edit distance (insertions,
 * deletions, substitutions and swaps of neighbours each cost one), so a typo in a command, a
 * flag or a tool stem is answered with the word the operator most likely meant.
 */

/** The optimal-string-alignment distance between `a` and `b`. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2][j - 2] + 1);
      }
      rows[i][j] = best;
    }
  }
  return rows[a.length][b.length];
}

/**
 * The candidate closest to `word`, or undefined when none is close enough to be a plausible
 * typo: within a third of the word's length (at least 2 edits), or a candidate the word is a
 * prefix of. Ties go to the earlier candidate, so callers list the likelier words first.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const words = [...candidates];
  const lower = word.toLowerCase();
  const limit = Math.max(2, Math.floor(lower.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of words) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best === undefined || lower.length === 0) return undefined;
  if (bestDistance <= limit) return best;
  for (const candidate of words) {
    if (lower.length >= 2 && candidate.toLowerCase().startsWith(lower)) return candidate;
  }
  return undefined;
}

/** ` Did you mean '<x>'?` for the closest candidate, or "" when there is none. */
export function didYouMean(word: string, candidates: Iterable<string>, quote = "'"): string {
  const match = closest(word, candidates);
  return match === undefined ? "" : ` Did you mean ${quote}${match}${quote}?`;
}
