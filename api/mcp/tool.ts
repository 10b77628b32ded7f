/**
 * An MCP tool is declared once with `tool({...})`, as a REST route is with `route()`: its name,
 * title, description, what it does to the world (its annotations), valibot input and output
 * schemas (the JSON Schemas tools/list names are generated from them; the output schema is the
 * REST route's answer, core/schemas/responses.ts), the operation it performs (whose rate limits
 * it takes, core/operations.ts) and its handler, which calls the same command or query as the
 * REST route. `serveTools` registers the declared tools with the SDK's server: an argument the
 * input schema does not name is refused, naming it; a tool's errors are error objects.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import type { Caller } from '../../core/caller.js';
import { AppError } from '../../core/errors.js';
import type { CommandLimits, Limiter } from '../../core/limiter.js';
import { limitsOfCall, type OperationCall, type OperationName, operationAccess } from '../../core/operations.js';
import { authorize, type Role, roleAllows } from '../../core/rules/roles.js';
import { toolAllowed } from '../../core/rules/scopes.js';
import type { Services } from '../../core/services.js';
import { issueToError } from '../../core/validation.js';
import { outageError } from '../../platform/edge/errors.js';
import { outline } from './outline.js';
import { rpcError } from './rpcError.js';

/**
 * What a call does to the world, as MCP's tool annotations say it, so a client knows which
 * calls to ask the person about. A tool that changes nothing says only whether it reaches
 * outside the service (fetching a URL it is given: openWorld); one that writes says too
 * whether it can destroy what was there and whether repeating the same call changes more.
 */
export type ToolHints =
  | { readOnly: true; openWorld: boolean }
  | { readOnly: false; destructive: boolean; idempotent: boolean; openWorld: boolean };

export interface ToolDef<S extends v.GenericSchema, A extends 'key' | 'optional-key'> {
  /** The name clients call; never changes. */
  name: string;
  /** A short name for people. */
  title: string;
  description: string;
  hints: ToolHints;
  /** What the handler answers (the REST route's answer schema): tools/list's outputSchema. */
  output: v.GenericSchema;
  /** 'key': the caller needs an API key; 'optional-key': anyone may call. */
  auth: A;
  input: S;
  /** Parse the arguments in the handler (validate_page reports every problem instead of the first). */
  rawInput?: boolean;
  /** The operation the tool performs, as the REST route that names it does: its limits apply. */
  operation: OperationName;
  /** The arguments the REST route carries in its path (`network`), for the operation's limits. */
  pathArgs?: readonly string[];
  /**
   * Listed only to a key of this role: propose_change is a contributor's update_page, and a
   * caller who may change pages is shown update_page alone (every caller may still call it).
   */
  listedFor?: Role;
  /** What tools/list adds as the tool's `_meta`: the MCP App a host may show with its result (apps/). */
  meta?: Record<string, unknown>;
  handler(
    s: Services,
    caller: A extends 'key' ? Caller & { accountId: string } : Caller,
    input: v.InferOutput<S>,
    limits: CommandLimits,
  ): Promise<unknown>;
}

// biome-ignore lint/suspicious/noExplicitAny: a list of tools with different schemas
export type AnyTool = ToolDef<any, 'key' | 'optional-key'>;

/** Declares a tool; the identity function that gives the handler its input types. */
export function tool<S extends v.GenericSchema, A extends 'key' | 'optional-key'>(def: ToolDef<S, A>): AnyTool {
  return def as AnyTool;
}

function keyRequired(): AppError {
  return new AppError('unauthorized', {
    hint: 'This tool needs an API key: send "Authorization: Bearer svc_sk_…" (create_page without a key returns one).',
  });
}

/** A tool error: the error object as text (no structuredContent: that is for the outputSchema's answers). */
function errorResult(err: AppError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(err.toBody()) }] };
}

/** A JSON Schema of a valibot schema, as MCP lists it (no `$schema`; the spec's dialect applies). */
function jsonSchemaOf(schema: v.GenericSchema): Record<string, unknown> {
  const { $schema: _, ...json } = toJsonSchema(schema, { errorMode: 'ignore' }) as Record<string, unknown>;
  return { type: 'object', ...json };
}

function annotationsOf(h: ToolHints) {
  return h.readOnly
    ? { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: h.openWorld }
    : { readOnlyHint: false, destructiveHint: h.destructive, idempotentHint: h.idempotent, openWorldHint: h.openWorld };
}

/** The first argument the tool's input schema does not name, refused with the names it takes. */
function unknownArgument(t: AnyTool, args: Record<string, unknown>, names: readonly string[]): AppError | null {
  const unknown = Object.keys(args).find((k) => !names.includes(k));
  if (unknown === undefined) return null;
  const takes = names.length === 0 ? 'no arguments' : `only ${names.join(', ')}`;
  return new AppError('invalid_fields', {
    field: unknown,
    detail: unknown,
    hint: `${t.name} has no argument of this name; it takes ${takes}.`,
  });
}

/** A tool call as the limits of its operation judge it: the REST request it stands for. */
function callOf(t: AnyTool, caller: Caller, input: unknown): OperationCall {
  const body = { ...(input as Record<string, unknown>) };
  const params: Record<string, string | undefined> = {};
  for (const name of t.pathArgs ?? []) {
    params[name] = body[name] === undefined ? undefined : String(body[name]);
    delete body[name];
  }
  return { accountId: caller.accountId, body: t.pathArgs ? body : input, params };
}

/** How many levels of an answer's fields tools/list's outputSchema spells out (outline.ts). */
const OUTPUT_DEPTH = 1;

/** What tools/list answers for `tools`, made once per list (a server is made per request). */
export function toolList(tools: readonly AnyTool[]) {
  return tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    // Unknown arguments are refused (serveTools), and the schema says so.
    inputSchema: { ...jsonSchemaOf(t.input), additionalProperties: false },
    // The answer's fields with their types (outline.ts).
    outputSchema: outline(jsonSchemaOf(t.output), OUTPUT_DEPTH),
    annotations: { title: t.title, ...annotationsOf(t.hints) },
    ...(t.meta && { _meta: t.meta }),
  }));
}

/** The argument names of each tool's input schema, from its listed JSON Schema. */
function argumentNames(list: ReturnType<typeof toolList>): Map<string, readonly string[]> {
  return new Map(list.map((t) => [t.name, Object.keys((t.inputSchema as { properties?: object }).properties ?? {})]));
}

export interface ToolSdk {
  ListToolsRequestSchema: typeof import('@modelcontextprotocol/sdk/types.js').ListToolsRequestSchema;
  CallToolRequestSchema: typeof import('@modelcontextprotocol/sdk/types.js').CallToolRequestSchema;
  ErrorCode: typeof ErrorCode;
}

/** Registers the tools (listed as `list`, from toolList) with the SDK server, for one caller. */
export function serveTools(
  server: Server,
  sdk: ToolSdk,
  tools: readonly AnyTool[],
  list: ReturnType<typeof toolList>,
  o: { s: Services; limiter: Limiter; caller: Caller },
): void {
  const { s, limiter, caller } = o;
  const names = argumentNames(list);
  // A caller sees only the tools its scopes (an app's) and role (a key's) let it call.
  const grant = caller.grant;
  const callable = (t: AnyTool) =>
    toolAllowed(t.name, caller.scopes) &&
    (!grant || roleAllows(grant.role, operationAccess(t.operation).role)) &&
    (!t.listedFor || grant?.role === t.listedFor);
  const allowed = new Set(tools.filter(callable).map((t) => t.name));
  const listed = list.filter((t) => allowed.has(t.name));
  server.setRequestHandler(sdk.ListToolsRequestSchema, async () => ({ tools: listed }));
  server.setRequestHandler(sdk.CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const t = tools.find((x) => x.name === request.params.name);
    // A tool that does not exist is a protocol error (the spec's example: -32602), not a tool's.
    if (!t) throw rpcError(sdk.ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    try {
      if (t.auth === 'key' && !caller.accountId) throw keyRequired();
      if (!toolAllowed(t.name, caller.scopes)) throw new AppError('insufficient_scope', { detail: t.name });
      // Arguments the schema refuses use no limit (the REST routes refuse bad bodies first too).
      const args = request.params.arguments ?? {};
      const unknown = unknownArgument(t, args, names.get(t.name) ?? []);
      if (unknown) throw unknown;
      let input: unknown = args;
      if (!t.rawInput) {
        const parsed = v.safeParse(t.input, args, { abortPipeEarly: true });
        if (!parsed.success) throw issueToError(parsed.issues[0]);
        input = parsed.output;
      }
      // The role check of core/rules/roles.ts, as the REST route's; the page is the `id` argument.
      const access = operationAccess(t.operation);
      if (grant) authorize(grant, access.role, access.page ? String((input as { id: unknown }).id) : undefined);
      // Limits on what is created or fetched are counted by the command (core/limiter.ts).
      const limits = await limiter.forCommand(limitsOfCall(t.operation, callOf(t, caller, input)), caller);
      const result = await t.handler(s, caller as Caller & { accountId: string }, input, limits);
      return {
        content: [{ type: 'text', text: JSON.stringify(result) }],
        structuredContent: result as Record<string, unknown>,
      };
    } catch (err) {
      if (err instanceof AppError) return errorResult(err);
      const outage = outageError(err);
      if (outage) {
        s.log.warn({ err, tool: t.name }, 'MCP tool: database or storage unavailable');
        return errorResult(outage);
      }
      s.log.error({ err, tool: t.name }, 'MCP tool failed');
      return errorResult(new AppError('internal'));
    }
  });
}
