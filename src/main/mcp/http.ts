import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Cutroom } from '@cutroom/sdk';
import type { McpEndpoint } from '../../http/routes/mcp.routes.js';
import { openApiDocument } from '../../http/openapi-document.js';
import { ApiSchemas, type OpenApiDoc } from './api-schemas.js';
import { linkOpener } from './links.js';
import { createMcpServer } from './server.js';

/**
 * `/mcp` on the service: for each POST, a fresh MCP server and a stateless Streamable HTTP transport
 * (no session: every process of a scaled-out service answers any message). The tools call the API
 * through the project's SDK with the caller's own key and workspace, answered in process by the app
 * (`inProcessFetch`), so every rule, limit and meter of the API applies to them as to any client.
 * A tool never reads the service's disk (no local paths); a link it reads keeps the service's link
 * rules (CUTROOM_ALLOW_PRIVATE_SOURCES).
 */
export function createMcpEndpoint(opts: { publicBaseUrl: string; allowPrivateLinks: boolean }): McpEndpoint {
  let schemas: Promise<ApiSchemas> | undefined;
  const schemasOnce = () => (schemas ??= openApiDocument(opts.publicBaseUrl).then((doc) => new ApiSchemas(doc as unknown as OpenApiDoc)));
  const openLink = linkOpener(opts.allowPrivateLinks);
  return {
    async handle(req, res, body, caller) {
      // The address only shapes the requests' paths: `inProcessFetch` answers them without a socket.
      const cutroom = new Cutroom({ baseUrl: 'http://cutroom.internal', apiKey: caller.apiKey, workspaceId: caller.workspaceId, fetch: caller.api });
      const server = createMcpServer({ cutroom, schemas: await schemasOnce(), localFiles: false, openLink });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    },
  };
}
