/**
 * "Did you mean …?" for mistyped commands and flags.
 *
 * @module
 */

/**
 * The optimal-string-alignment distance between two words: insertions, deletions,
 * substitutions and swaps of two neighbours each count one.
 *
 * @param a a word
 * @param b another word
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/**
 * The candidate a mistyped word most likely meant: the closest one within a third of the
 * word's length in edits (at least one), or one the word is the start of (three letters or
 * more). `--from` does not suggest `--format`; `--fromat` and `--form` do. An unknown short flag
 * (`-s`) names the first long flag it starts (`--start`) before any near spelling (`--as`).
 *
 * @param word what was typed, such as `--fromat` or `calender`
 * @param candidates the valid spellings
 * @returns the suggestion, or `undefined` when nothing is close
 */
export function suggest(word: string, candidates: Iterable<string>): string | undefined {
  const bare = (s: string) => s.replace(/^-+/, "").toLowerCase();
  const typed = bare(word);
  if (typed === "") return undefined;
  const list = [...candidates];
  // `-s` is a short flag hark does not have: the long flag it abbreviates (`--start`) is meant,
  // not the one a letter away (`--as`). The first in the list wins: the command's own flags.
  if (/^-[^-]/.test(word)) {
    const long = list.find((c) => c.startsWith("--") && bare(c).startsWith(typed));
    if (long !== undefined) return long;
  }
  const limit = Math.max(1, Math.floor(typed.length / 3));
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of list) {
    const target = bare(candidate);
    const prefix = typed.length >= 3 && target.startsWith(typed);
    // The distance is at least the difference in length: skip the quadratic work when that is
    // already too far (a 100 000-character flag is rejected at once, not in a second).
    if (!prefix && Math.abs(typed.length - target.length) > limit) continue;
    const distance = editDistance(typed, target);
    if (distance > limit && !prefix) continue;
    const score = prefix ? Math.min(distance, limit) : distance;
    if (!best || score < best.distance) best = { candidate, distance: score };
  }
  return best?.candidate;
}
