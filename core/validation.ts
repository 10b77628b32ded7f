/**
 * Turns valibot issues into SPEC error objects: the first offending field named as a path
 * like `blocks[3].label`, with the code the schema chose (bad_url, bad_path, a username code)
 * or `invalid_fields`.
 */
import * as v from 'valibot';
import { AppError, isErrorCode } from './errors.js';

type Issue = v.BaseIssue<unknown>;

/** `blocks[3].label` from a valibot issue path. */
function issuePath(issue: Issue): string {
  let out = '';
  for (const item of issue.path ?? []) {
    const key = item.key as unknown;
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
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
  const hint = structuralHint(issue) ?? issue.message;
  return new AppError('invalid_fields', { field: path || undefined, detail: path || 'body', hint });
}

function structuralHint(issue: Issue): string | undefined {
  if (issue.kind === 'schema' && issue.expected === 'never') {
    return `Unknown field "${issuePath(issue).split(/[.[]/).pop()}"; it is not part of this request.`;
  }
  if (issue.kind === 'schema' && issue.received === 'undefined') return 'This field is required.';
  return undefined;
}

/** Parses input or throws the error for the first offending field. */
export function parseOrThrow<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (!result.success) throw issueToError(result.issues[0]);
  return result.output;
}

/** Every problem with input, one error per offending field, in schema order. */
export function allProblems<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
): { output?: v.InferOutput<S>; problems: AppError[] } {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return { output: result.output, problems: [] };
  const seen = new Set<string>();
  const problems: AppError[] = [];
  for (const issue of result.issues) {
    const err = issueToError(issue);
    const key = err.fields.field ?? '';
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(err);
  }
  return { problems };
}
