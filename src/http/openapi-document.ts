import type { AppDeps } from './app.deps.js';
import { buildApp } from './app.js';

/** A dependency nothing may use: registering routes reads none, so the document is built without a database or server. */
function unusable(name: string): unknown {
  return new Proxy(
    {},
    {
      get(_target, prop) {
        if (prop === 'then') return undefined; // not a promise
        throw new Error(`${name}.${String(prop)} is not available while building the OpenAPI document`);
      },
    },
  );
}

/**
 * The OpenAPI document the service serves at `GET /api/v1/openapi.json`, built from the app's routes
 * without a server, a database or a configuration (scripts/build-sdk.ts generates the SDK from it).
 * `serverUrl`: the document's server (the service's PUBLIC_BASE_URL).
 */
export async function openApiDocument(serverUrl: string): Promise<Record<string, unknown>> {
  const config: AppDeps['config'] = {
    bodyLimitBytes: 1024 * 1024,
    trustProxy: [],
    publicBaseUrl: serverUrl,
    dataDir: '.',
    adminAuthFailuresPerMinute: 10,
    studio: { dir: null, fileOrigins: [] },
  };
  const deps = new Proxy({ config, signedFiles: null } as Partial<AppDeps>, {
    get: (target, prop: string) => (prop in target ? target[prop as keyof AppDeps] : unusable(prop)),
  }) as AppDeps;
  const app = await buildApp(deps, { logger: false });
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
  }
}
