/**
 * A JSON-RPC error as the SDK's server sends it (its `code`, `message` and `data`), without the
 * "MCP error <code>: " that the SDK's McpError writes into its message: a client's SDK writes it
 * again when it raises the error, which read "MCP error -32602: MCP error -32602: …".
 */
export function rpcError(code: number, message: string, data?: unknown): Error & { code: number } {
  return Object.assign(new Error(message), { code }, data === undefined ? {} : { data });
}
