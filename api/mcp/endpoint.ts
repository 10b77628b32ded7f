/**
 * POST /mcp: the MCP endpoint (Streamable HTTP, stateless: a fresh server per request), with
 * the same bearer key as the REST API. The tools are declared in tool.ts form (tools.ts) and
 * registered on each server by `serveTools`.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type Koa from 'koa';
import type { Caller } from '../../core/caller.js';
import { AppError } from '../../core/errors.js';
import type { Limiter } from '../../core/limiter.js';
import type { Services } from '../../core/services.js';
import { callerFrom } from '../../platform/edge/caller.js';
import type { RequestState } from '../../platform/edge/state.js';
import { serveResources } from './resources.js';
import { rpcError } from './rpcError.js';
import { serveTools, toolList } from './tool.js';
import { TOOLS } from './tools.js';

/** The MCP server's version, as `initialize` and the server cards (serverCard.ts) give it. */
export const MCP_SERVER_VERSION = '1.0.0';

/** The tools with their JSON Schemas, made once (a server is made per request). */
const TOOL_LIST = toolList(TOOLS);

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

function createMcpServer(sdk: McpSdk, s: Services, limiter: Limiter, caller: Caller): Server {
  const [{ Server }, , types] = sdk;
  const server = new Server(
    { name: 'linkpage', version: MCP_SERVER_VERSION },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'Create and edit link-in-bio pages. Start with create_page (no key needed); it returns an apiKey to send as a Bearer token for every other tool, and a claimUrl for the page owner. With a key, each page is also a resource: its Markdown twin at linkpage://pages/{id}.md.',
    },
  );
  serveTools(server, types, TOOLS, TOOL_LIST, { s, limiter, caller });
  serveResources(server, types, { s, caller });
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
  const [, , { ErrorCode }] = sdk;
  type Handler = (request: unknown, extra: unknown) => Promise<unknown>;
  const handlers = (server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  if (!(handlers instanceof Map)) throw new Error('the MCP SDK keeps its request handlers elsewhere now');
  for (const [method, handle] of handlers) {
    handlers.set(method, async (request, extra) => {
      try {
        return await handle(request, extra);
      } catch (err) {
        if (!Array.isArray((err as { issues?: unknown })?.issues)) throw err;
        throw rpcError(ErrorCode.InvalidParams, `Invalid params for ${method}.`);
      }
    });
  }
}

/** The Koa handler of /mcp (after authentication and the per-address MCP limit). */
export function mcpHandler(s: Services, limiter: Limiter): Koa.Middleware<RequestState> {
  return async (ctx) => {
    const caller = callerFrom(ctx);
    const sdk = await mcpSdk();
    // JSON that is no JSON-RPC message (nor a batch of some) is an Invalid Request (-32600, by
    // the SDK's own schema), not a parse error; `[]` too, which JSON-RPC names as one.
    const body = ctx.request.body;
    if (ctx.method === 'POST' && body !== undefined) {
      const messages = Array.isArray(body) ? body : [body];
      if (messages.length === 0 || !messages.every((m) => sdk[2].JSONRPCMessageSchema.safeParse(m).success)) {
        throw new AppError('invalid_fields', {
          field: 'body',
          detail: 'body',
          hint: 'Send a JSON-RPC 2.0 request, notification or response (or a non-empty array of them).',
        });
      }
    }
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
