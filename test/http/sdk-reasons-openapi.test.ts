import { describe, expect, it } from 'vitest';
import { ERROR_REASONS } from '../../sdk/src/index.js';
import { openApiDocument } from '../../src/http/openapi-document.js';

/** Every `code` an error response of the OpenAPI document can carry (each is narrowed to an `enum`). */
function documentedCodes(doc: unknown): Set<string> {
  const codes = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    const code = (n.properties as { code?: { enum?: unknown } } | undefined)?.code;
    if (Array.isArray(code?.enum)) for (const c of code.enum) if (typeof c === 'string') codes.add(c);
    Object.values(n).forEach(walk);
  };
  walk((doc as { paths?: unknown }).paths);
  return codes;
}

describe('the SDK’s error reasons and the OpenAPI document', () => {
  it('every code the document says an operation can answer has a sentence in sdk/src/reasons.ts', async () => {
    const codes = documentedCodes(await openApiDocument('http://localhost:8080'));
    expect(codes.size).toBeGreaterThan(50);
    expect([...codes].filter((code) => !Object.hasOwn(ERROR_REASONS, code))).toEqual([]);
  });
});
