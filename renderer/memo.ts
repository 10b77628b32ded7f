/** A small memo for pure lookups done on every render; emptied when it grows past `max`. */
export function memo<V>(compute: (key: string) => V, max = 1000): (key: string) => V {
  const seen = new Map<string, V>();
  return (key) => {
    let value = seen.get(key);
    if (value === undefined) {
      if (seen.size >= max) seen.clear();
      value = compute(key);
      seen.set(key, value);
    }
    return value;
  };
}
