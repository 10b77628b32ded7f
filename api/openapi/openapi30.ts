/**
 * The OpenAPI 3.0.3 edition of the API's description (served at /openapi.json, as the contract
 * names it), converted from the 3.1 document (/openapi-3.1.json) that the route declarations
 * write. @apiture/openapi-down-convert does the conversion (`type: [x, "null"]` to `nullable`,
 * `const` to `enum`, `examples` to `example`, and the 3.1 `webhooks` go: 3.0 has no place for
 * them, the 3.1 document keeps them); what it leaves is done here: a null branch of `anyOf` or
 * `oneOf` becomes `nullable` (a lone other branch taking the schema's place, a lone `$ref` kept
 * in an `allOf` with the type of the schema it names), a `const` left in
 * the schemas only the webhooks used becomes an `enum`, and an empty `required` list, which 3.0
 * forbids, goes.
 */
import { Converter } from '@apiture/openapi-down-convert';

type Json = Record<string, unknown>;

const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const isNull = (x: unknown) => isObject(x) && x.type === 'null' && Object.keys(x).length === 1;

/** The `type` of the named schema a `$ref` points at, when it has one. */
type RefType = (ref: unknown) => unknown;

/** One schema (or any other node) as 3.0 reads it, its children first. */
function fix(node: unknown, typeOf: RefType): unknown {
  if (Array.isArray(node)) return node.map((n) => fix(n, typeOf));
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = fix(value, typeOf);
  if (Array.isArray(out.required) && out.required.length === 0) delete out.required;
  if ('const' in out && !('enum' in out)) {
    out.enum = [out.const];
    delete out.const;
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = out[key];
    if (!Array.isArray(branches) || !branches.some(isNull)) continue;
    const rest = branches.filter((b) => !isNull(b));
    delete out[key];
    // A lone `$ref` cannot carry `nullable` beside it in 3.0: it stays a one-branch allOf, with
    // the type of the schema it names (`nullable` means nothing without a `type` beside it).
    if (rest.length === 1 && isObject(rest[0]) && !('$ref' in rest[0])) Object.assign(out, rest[0]);
    else if (rest.length === 1) {
      out.allOf = rest;
      const type = isObject(rest[0]) ? typeOf(rest[0].$ref) : undefined;
      if (typeof type === 'string') out.type = type;
    } else out[key] = rest;
    out.nullable = true;
  }
  // OpenAPI 3.0.3: an enum lists every value allowed, so a nullable enum lists null too.
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out;
}

export function toOpenApi30(document: object): Json {
  const converted = new Converter(document, { allOfTransform: false }).convert();
  const schemas = ((converted as Json).components as Json | undefined)?.schemas as Json | undefined;
  const prefix = '#/components/schemas/';
  const typeOf: RefType = (ref) => {
    if (typeof ref !== 'string' || !ref.startsWith(prefix)) return undefined;
    const named = schemas?.[ref.slice(prefix.length)];
    return isObject(named) ? named.type : undefined;
  };
  return { ...(fix(converted, typeOf) as Json), openapi: '3.0.3' };
}
