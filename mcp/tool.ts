/**
 * An MCP tool is declared once with `tool({...})`, as a REST route is with `route()`: its name,
 * title, description, valibot input schema (its JSON Schema is generated from it), the
 * operation it performs (whose rate limits it takes, core/operations.ts) and its handler, which
 * calls the same command or query as the REST route. `serveTools` registers the declared tools
 * with the SDK's server; their errors are error objects.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import type { Caller } from '../core/caller.js';
import { AppError } from '../core/errors.js';
import type { CommandLimits, Limiter } from '../core/limiter.js';
import { limitsOfCall, type OperationCall, type OperationName } from '../core/operations.js';
import { toolAllowed } from '../core/rules/scopes.js';
import type { Services } from '../core/services.js';
import { issueToError } from '../core/validation.js';
import { outageError } from '../edge/errors.js';

export interface ToolDef<S extends v.GenericSchema, A extends 'key' | 'optional-key'> {
  /** The name clients call; never changes. */
  name: string;
  /** A short name for people. */
  title: string;
  description: string;
  /** 'key': the caller needs an API key; 'optional-key': anyone may call. */
  auth: A;
  input: S;
  /** Parse the arguments in the handler (validate_page reports every problem instead of the first). */
  rawInput?: boolean;
  /** The operation the tool performs, as the REST route that names it does: its limits apply. */
  operation: OperationName;
  /** The arguments the REST route carries in its path (`network`), for the operation's limits. */
  pathArgs?: readonly string[];
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

function errorResult(err: AppError): CallToolResult {
  const body = err.toBody();
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: { error: body } };
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

/** What tools/list answers for `tools`, made once per list (a server is made per request). */
export function toolList(tools: readonly AnyTool[]) {
  return tools.map((t) => {
    const { $schema: _, ...inputSchema } = toJsonSchema(t.input, { errorMode: 'ignore' }) as Record<string, unknown>;
    return {
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: { type: 'object', ...inputSchema },
    };
  });
}

export interface ToolSdk {
  ListToolsRequestSchema: typeof import('@modelcontextprotocol/sdk/types.js').ListToolsRequestSchema;
  CallToolRequestSchema: typeof import('@modelcontextprotocol/sdk/types.js').CallToolRequestSchema;
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
  server.setRequestHandler(sdk.ListToolsRequestSchema, async () => ({ tools: list }));
  server.setRequestHandler(sdk.CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const t = tools.find((x) => x.name === request.params.name);
    if (!t)
      return errorResult(new AppError('not_found', { detail: request.params.name, hint: 'There is no such tool.' }));
    try {
      if (t.auth === 'key' && !caller.accountId) throw keyRequired();
      if (!toolAllowed(t.name, caller.scopes)) throw new AppError('insufficient_scope', { detail: t.name });
      // Arguments the schema refuses use no limit (the REST routes refuse bad bodies first too).
      const args = request.params.arguments ?? {};
      let input: unknown = args;
      if (!t.rawInput) {
        const parsed = v.safeParse(t.input, args, { abortPipeEarly: true });
        if (!parsed.success) throw issueToError(parsed.issues[0]);
        input = parsed.output;
      }
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
