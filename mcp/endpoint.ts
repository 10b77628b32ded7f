/**
 * POST /mcp: the MCP endpoint (Streamable HTTP, stateless: a fresh server per request), with
 * the same bearer key as the REST API. Tool input schemas are generated from the valibot
 * schemas; tool errors carry the same error object as REST answers.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toJsonSchema } from '@valibot/to-json-schema';
import type Koa from 'koa';
import * as v from 'valibot';
import type { Caller } from '../core/caller.js';
import { AppError } from '../core/errors.js';
import type { CommandLimits, Limiter } from '../core/limiter.js';
import { LIMITS } from '../core/rules/limits.js';
import type { Services } from '../core/services.js';
import { issueToError } from '../core/validation.js';
import { callerFrom } from '../edge/caller.js';
import { outageError } from '../edge/errors.js';
import type { RequestState } from '../edge/state.js';
import { keyRequired, TOOLS } from './tools.js';

const VERSION = '1.0.0';

/** The tools with their JSON Schemas, made once (a server is made per request). */
const TOOL_LIST = TOOLS.map((t) => {
  const { $schema: _, ...inputSchema } = toJsonSchema(t.input, { errorMode: 'ignore' }) as Record<string, unknown>;
  return { name: t.name, description: t.description, inputSchema: { type: 'object', ...inputSchema } };
});

/** The MCP SDK, loaded with the first MCP request rather than with every process (~90 ms of a start). */
let loading: Promise<McpSdk> | undefined;
type McpSdk = [
  typeof import('@modelcontextprotocol/sdk/server/index.js'),
  typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
  typeof import('@modelcontextprotocol/sdk/types.js'),
];
function mcpSdk(): Promise<McpSdk> {
  loading ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return loading;
}

function errorResult(err: AppError): CallToolResult {
  const body = err.toBody();
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: { error: body } };
}

function createMcpServer(sdk: McpSdk, s: Services, limiter: Limiter, caller: Caller): Server {
  const [{ Server }, , { CallToolRequestSchema, ListToolsRequestSchema }] = sdk;
  const server = new Server(
    { name: 'linkpage', version: VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        'Create and edit link-in-bio pages. Start with create_page (no key needed); it returns an apiKey to send as a Bearer token for every other tool, and a claimUrl for the page owner.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOL_LIST }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool)
      return errorResult(new AppError('not_found', { detail: request.params.name, hint: 'There is no such tool.' }));
    try {
      if (tool.needsKey && !caller.accountId) throw keyRequired();
      // Arguments the schema refuses use no limit (the REST routes refuse bad bodies first too).
      const args = request.params.arguments ?? {};
      let input: unknown = args;
      if (!tool.rawInput) {
        const parsed = v.safeParse(tool.input, args, { abortPipeEarly: true });
        if (!parsed.success) throw issueToError(parsed.issues[0]);
        input = parsed.output;
      }
      // Limits on what is created or fetched are counted by the command (core/limiter.ts).
      const limits: CommandLimits = {};
      for (const name of tool.limits?.(caller, input) ?? []) {
        const counts = LIMITS[name].counts;
        if (counts === 'requests') await limiter.enforce(name, caller);
        else if (counts === 'created') limits.create = await limiter.forCreates(name, caller);
        else limits.beforeFetch = async () => void (await limiter.enforce(name, caller));
      }
      const result = await tool.run(s, caller as Caller & { accountId: string }, input, limits);
      return {
        content: [{ type: 'text', text: JSON.stringify(result) }],
        structuredContent: result as Record<string, unknown>,
      };
    } catch (err) {
      if (err instanceof AppError) return errorResult(err);
      const outage = outageError(err);
      if (outage) {
        s.log.warn({ err, tool: tool.name }, 'MCP tool: database or storage unavailable');
        return errorResult(outage);
      }
      s.log.error({ err, tool: tool.name }, 'MCP tool failed');
      return errorResult(new AppError('internal'));
    }
  });
  paramsErrorsAreInvalidParams(sdk, server);
  return server;
}

/**
 * Params that do not match a method's schema (tools/call without params or with `arguments:
 * null`, initialize without params…) are the client's mistake: -32602 Invalid params. The SDK
 * parses them before any check of its own and lets the schema error through as -32603 Internal
 * error, so each registered handler (the SDK's own included) turns that error into the right one.
 */
function paramsErrorsAreInvalidParams(sdk: McpSdk, server: Server): void {
  const [, , { ErrorCode, McpError }] = sdk;
  type Handler = (request: unknown, extra: unknown) => Promise<unknown>;
  const handlers = (server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  if (!(handlers instanceof Map)) throw new Error('the MCP SDK keeps its request handlers elsewhere now');
  for (const [method, handle] of handlers) {
    handlers.set(method, async (request, extra) => {
      try {
        return await handle(request, extra);
      } catch (err) {
        if (!Array.isArray((err as { issues?: unknown })?.issues)) throw err;
        throw new McpError(ErrorCode.InvalidParams, `Invalid params for ${method}.`);
      }
    });
  }
}

/** The Koa handler of /mcp (after authentication and the per-address MCP limit). */
export function mcpHandler(s: Services, limiter: Limiter): Koa.Middleware<RequestState> {
  return async (ctx) => {
    const caller = callerFrom(ctx);
    const sdk = await mcpSdk();
    const server = createMcpServer(sdk, s, limiter, caller);
    const transport = new sdk[1].StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    ctx.respond = false;
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(ctx.req, ctx.res, ctx.request.body);
  };
}
