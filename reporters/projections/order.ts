/** A comparator over the given keys in turn: the first key that differs decides (strings and numbers ascending). */
export const byKey =
  <T>(...keys: Array<(x: T) => string | number>) =>
  (a: T, b: T): number => {
    for (const key of keys) {
      const x = key(a);
      const y = key(b);
      if (x < y) return -1;
      if (x > y) return 1;
    }
    return 0;
  };
