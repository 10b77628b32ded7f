/**
 * POST /mcp: the MCP endpoint (Streamable HTTP, stateless: a fresh server per request), with
 * the same bearer key as the REST API. Tool input schemas are generated from the valibot
 * schemas; tool errors carry the SPEC error object.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toJsonSchema } from '@valibot/to-json-schema';
import type Koa from 'koa';
import * as v from 'valibot';
import * as z from 'zod/v4';
import type { Caller } from '../core/caller.js';
import { AppError } from '../core/errors.js';
import type { CommandLimits, Limiter } from '../core/limiter.js';
import { LIMITS } from '../core/rules/limits.js';
import type { Services } from '../core/services.js';
import { issueToError } from '../core/validation.js';
import { callerFrom } from '../edge/caller.js';
import type { RequestState } from '../edge/state.js';
import { keyRequired, TOOLS } from './tools.js';

const VERSION = '1.0.0';

const ANY_TOOL_CALL = z.object({ method: z.literal('tools/call'), params: z.unknown() });

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
  const [{ Server }, , { ListToolsRequestSchema }] = sdk;
  const server = new Server(
    { name: 'linkpage', version: VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        'Create and edit link-in-bio pages. Start with create_page (no key needed); it returns an apiKey to send as a Bearer token for every other tool, and a claimUrl for the page owner.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOL_LIST }));
  // Registered with a schema that takes any params: the SDK then checks them itself and answers
  // bad ones (arguments null, an array, a number) with -32602 Invalid params; registered with
  // the strict schema, its first parse failed outside that check and answered -32603 Internal error.
  server.setRequestHandler(ANY_TOOL_CALL, async (loose): Promise<CallToolResult> => {
    const request = loose as CallToolRequest;
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
      s.log.error({ err, tool: tool.name }, 'MCP tool failed');
      return errorResult(new AppError('internal'));
    }
  });
  return server;
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
