/**
 * Turns valibot issues into error objects (core/errors.ts): the first offending field named as a path
 * like `blocks[3].label`, with the code the schema chose (bad_url, bad_path, a username code)
 * or `invalid_fields`. Hints are fixed sentences per rule: a schema's own message, or one made
 * from the rule (never from the input, which the field already names).
 */
import * as v from 'valibot';
import { AppError, type ErrorCode, isErrorCode } from './errors.js';
import { SOCIAL_URL_HINT } from './schemas/fields.js';

type Issue = v.BaseIssue<unknown>;

/** `blocks[3].label` from a valibot issue path. */
function issuePath(issue: Issue): string {
  let out = '';
  for (const item of issue.path ?? []) out = joinPath(out, item.key);
  return out;
}

function joinPath(path: string, key: unknown): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? String(key) : `${path}.${String(key)}`;
}

/** The deepest, most specific message: for a union, the issue of the branch that matched best. */
function leafIssue(issue: Issue): Issue {
  let current = issue;
  while (current.issues && current.issues.length > 0 && current.type === 'union') current = current.issues[0];
  return current;
}

export function issueToError(raw: Issue): AppError {
  const issue = leafIssue(raw);
  const path = issuePath(issue);
  if (isErrorCode(issue.message)) {
    const code = issue.message;
    if (code === 'bad_path') return new AppError(code, { field: path, detail: String(issue.input) });
    return new AppError(code, { field: path, detail: path });
  }
  const coded = CODED_HINTS.get(issue.message);
  if (coded) return new AppError(coded, { field: path, detail: path, hint: issue.message });
  return new AppError('invalid_fields', { field: path || undefined, detail: path || 'body', hint: hintOf(issue) });
}

/** Schema messages that are a hint of their own for an error code other than invalid_fields. */
const CODED_HINTS = new Map<string, ErrorCode>([[SOCIAL_URL_HINT, 'bad_url']]);

/** valibot's own messages start so (`Invalid type: Expected … but received "nope"`); ours never do. */
const DEFAULT_MESSAGE = /^Invalid [a-z ]+: /;

const TYPE_HINTS: Record<string, string> = {
  string: 'Use a string.',
  number: 'Use a number.',
  boolean: 'Use true or false.',
  array: 'Use a list (a JSON array).',
  object: 'Use a JSON object.',
  strict_object: 'Use a JSON object.',
  null: 'Use null.',
};

/** A fixed sentence for the rule an issue broke. */
function hintOf(issue: Issue): string {
  if (issue.kind === 'schema' && issue.expected === 'never') return 'This field is not part of this request.';
  if (issue.kind === 'schema' && issue.received === 'undefined') return 'This field is required.';
  if (!DEFAULT_MESSAGE.test(issue.message)) return issue.message;
  const requirement = (issue as { requirement?: unknown }).requirement;
  const items = Array.isArray(issue.input) ? 'items' : 'characters';
  switch (issue.type) {
    case 'picklist':
    case 'literal':
      return `Use one of: ${(issue.expected ?? '').replace(/[()"]/g, '').split(' | ').join(', ')}.`;
    case 'min_length':
      return `Use at least ${String(requirement)} ${items}.`;
    case 'max_length':
      return `Use at most ${String(requirement)} ${items}.`;
    case 'min_value':
      return `Use a number of at least ${String(requirement)}.`;
    case 'max_value':
      return `Use a number of at most ${String(requirement)}.`;
    case 'integer':
      return 'Use a whole number.';
    default:
      return TYPE_HINTS[issue.type] ?? 'This value is not valid here.';
  }
}

/**
 * Where `input` holds an array in place of an object the schema expects (valibot reads `[]`
 * as `{}`), as paths in input order.
 */
function arraysForObjects(schema: unknown, input: unknown, path: string, out: string[]): string[] {
  const s = schema as {
    type: string;
    wrapped?: unknown;
    entries?: Record<string, unknown>;
    item?: unknown;
    key?: string;
    options?: { entries: Record<string, { literal?: unknown }> }[];
  };
  switch (s.type) {
    case 'optional':
    case 'nullable':
    case 'nullish':
      if (input !== undefined && input !== null) arraysForObjects(s.wrapped, input, path, out);
      break;
    case 'object':
    case 'strict_object':
    case 'loose_object':
      if (Array.isArray(input)) out.push(path);
      else if (typeof input === 'object' && input !== null) {
        for (const [key, entry] of Object.entries(s.entries ?? {})) {
          if (Object.hasOwn(input, key)) {
            arraysForObjects(entry, (input as Record<string, unknown>)[key], joinPath(path, key), out);
          }
        }
      }
      break;
    case 'variant':
      if (Array.isArray(input)) out.push(path);
      else if (typeof input === 'object' && input !== null && s.key !== undefined) {
        const tag = (input as Record<string, unknown>)[s.key];
        const option = s.options?.find((o) => o.entries[s.key as string]?.literal === tag);
        if (option) arraysForObjects(option, input, path, out);
      }
      break;
    case 'array':
      if (Array.isArray(input)) {
        for (const [i, x] of input.entries()) arraysForObjects(s.item, x, joinPath(path, i), out);
      }
      break;
  }
  return out;
}

function notAnObject(path: string): AppError {
  return new AppError('invalid_fields', {
    field: path || undefined,
    detail: path || 'body',
    hint: path ? 'Use a JSON object here, not an array.' : 'Send a JSON object as the body, not an array.',
  });
}

/** Parses input or throws the error for the first offending field. */
export function parseOrThrow<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const [array] = arraysForObjects(schema, input, '', []);
  if (array !== undefined) throw notAnObject(array);
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (!result.success) throw issueToError(result.issues[0]);
  return result.output;
}

/** Every problem with input, one error per offending field, in schema order. */
export function allProblems<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
): { output?: v.InferOutput<S>; problems: AppError[] } {
  const arrays = arraysForObjects(schema, input, '', []);
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success && arrays.length === 0) return { output: result.output, problems: [] };
  const seen = new Set<string>();
  const problems: AppError[] = [];
  const errors = [...arrays.map(notAnObject), ...(result.issues ?? []).map(issueToError)];
  for (const err of errors) {
    const key = err.fields.field ?? '';
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(err);
  }
  return { problems };
}
