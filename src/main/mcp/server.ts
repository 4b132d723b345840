import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerClipTools } from './clip-tools.js';
import { registerMediaTools } from './media-tools.js';
import type { ToolContext } from './tool-kit.js';

export { toolError } from './tool-kit.js';

/**
 * The MCP server of `cutroom mcp` (stdio) and of `/mcp` on the service (Streamable HTTP): tools for a
 * model that call the service through the project's SDK (@cutroom/sdk; no second copy of its rules).
 * Every result carries the API's JSON as `structuredContent` beside a short text; a refusal of the API
 * is a tool error (`isError`) with the SDK's reason sentence and `{ code, status, reason, extra }`.
 * Input schemas are the OpenAPI document's fields (api-schemas.ts). docs/mcp.md.
 */
export const MCP_VERSION = '0.2.0';

export function createMcpServer(ctx: ToolContext): McpServer {
  const server = new McpServer(
    { name: 'cutroom', version: MCP_VERSION },
    {
      instructions:
        'Cutroom clips videos into short vertical clips, transcribes media and generates images and videos. Tools that spend credits (clip_video, transcribe, create_generation) say the price; check get_balance first and confirm the price with the person. Long jobs return an id at once: follow them with the get_… tools and wait_seconds.',
    },
  );
  registerClipTools(server, ctx);
  registerMediaTools(server, ctx);
  return server;
}
