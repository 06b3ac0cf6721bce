/**
 * Small helpers to look at untrusted JSON safely: own keys only (a query may name a field
 * `__proto__` or `constructor`), and readable type names for error messages.
 */

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function hasOwn(obj: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/**
 * Whether `for (const key in obj)` visits exactly Object.keys(obj), in the same order: obj's
 * prototype is Object.prototype (what JSON.parse and object literals make) or null, and
 * Object.prototype has no enumerable property. The walks over every document of a write (the
 * mapping's) then loop with for-in, which allocates nothing, instead of Object.keys, which copies
 * the keys into a new array each time (about a ninth of what a bulk load of bench:scale entities
 * allocated on the main thread, sampled).
 */
export function forInIsOwn(obj: object): boolean {
  const proto: unknown = Object.getPrototypeOf(obj);
  if (proto === null) return true;
  if (proto !== Object.prototype) return false;
  for (const _ in Object.prototype) return false;
  return true;
}

/** "an object", "an array", "a string", ... for messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'string':
      return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`;
    case 'number':
      return `the number ${String(value)}`;
    case 'boolean':
      return `the boolean ${String(value)}`;
    default:
      return typeof value;
  }
}

/** Quote a user-supplied name for an error message (bounded length, JSON-escaped). */
export function quote(name: string): string {
  return JSON.stringify(name.length > 80 ? name.slice(0, 80) + '…' : name);
}

/** Set an own property, even one named `__proto__` (plain assignment would change the prototype). */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Below this depth a copy is recursive (fast); deeper documents are copied iteratively. */
const RECURSION_LIMIT = 64;

/**
 * A deep copy of JSON data (objects, arrays, scalars): own enumerable keys, `__proto__` kept as a
 * plain key. Recursive for ordinary documents; iterative beyond RECURSION_LIMIT levels so that no
 * nesting depth can exhaust the stack (JSON.parse accepts documents far deeper than structuredClone
 * can copy).
 */
export function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const copy = copyShallow(value as unknown as Record<string, unknown>, 0);
  return (copy === undefined ? cloneDeep(value) : copy) as T;
}

/** The recursive copy, or undefined when the value is nested deeper than RECURSION_LIMIT. */
function copyShallow(from: Record<string, unknown>, depth: number): unknown {
  if (depth > RECURSION_LIMIT) return undefined;
  if (Array.isArray(from)) {
    const out: unknown[] = [];
    const keys = Object.keys(from);
    if (keys.length === from.length) {
      for (let i = 0; i < from.length; i++) {
        const child = from[i];
        if (typeof child === 'object' && child !== null) {
          const c = copyShallow(child as Record<string, unknown>, depth + 1);
          if (c === undefined) return undefined;
          out.push(c);
        } else {
          out.push(child);
        }
      }
      return out;
    }
    return copyKeys(from, keys, out as unknown as Record<string, unknown>, depth);
  }
  return copyKeys(from, Object.keys(from), {}, depth);
}

function copyKeys(from: Record<string, unknown>, keys: string[], to: Record<string, unknown>, depth: number): unknown {
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    let child = from[key];
    if (typeof child === 'object' && child !== null) {
      child = copyShallow(child as Record<string, unknown>, depth + 1);
      if (child === undefined) return undefined;
    }
    if (key === '__proto__') setOwn(to, key, child);
    else to[key] = child;
  }
  return to;
}

function cloneDeep<T>(value: T): T {
  const root: unknown = Array.isArray(value) ? [] : {};
  const stack: [unknown, unknown][] = [[value, root]];
  while (stack.length > 0) {
    const [from, to] = stack.pop() as [Record<string, unknown>, Record<string, unknown>];
    for (const key of Object.keys(from)) {
      const child = from[key];
      if (typeof child === 'object' && child !== null) {
        const copy = Array.isArray(child) ? [] : {};
        setOwn(to, key, copy);
        stack.push([child, copy]);
      } else {
        setOwn(to, key, child);
      }
    }
  }
  return root as T;
}
