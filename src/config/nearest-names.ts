// The "did you mean" of every name a user types (gate keys, projects, env vars): pure, imports nothing, low
// enough that config, gates, the planner and the CLI can all use it.

/** Edit distance (insertions, deletions, substitutions), for the names a mistyped key could mean. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row.push(Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[b.length];
}

/** The known names a key could mean: the same up to case, else those within two edits, the closest first. */
export function nearestNames(key: string, known: readonly string[]): string[] {
  const sameButCase = known.filter((name) => name.toLowerCase() === key.toLowerCase());
  if (sameButCase.length > 0) return sameButCase;
  const scored = known
    .map((name) => ({ name, d: name.toLowerCase() === key.toLowerCase() ? 0 : distance(key, name) }))
    .filter((x) => x.d <= Math.max(2, Math.floor(key.length / 3)))
    .sort((a, b) => a.d - b.d || a.name.localeCompare(b.name));
  return scored.map((x) => x.name);
}
