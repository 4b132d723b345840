import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  addressList,
  baseUrl,
  boolean,
  durationMs,
  endpointUrl,
  int,
  list,
  number,
  oneOf,
  secret,
  secretPair,
  text,
  url,
} from '../../src/config/parse.js';
import { ConfigError as ReExported, loadConfig } from '../../src/config/env.js';

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('config readers', () => {
  it('treat unset and blank values as the fallback, and trim', () => {
    expect(text({ A: '  x ' }, 'A')).toBe('x');
    expect(text({ A: '   ' }, 'A')).toBeUndefined();
    expect(int({}, 'A', { fallback: 7, min: 0 })).toBe(7);
    expect(int({ A: ' ' }, 'A', { fallback: 7, min: 0 })).toBe(7);
    expect(int({ A: ' 12 ' }, 'A', { fallback: 7, min: 0 })).toBe(12);
  });

  it('check numbers against their range, naming the variable and the value', () => {
    expect(refusal(() => int({ A: '1.5' }, 'A', { fallback: 1, min: 0 }))).toBe('A must be an integer >= 0 (got "1.5")');
    expect(refusal(() => int({ A: '9' }, 'A', { fallback: 1, min: 1, max: 8 }))).toBe('A must be an integer between 1 and 8 (got "9")');
    expect(refusal(() => durationMs({ T_MS: 'soon' }, 'T_MS', { fallback: 1, min: 100 }))).toBe('T_MS must be an integer >= 100 (got "soon")');
    expect(number({ W: '0.25' }, 'W', { fallback: 0.5, min: 0, max: 1 })).toBe(0.25);
    expect(refusal(() => number({ W: 'Infinity' }, 'W', { fallback: 0.5, min: 0 }))).toMatch(/^W must be a number >= 0/);
  });

  it('read booleans strictly, or loosely where documented', () => {
    expect(boolean({ B: 'true' }, 'B', false)).toBe(true);
    expect(boolean({ B: 'false' }, 'B', true)).toBe(false);
    expect(boolean({}, 'B', true)).toBe(true);
    expect(refusal(() => boolean({ B: 'yes' }, 'B', false))).toBe('B must be true or false (got "yes")');
    for (const v of ['1', 'YES', 'on', 'True']) expect(boolean({ B: v }, 'B', false, { loose: true }), v).toBe(true);
    for (const v of ['0', 'no', 'OFF']) expect(boolean({ B: v }, 'B', true, { loose: true }), v).toBe(false);
    expect(refusal(() => boolean({ B: 'maybe' }, 'B', false, { loose: true }))).toMatch(/^B must be true or false/);
  });

  it('read one of a set of words', () => {
    expect(oneOf({}, 'E', ['a', 'b'], 'a')).toBe('a');
    expect(oneOf({ E: ' B ' }, 'E', ['a', 'b'], 'a', { lowercase: true })).toBe('b');
    expect(refusal(() => oneOf({ E: 'c' }, 'E', ['a', 'b'], 'a'))).toBe('E must be "a" or "b" (got "c")');
    expect(refusal(() => oneOf({ E: 'd' }, 'E', ['a', 'b', 'c'], 'a'))).toBe('E must be one of a, b, c (got "d")');
  });

  it('read secrets without echoing them', () => {
    expect(secret({ S: ' k ' }, 'S')).toBe('k');
    expect(secret({ S: ' k ' }, 'S', { trim: false })).toBe(' k ');
    expect(refusal(() => secret({ S: 'a\nb' }, 'S'))).toBe('S must be a single line');
    const short = refusal(() => secret({ S: 'hunter2' }, 'S', { minLength: 32 }));
    expect(short).toMatch(/^S must be at least 32 characters/);
    expect(short).not.toContain('hunter2');
    expect(secretPair({}, 'ID', 'SECRET')).toEqual([undefined, undefined]);
    expect(refusal(() => secretPair({ ID: 'x' }, 'ID', 'SECRET'))).toBe('ID and SECRET must be set together');
  });

  it('read URLs: absolute, http(s) unless told otherwise, bases without trailing slashes', () => {
    expect(url({ U: 'http://h:9000/' }, 'U')).toBe('http://h:9000/');
    expect(baseUrl({ U: 'https://h/api//' }, 'U')).toBe('https://h/api');
    expect(refusal(() => url({ U: 'not a url' }, 'U'))).toBe('U must be an absolute http(s) URL (got "not a url")');
    expect(refusal(() => url({ U: 'ftp://h' }, 'U'))).toBe('U must be an http:// or https:// URL');
    expect(url({ U: 'ftp://h' }, 'U', { http: false })).toBe('ftp://h');
    expect(refusal(() => baseUrl({ U: 'http://h/?a=1' }, 'U', { noQuery: true }))).toBe('U must not have a query or fragment');
  });

  it('make one endpoint URL from a base, a bare host or the endpoint itself', () => {
    expect(endpointUrl('U', 'http://h:1', '/chat/completions')).toBe('http://h:1/v1/chat/completions');
    expect(endpointUrl('U', 'http://h:1/v1/', '/audio/transcriptions')).toBe('http://h:1/v1/audio/transcriptions');
    expect(endpointUrl('U', 'http://h:1/v1/chat/completions/', '/chat/completions')).toBe('http://h:1/v1/chat/completions');
    expect(refusal(() => endpointUrl('U', 'ftp://h', '/x'))).toBe('U must be an http:// or https:// URL');
  });

  it('read lists and lists of addresses or CIDR ranges', () => {
    expect(list({ L: ' a, ,b ,' }, 'L')).toEqual(['a', 'b']);
    expect(list({}, 'L')).toEqual([]);
    expect(addressList({ L: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8' }, 'L')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8']);
    expect(addressList({ L: 'loopback,10.1.2.3' }, 'L', { names: ['loopback'] })).toEqual(['loopback', '10.1.2.3']);
    for (const bad of ['10.0.0.0/33', 'fd00::/129', '10.0.0/8', 'proxy.internal', '1', '127.1', '10.0.0.0/x', 'loopback']) {
      expect(
        refusal(() => addressList({ L: bad }, 'L')),
        bad,
      ).toMatch(new RegExp(`^L: "${bad.replace(/[./]/g, '\\$&')}" is not an IP address, a CIDR range`));
    }
  });

  it('env.ts re-exports the one ConfigError', () => {
    expect(ReExported).toBe(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
  });
});

describe('src/config structure', () => {
  const dir = path.resolve(__dirname, '../../src/config');
  const imports = (file: string) => [...fs.readFileSync(path.join(dir, file), 'utf8').matchAll(/from '\.\/([\w.-]+)\.js'/g)].map((m) => `${m[1]}.ts`);

  it('loaders import only parse.ts from src/config, so nothing there imports in a cycle', () => {
    const loaders = fs.readdirSync(dir).filter((f) => f.endsWith('.env.ts'));
    expect(loaders.length).toBeGreaterThanOrEqual(5);
    for (const f of loaders) expect(imports(f), f).toEqual(imports(f).length ? ['parse.ts'] : []);
    expect(imports('parse.ts')).toEqual([]);
  });

  it('no loader reads process.env: loadConfig passes the environment down', () => {
    for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'env.ts')) {
      const code = fs.readFileSync(path.join(dir, f), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(code, f).not.toMatch(/process\.env/);
    }
  });
});
