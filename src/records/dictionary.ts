/*
 * Objects keyed by names that come from data: scenarios, metrics, group attributes and values. A plain
 * object has a prototype: `__proto__` as a key replaces it instead of being stored (a scenario named so
 * disappears from every output), and reading an absent "constructor" or "toString" finds Object's
 * function. These objects have none, so every name is a key like any other; JSON.stringify writes them
 * as usual.
 */

/** A prototype-free object of the given entries. */
export function dictionary<T>(entries: Iterable<readonly [string, T]> = []): Record<string, T> {
  const result = Object.create(null) as Record<string, T>;
  for (const [key, value] of entries) result[key] = value;
  return result;
}

/** The value stored under `key` itself, never one inherited from a prototype (for objects made elsewhere). */
export function own<T>(object: Record<string, T> | undefined, key: string): T | undefined {
  return object !== undefined && Object.hasOwn(object, key) ? object[key] : undefined;
}
