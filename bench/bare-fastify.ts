import Fastify from 'fastify';

/**
 * The API bench's baseline (bench/api.bench.ts): Fastify with one route answering a constant, no
 * plugin, no logger. Listens on 127.0.0.1:$PORT and prints "listening" once it does.
 */
const app = Fastify({ logger: false });
app.get('/bare', async () => ({ balance: 120, unlimited: false, unlimited_until: null }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.stdout.write('listening\n');
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
