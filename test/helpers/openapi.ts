/**
 * Reading the served openapi.json in tests: its `$ref`s inlined (the document has no cycles), and
 * a JSON Schema 2020-12 validator (OpenAPI 3.1's schema dialect) for its schemas.
 */
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** The document with every local `$ref` replaced by what it names. */
export function dereference<T>(doc: T): T {
  const root = doc as Record<string, any>;
  const resolve = (node: unknown, seen: string[]): unknown => {
    if (Array.isArray(node)) return node.map((n) => resolve(n, seen));
    if (node === null || typeof node !== 'object') return node;
    const { $ref, ...rest } = node as Record<string, unknown>;
    if (typeof $ref === 'string' && $ref.startsWith('#/')) {
      if (seen.includes($ref)) throw new Error(`openapi.json: ${$ref} refers to itself`);
      const target = $ref
        .slice(2)
        .split('/')
        .reduce<any>((n, k) => n?.[k.replaceAll('~1', '/').replaceAll('~0', '~')], root);
      if (target === undefined) throw new Error(`openapi.json: ${$ref} names nothing`);
      return { ...(resolve(target, [...seen, $ref]) as object), ...(resolve(rest, seen) as object) };
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolve(v, seen)]));
  };
  return resolve(doc, []) as T;
}

/** The validator for the document's schemas (JSON Schema 2020-12, with formats), one a process. */
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const compiled = new Map<string, ValidateFunction>();

/**
 * The schema's validator, compiled once for each distinct schema (by its text): many answers
 * share one (the error object, a page), and compiling an inlined schema takes milliseconds.
 */
export function schemaValidator(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  const validate = compiled.get(key) ?? ajv.compile(schema);
  compiled.set(key, validate);
  return validate;
}

/** A failed validation's errors in words. */
export function schemaErrors(validate: ValidateFunction): string {
  return ajv.errorsText(validate.errors);
}
