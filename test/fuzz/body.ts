/** Building request bodies that plain JSON.stringify cannot write: raw number text, `__proto__` keys. */

/** JSON text put into a body verbatim, such as `1e309` (Infinity once parsed) or `-0`. */
export class RawJson {
  constructor(readonly text: string) {}
}

/**
 * A body as the wire sees it. Own properties named `__proto__` survive: they are
 * written with defineProperty, and JSON.stringify writes own properties by name.
 */
export function serialize(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) => (item instanceof RawJson ? `\u0000raw${raws.push(item.text) - 1}\u0000` : item));
  return text.replace(/"\\u0000raw(\d+)\\u0000"/g, (_match, index: string) => raws[Number(index)]);
}

/** Sets an own property whatever its name, `__proto__` included. */
export function defineField(target: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A copy of `body` with `value` at `path`, making the containers on the way when they are missing or of another kind. */
export function withValueAt(body: Record<string, unknown>, path: Array<string | number>, value: unknown): Record<string, unknown> {
  const copy = copyOf(body) as Record<string, unknown>;
  let container: Record<string, unknown> | unknown[] = copy;
  path.forEach((key, index) => {
    if (index === path.length - 1) {
      defineField(container, key, value);
      return;
    }
    const wantArray = typeof path[index + 1] === 'number';
    let next = (container as Record<string | number, unknown>)[key];
    if (wantArray ? !Array.isArray(next) : !isPlainObject(next)) {
      next = wantArray ? [] : {};
      defineField(container, key, next);
    }
    container = next as Record<string, unknown> | unknown[];
  });
  return copy;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof RawJson);
}

/** A deep copy that keeps RawJson markers and own `__proto__` properties (structuredClone keeps neither). */
function copyOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyOf);
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) defineField(copy, key, copyOf(value[key]));
  return copy;
}

/** JSON text nested `depth` levels deep: objects, arrays, or both in turn. */
export function nestedJson(depth: number, shape: 'object' | 'array' | 'mixed'): RawJson {
  let open = '';
  let close = '';
  for (let level = 0; level < depth; level++) {
    const asArray = shape === 'array' || (shape === 'mixed' && level % 2 === 1);
    open += asArray ? '[' : '{"n":';
    close = (asArray ? ']' : '}') + close;
  }
  return new RawJson(`${open}"bottom"${close}`);
}
