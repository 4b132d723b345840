import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Cutroom, CutroomConfigError } from '@cutroom/sdk';
import { openApiDocument } from '../../http/openapi-document.js';
import { ApiSchemas, type OpenApiDoc } from './api-schemas.js';
import { linkOpener } from './links.js';
import { createMcpServer } from './server.js';

/**
 * `cutroom mcp`: the MCP server over stdio for a desktop assistant, with CUTROOM_URL and CUTROOM_API_KEY
 * as the user CLI reads them. Stdout carries the protocol only; a missing key is said on stderr (exit 2).
 * It runs until the assistant closes its stdin. Local paths are welcome (the files are the caller's), and
 * so are links to the caller's own network.
 */
export async function runMcpStdio(env: Record<string, string | undefined>, stderr: NodeJS.WritableStream): Promise<number> {
  const baseUrl = env.CUTROOM_URL?.trim();
  if (baseUrl && !/^https?:\/\/[^/]/i.test(baseUrl)) {
    stderr.write(`cutroom mcp: CUTROOM_URL must be an http(s) URL (got "${baseUrl}")\n`);
    return 2;
  }
  if (!env.CUTROOM_API_KEY?.trim()) {
    stderr.write('cutroom mcp: CUTROOM_API_KEY is not set (the API key of your workspace)\n');
    return 2;
  }
  let cutroom: Cutroom;
  try {
    cutroom = Cutroom.fromEnv(env);
  } catch (err) {
    if (err instanceof CutroomConfigError) {
      stderr.write(`cutroom mcp: ${err.message}\n`); // the SDK’s own checks of its options
      return 2;
    }
    throw err;
  }
  // The tools' input schemas come from this version's OpenAPI document, built from its routes.
  const schemas = new ApiSchemas((await openApiDocument(baseUrl ?? 'http://localhost:8080')) as unknown as OpenApiDoc);
  const server = createMcpServer({ cutroom, schemas, localFiles: true, openLink: linkOpener(true) });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
  return 0;
}
