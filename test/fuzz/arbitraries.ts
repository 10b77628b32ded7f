/**
 * fast-check arbitraries made from the JSON Schemas the app publishes (openapi.json's request
 * bodies and the MCP tools' input schemas): valid values, and almost-valid ones (one to three
 * mutations of a valid value: a length one past a limit, a wrong type, a null, an unknown or a
 * missing field, odd Unicode, an invalid date, a huge array, deep nesting).
 *
 * The schemas cannot say everything a check() in valibot says (a real http URL, a username, a
 * UTC date-time), so a few field names get a generator of their own (HINTS): without them
 * almost every "valid" body would be refused for its URL and the accepted paths go untested.
 */
import fc from 'fast-check';
import { HINTS, oddDate, oddString, type Schema, validDate } from './values.js';

export type { Schema };

/** A value the schema accepts (up to the checks HINTS stand in for). */
export function valid(schema: Schema, name?: string, depth = 0): fc.Arbitrary<unknown> {
  const hinted = name ? HINTS[name]?.(schema) : undefined;
  if (hinted) return hinted;
  const base = validNoNull(schema, depth);
  return schema.nullable ? fc.oneof({ weight: 4, arbitrary: base }, { weight: 1, arbitrary: fc.constant(null) }) : base;
}

function validNoNull(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  if (schema.oneOf || schema.anyOf)
    return fc.oneof(...(schema.oneOf ?? schema.anyOf).map((s: Schema) => valid(s, undefined, depth)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  switch (schema.type) {
    case 'string':
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
      if (schema.format === 'date-time') return validDate;
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 80) });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1e6,
        max: schema.maximum ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valid(schema.items ?? {}, undefined, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, depth === 0 ? 4 : 2),
      });
    case 'object':
    case undefined: {
      const props: Record<string, Schema> = schema.properties ?? {};
      if (Object.keys(props).length === 0) return fc.constant({});
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, s] of Object.entries(props)) shape[k] = valid(s, k, depth + 1);
      return fc.record(shape, { requiredKeys: schema.required ?? [] });
    }
    default:
      return fc.constant(null);
  }
}

type Path = (string | number)[];

/** Every path into a value, with the schema found there (when there is one). */
function pathsOf(value: unknown, schema: Schema | undefined, path: Path = [], out: [Path, Schema | undefined][] = []) {
  out.push([path, schema]);
  if (path.length > 8) return out;
  if (Array.isArray(value)) {
    for (const [i, item] of value.slice(0, 4).entries()) pathsOf(item, schema?.items, [...path, i], out);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, item] of Object.entries(value)) {
      const branch = schema?.oneOf?.find((s: Schema) => s.properties?.type?.enum?.includes((value as any).type));
      pathsOf(item, (branch ?? schema)?.properties?.[k], [...path, k], out);
    }
  }
  return out;
}

function setAt(root: unknown, path: Path, next: unknown | typeof REMOVE): unknown {
  if (path.length === 0) return next === REMOVE ? undefined : next;
  const copy: any = Array.isArray(root) ? [...root] : { ...(root as object) };
  const [head, ...rest] = path;
  if (rest.length === 0) {
    if (next === REMOVE) {
      if (Array.isArray(copy)) copy.splice(head as number, 1);
      else delete copy[head];
    } else copy[head] = next;
  } else copy[head] = setAt(copy[head], rest, next);
  return copy;
}

const REMOVE = Symbol('remove');

/** A big value that prints as the expression that makes it (a shrunk case stays readable). */
function big<T extends object>(value: T, shown: string): T {
  return Object.defineProperty(value, fc.toStringMethod, { value: () => shown, enumerable: false });
}

function nested(depth: number, kind: 'array' | 'object'): unknown {
  let v: unknown = 'deep';
  for (let i = 0; i < depth; i++) v = kind === 'array' ? [v] : { a: v };
  return big(v as object, `nested(${depth}, '${kind}')`);
}

function filled(n: number, item: unknown): unknown[] {
  return big(Array(n).fill(item), `Array(${n}).fill(${JSON.stringify(item)})`);
}

/** What to put at a place, given its schema: the almost-valid values of that place. */
function replacement(schema: Schema | undefined): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [
    fc.constantFrom(null, true, 0, -1, 1.5, 1e308, -0, '', '0', 'null', [], {}, [null], { '': null }),
    oddString,
    oddDate,
    fc.constantFrom(nested(64, 'array'), nested(64, 'object'), nested(2000, 'array'), nested(2000, 'object')),
    fc.constantFrom(filled(10_000, 0), filled(5000, { type: 'link', label: 'x', url: 'https://example.com/' })),
    fc.jsonValue({ maxDepth: 3 }),
  ];
  if (schema?.type === 'string' || schema?.minLength !== undefined || schema?.maxLength !== undefined) {
    const lengths = [schema?.minLength, schema?.maxLength]
      .filter((n): n is number => typeof n === 'number')
      .flatMap((n) => [n - 1, n, n + 1])
      .filter((n) => n >= 0);
    if (lengths.length > 0) {
      options.push(
        fc
          .tuple(fc.constantFrom(...lengths), fc.constantFrom('a', 'é', '😀', '\u0000', ' '))
          .map(([n, c]) => c.repeat(n)),
      );
    }
  }
  if (schema?.type === 'number' || schema?.type === 'integer') {
    const edges = [schema.minimum, schema.maximum]
      .filter((n): n is number => typeof n === 'number')
      .flatMap((n) => [n - 1, n - 0.5, n, n + 0.5, n + 1, n + Number.EPSILON]);
    options.push(fc.constantFrom(...edges, 2 ** 53, -(2 ** 31), 1e-300));
  }
  if (schema?.type === 'array') {
    const max = schema.maxItems ?? 100;
    options.push(fc.constantFrom(max + 1, 10_000).map((n) => filled(n, null)));
  }
  if (schema?.enum) options.push(fc.constantFrom(...schema.enum.map((e: unknown) => `${String(e).toUpperCase()} `)));
  return fc.oneof(...options);
}

/** One mutation of a value: replace or remove a place, or add an unknown field to an object. */
function mutation(value: unknown, schema: Schema): fc.Arbitrary<unknown> {
  const places = pathsOf(value, schema);
  return fc.constantFrom(...places).chain(([path, here]) => {
    const target = path.reduce<any>((v, k) => v?.[k], value);
    const ops: fc.Arbitrary<unknown>[] = [replacement(here).map((r) => setAt(value, path, r))];
    if (path.length > 0) ops.push(fc.constant(setAt(value, path, REMOVE)));
    if (target !== null && typeof target === 'object' && !Array.isArray(target)) {
      ops.push(
        fc
          .tuple(
            fc.oneof(fc.constantFrom('__proto__', 'constructor', 'extra', '', '\u0000'), fc.string()),
            fc.jsonValue({ maxDepth: 2 }),
          )
          .map(([k, v]) => setAt(value, [...path, k], v)),
      );
    }
    return fc.oneof(...ops);
  });
}

/** A valid value with one to three mutations. */
export function almostValid(schema: Schema): fc.Arbitrary<unknown> {
  return valid(schema).chain((v) =>
    fc.integer({ min: 1, max: 3 }).chain((n) => {
      let arb: fc.Arbitrary<unknown> = fc.constant(v);
      for (let i = 0; i < n; i++) arb = arb.chain((x) => mutation(x, schema));
      return arb;
    }),
  );
}

/** A request body as it goes on the wire: JSON, or something that is not (quite) JSON. */
export interface WireBody {
  /** The value sent as JSON, when it is JSON. */
  json?: unknown;
  raw?: string | Uint8Array;
  contentType?: string;
  /** Bodies too big to show in a counterexample, made when sent. */
  huge?: 'string' | 'nesting';
}

/** The bytes of a body. */
export function rawOf(b: WireBody): string | Uint8Array | undefined {
  if (b.huge === 'string') return `{"a":"${'x'.repeat(1_100_000)}"}`;
  if (b.huge === 'nesting') return `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  return b.raw;
}

const badRaw: fc.Arbitrary<WireBody> = fc.oneof(
  fc
    .constantFrom(
      '{',
      '{"a":',
      '{"a":1,}',
      "{'a':1}",
      '[1,2',
      'nul',
      '{"a":1}{"b":2}',
      '\ufeff{}',
      '{"a":"\\ud800"}',
      '{"a":"\\u0000"}',
      '{"__proto__":{"x":1}}',
      '"just a string"',
      '42',
      'null',
      '[]',
      '',
    )
    .map((raw) => ({ raw })),
  fc.constantFrom(
    { raw: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
    { raw: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x22, 0x7d]) },
    { raw: new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]) },
    { huge: 'string' as const },
    { huge: 'nesting' as const },
  ),
);

/** A body of another content type than the one the route takes. */
function wrongType(schema: Schema): fc.Arbitrary<WireBody> {
  return fc
    .tuple(
      valid(schema),
      fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=zzz',
        'multipart/form-data',
        'application/xml',
        'application/json; charset=latin1',
        'application/json; charset=utf-16',
        'application/merge-patch+json',
        '',
        'image/png',
      ),
    )
    .map(([v, contentType]) => ({ raw: JSON.stringify(v), contentType }));
}

/**
 * Bodies for a route: valid ones (about a third, so accepted requests are tested too),
 * almost-valid ones, and bodies that are not JSON or not of the right content type.
 */
export function wireBody(schema: Schema): fc.Arbitrary<WireBody> {
  return fc.oneof(
    { weight: 5, arbitrary: valid(schema).map((json) => ({ json })) },
    { weight: 8, arbitrary: almostValid(schema).map((json) => ({ json })) },
    { weight: 1, arbitrary: badRaw },
    { weight: 1, arbitrary: wrongType(schema) },
  );
}
