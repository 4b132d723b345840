import ipaddr from 'ipaddr.js';

/**
 * Typed readers of environment variables, shared by every loader of src/config. Each reader takes
 * the environment and the variable's name, treats an unset or blank value as "use the fallback",
 * and throws ConfigError with a message naming the variable when the value is bad. Nothing here
 * reads process.env: loadConfig (env.ts) is the one place that does.
 */

/** A bad configuration value. The message names the variable; `cutroom serve` prints it and exits with status 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Env = Readonly<Record<string, string | undefined>>;

/** The value of `name` without surrounding whitespace, or undefined when unset or blank. */
export function text(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
}

export interface NumberRange {
  fallback: number;
  min: number;
  max?: number;
}

function numeric(env: Env, name: string, integer: boolean, { fallback, min, max }: NumberRange): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min || (max !== undefined && n > max)) {
    const kind = integer ? 'an integer' : 'a number';
    const range = max === undefined ? `>= ${min}` : `between ${min} and ${max}`;
    throw new ConfigError(`${name} must be ${kind} ${range} (got "${env[name]}")`);
  }
  return n;
}

/** An integer within `min`..`max` (`max` optional). */
export function int(env: Env, name: string, range: NumberRange): number {
  return numeric(env, name, true, range);
}

/** A finite number within `min`..`max`. */
export function number(env: Env, name: string, range: NumberRange): number {
  return numeric(env, name, false, range);
}

/** A duration in whole milliseconds (the `*_MS` variables), within `min`..`max`. */
export function durationMs(env: Env, name: string, range: NumberRange): number {
  return numeric(env, name, true, range);
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

/**
 * `true` or `false`. With `loose`, also `1`/`0`, `yes`/`no`, `on`/`off`, in any case (the variables
 * documented that way, such as CUTROOM_ALLOW_PRIVATE_SOURCES).
 */
export function boolean(env: Env, name: string, fallback: boolean, opts: { loose?: boolean } = {}): boolean {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const v = opts.loose ? raw.toLowerCase() : raw;
  if (v === 'true' || (opts.loose && TRUE_WORDS.has(v))) return true;
  if (v === 'false' || (opts.loose && FALSE_WORDS.has(v))) return false;
  const also = opts.loose ? ' (or 1/0, yes/no, on/off)' : '';
  throw new ConfigError(`${name} must be true or false${also} (got "${env[name]}")`);
}

function choices(values: readonly string[]): string {
  return values.length === 2 ? `"${values[0]}" or "${values[1]}"` : `one of ${values.join(', ')}`;
}

/** One of `values`; with `lowercase`, compared in lower case. */
export function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T, opts: { lowercase?: boolean } = {}): T {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const v = opts.lowercase ? raw.toLowerCase() : raw;
  if (!(values as readonly string[]).includes(v)) throw new ConfigError(`${name} must be ${choices(values)} (got "${env[name]}")`);
  return v as T;
}

/**
 * A secret or token: one line, at least `minLength` characters. Kept as written unless `trim`
 * (a token's hash or a signing key must not change under the operator's feet). Never echoed in errors.
 */
export function secret(env: Env, name: string, opts: { minLength?: number; trim?: boolean } = {}): string | undefined {
  const raw = opts.trim === false ? env[name] || undefined : text(env, name);
  if (raw === undefined) return undefined;
  if (/[\r\n]/.test(raw)) throw new ConfigError(`${name} must be a single line`);
  if (opts.minLength !== undefined && raw.length < opts.minLength) {
    throw new ConfigError(`${name} must be at least ${opts.minLength} characters (for example: openssl rand -base64 48)`);
  }
  return raw;
}

/** Two secrets that only work together (an id and its secret): both set or both unset. */
export function secretPair(env: Env, first: string, second: string, hint = ''): [string | undefined, string | undefined] {
  const a = secret(env, first);
  const b = secret(env, second);
  if ((a === undefined) !== (b === undefined)) throw new ConfigError(`${first} and ${second} must be set together${hint}`);
  return [a, b];
}

export interface UrlRules {
  /** Only http: and https: (the default); false accepts any scheme. */
  http?: boolean;
  /** Refuse a query string or fragment (base URLs that paths are appended to). */
  noQuery?: boolean;
}

/** Checks `raw` as an absolute URL; `name` is the variable it came from, for the message. */
export function parseUrl(name: string, raw: string, rules: UrlRules = {}): URL {
  const http = rules.http ?? true;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute ${http ? 'http(s) ' : ''}URL (got "${raw}")`);
  }
  if (http && u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError(`${name} must be an http:// or https:// URL`);
  if (rules.noQuery && (u.search || u.hash)) throw new ConfigError(`${name} must not have a query or fragment`);
  return u;
}

/** An absolute URL, as written (trimmed), or undefined. */
export function url(env: Env, name: string, rules: UrlRules = {}): string | undefined {
  const raw = text(env, name);
  if (raw !== undefined) parseUrl(name, raw, rules);
  return raw;
}

/** An absolute URL without its trailing slashes (a base that paths are appended to), or undefined. */
export function baseUrl(env: Env, name: string, rules: UrlRules = {}): string | undefined {
  return url(env, name, rules)?.replace(/\/+$/, '');
}

/**
 * The URL of an OpenAI-compatible endpoint (`/audio/transcriptions`, `/chat/completions`) from what
 * an operator may write: the endpoint itself is kept, a bare host gets `/v1<endpoint>`, any other
 * path (`…/v1`, `…/openai/v1`) gets `<endpoint>` appended.
 */
export function endpointUrl(name: string, raw: string, endpoint: string): string {
  const u = parseUrl(name, raw);
  const p = u.pathname.replace(/\/+$/, '');
  if (p.endsWith(endpoint)) u.pathname = p;
  else if (p === '') u.pathname = `/v1${endpoint}`;
  else u.pathname = `${p}${endpoint}`;
  return u.toString();
}

/** A comma-separated list, entries trimmed, blank entries dropped; [] when unset. */
export function list(env: Env, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function isAddressOrCidr(entry: string): boolean {
  const slash = entry.indexOf('/');
  const ip = slash < 0 ? entry : entry.slice(0, slash);
  const v4 = ipaddr.IPv4.isValidFourPartDecimal(ip);
  if (!v4 && !ipaddr.IPv6.isValid(ip)) return false;
  if (slash < 0) return true;
  const bits = entry.slice(slash + 1);
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (v4 ? 32 : 128);
}

/**
 * A list of IP addresses and CIDR ranges (`127.0.0.1,10.0.0.0/8,fd00::/8`); `names` are extra
 * words accepted as entries. [] when unset.
 */
export function addressList(env: Env, name: string, opts: { names?: readonly string[] } = {}): string[] {
  const entries = list(env, name);
  for (const e of entries) {
    if (!isAddressOrCidr(e) && !opts.names?.includes(e)) {
      const named = opts.names?.length ? ` or one of ${opts.names.join(', ')}` : '';
      throw new ConfigError(`${name}: "${e}" is not an IP address, a CIDR range (such as 10.0.0.0/8)${named}`);
    }
  }
  return entries;
}

/** Bytes of the credentials key (AES-256-GCM). */
export const CREDENTIALS_KEY_BYTES = 32;

/**
 * The credentials key's written form: 64 hex characters, or base64 / base64url of 32 bytes (surrounding
 * blanks ignored); a Buffer must hold 32 bytes. Read by the configuration (CUTROOM_CREDENTIALS_KEY,
 * publishing.env.ts) and by the sealer for the key it keeps (src/adapters/publishing/credentials-crypto.ts).
 * Returns the key, or why the value is not one.
 */
export function decodeCredentialsKey(raw: string | Buffer): { key: Buffer } | { error: string } {
  if (Buffer.isBuffer(raw)) {
    return raw.length === CREDENTIALS_KEY_BYTES ? { key: raw } : { error: `credentials key must be ${CREDENTIALS_KEY_BYTES} bytes` };
  }
  const s = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(s)) return { key: Buffer.from(s, 'hex') };
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(s)) {
    const b = Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (b.length === CREDENTIALS_KEY_BYTES) return { key: b };
  }
  return { error: `credentials key must be ${CREDENTIALS_KEY_BYTES} bytes as 64 hex characters or base64 (for example: openssl rand -base64 32)` };
}
