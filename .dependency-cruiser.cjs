/**
 * The layers' boundaries (docs/architecture.md, "Layers"), checked by `npm run check:boundaries`:
 *   http -> domain -> ports <- adapters; jobs -> domain; main wires everything.
 * Type-only imports count: a layer may not even name another layer's types.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'domain-only-domain-ports-shared',
      comment: 'The domain holds rules only: it reaches I/O through the interfaces it owns and the ports.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/(domain|ports|shared)/' },
    },
    {
      name: 'domain-no-io-libraries',
      comment: 'No database driver, query builder, queue, web framework, filesystem or child process in the domain.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: {
        path: [
          '^(node:)?(fs|fs/promises|child_process)$',
          '(^|/)node_modules/(drizzle-orm|pg|pg-boss|@electric-sql/pglite|fastify|@fastify/[^/]+|@aws-sdk/[^/]+)/',
        ],
      },
    },
    {
      name: 'http-not-adapters-or-main',
      comment: 'Routes and plugins take the services they use (`<Name>RoutesDeps`); src/main passes them.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/(adapters|main)/' },
    },
    {
      name: 'adapters-not-http-or-main',
      comment: 'Adapters implement ports; they know neither the HTTP layer nor the wiring.',
      severity: 'error',
      from: { path: '^src/adapters/' },
      to: { path: '^src/(http|main)/' },
    },
    {
      name: 'jobs-only-domain-ports-shared',
      comment: 'Job handlers are thin: check the payload, call a domain service or processor.',
      severity: 'error',
      from: { path: '^src/jobs/' },
      to: { path: '^src/', pathNot: '^src/(jobs|domain|ports|shared)/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycle anywhere in src.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
