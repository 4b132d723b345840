/**
 * The layers' boundaries (docs/architecture.md, "Layers"), checked by `npm run check:boundaries`:
 *   http -> domain -> ports <- adapters; jobs -> domain; main wires everything; config and shared are leaves.
 * Every layer under src/ has a rule: http, domain, ports, adapters, jobs, main, shared, config.
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
      name: 'ports-only-ports-shared',
      comment: 'Ports are interfaces (and their plain types): they name nothing of the domain, the adapters or the wiring.',
      severity: 'error',
      from: { path: '^src/ports/' },
      to: { path: '^src/', pathNot: '^src/(ports|shared)/' },
    },
    {
      name: 'http-not-adapters-jobs-or-main',
      comment: 'Routes and plugins take the services they use (`<Name>RoutesDeps`); src/main passes them.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/(adapters|jobs|main)/' },
    },
    {
      name: 'adapters-not-http-jobs-or-main',
      comment: 'Adapters implement ports; they know neither the HTTP layer, the job handlers nor the wiring.',
      severity: 'error',
      from: { path: '^src/adapters/' },
      to: { path: '^src/(http|jobs|main)/' },
    },
    {
      name: 'jobs-only-domain-ports-shared',
      comment: 'Job handlers are thin: check the payload, call a domain service or processor.',
      severity: 'error',
      from: { path: '^src/jobs/' },
      to: { path: '^src/', pathNot: '^src/(jobs|domain|ports|shared)/' },
    },
    {
      name: 'main-imported-by-no-layer',
      comment: 'src/main chooses and constructs; no other layer imports it (it passes what it built).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/main/' },
      to: { path: '^src/main/' },
    },
    {
      name: 'shared-only-shared',
      comment: 'src/shared is what every layer may import (the jobs table, ids, timing): it imports no layer.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/', pathNot: '^src/shared/' },
    },
    {
      name: 'config-only-config-builtins-npm',
      comment: 'Configuration reads the environment: it imports only config, node builtins and npm packages.',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { pathNot: ['^src/config/', '(^|/)node_modules/'], dependencyTypesNot: ['core'] },
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
