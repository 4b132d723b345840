import { execSync } from 'node:child_process';
import net from 'node:net';
import pg from 'pg';

export const TEST_PG_URL = process.env.CUTROOM_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/test';
/** The machine's Redis (rate-limit counters in distributed mode); tests use keys under a prefix of their own. */
export const TEST_REDIS_URL = process.env.CUTROOM_TEST_REDIS_URL || 'redis://127.0.0.1:6379';

async function answers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** True when Redis at TEST_REDIS_URL answers PING. */
function redisAnswers(): Promise<boolean> {
  const u = new URL(TEST_REDIS_URL);
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port || 6379) });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(3000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      reply += d.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

/** The rate-limit store tests run on Redis too: start the machine's server (nothing kept on disk) if it is down. */
async function ensureRedis(): Promise<void> {
  if (await redisAnswers()) return;
  try {
    execSync(
      'mkdir -p /var/lib/redis /var/log/redis && redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log',
      { stdio: 'inherit', shell: '/bin/bash' },
    );
  } catch (err) {
    throw new Error(`Redis at ${TEST_REDIS_URL} is not answering and could not be started: ${String(err)}`, { cause: err });
  }
  for (let i = 0; i < 30; i++) {
    if (await redisAnswers()) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`Redis at ${TEST_REDIS_URL} did not come up`);
}

/**
 * The suite runs its database and queue tests on PostgreSQL too, and the rate-limit store tests on
 * Redis: start the machine's servers if they are down.
 */
export default async function setup() {
  await ensureRedis();
  await ensurePostgres();
}

async function ensurePostgres(): Promise<void> {
  if (await answers()) return;
  try {
    execSync('pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start', { stdio: 'inherit', shell: '/bin/bash' });
  } catch (err) {
    throw new Error(`PostgreSQL at ${TEST_PG_URL} is not answering and could not be started: ${String(err)}`, { cause: err });
  }
  for (let i = 0; i < 30; i++) {
    if (await answers()) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`PostgreSQL at ${TEST_PG_URL} did not come up`);
}
