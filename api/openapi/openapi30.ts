/**
 * The OpenAPI 3.0.3 edition of the API's description (served at /openapi.json, as the contract
 * names it), converted from the 3.1 document (/openapi-3.1.json) that the route declarations
 * write. @apiture/openapi-down-convert does the conversion (`type: [x, "null"]` to `nullable`,
 * `const` to `enum`, `examples` to `example`, and the 3.1 `webhooks` go: 3.0 has no place for
 * them, the 3.1 document keeps them); what it leaves is done here: a null branch of `anyOf` or
 * `oneOf` becomes `nullable` (a lone other branch taking the schema's place), a `const` left in
 * the schemas only the webhooks used becomes an `enum`, and an empty `required` list, which 3.0
 * forbids, goes.
 */
import { Converter } from '@apiture/openapi-down-convert';

type Json = Record<string, unknown>;

const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const isNull = (x: unknown) => isObject(x) && x.type === 'null' && Object.keys(x).length === 1;

/** One schema (or any other node) as 3.0 reads it, its children first. */
function fix(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(fix);
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = fix(value);
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
    // A lone `$ref` cannot carry `nullable` beside it in 3.0: it stays a one-branch allOf.
    if (rest.length === 1 && isObject(rest[0]) && !('$ref' in rest[0])) Object.assign(out, rest[0]);
    else if (rest.length === 1) out.allOf = rest;
    else out[key] = rest;
    out.nullable = true;
  }
  return out;
}

export function toOpenApi30(document: object): Json {
  const converted = new Converter(document, { allOfTransform: false }).convert();
  return { ...(fix(converted) as Json), openapi: '3.0.3' };
}
