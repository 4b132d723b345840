/**
 * Generates sdk/src/resources.ts from the OpenAPI document (scripts/build-sdk.ts): one object per tag
 * (`cutroom.submissions`, `cutroom.renders`, …) whose methods call the operations with concrete
 * parameter types, so a misspelled body field is a compile error (openapi-fetch's generic `init`
 * parameter defeats TypeScript's excess-property check; a method's own parameter type does not).
 *
 * Names: the tag in camelCase is the object; a method is its operationId without the tag's noun
 * (singular or plural) when that noun is a whole camel-case word after the verb: createSubmission →
 * `submissions.create`, getRenderLimits → `renders.getLimits`, listEditVersions → `edits.listVersions`,
 * getTranscript → `transcriptions.getTranscript`. Arguments: the path parameters in path order, the
 * JSON body, `query` (when the operation has query parameters), then `opts`.
 */

interface Param {
  name: string;
  in: string;
  required?: boolean;
}
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  parameters?: Param[];
  requestBody?: { required?: boolean; content: Record<string, unknown> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
}
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
}

/**
 * Names that the rule would give a meaning they do not have. `renders.download(renderId, dir)` is the
 * Node client's method that saves the MP4; the operation itself answers a signed link. The
 * transcription's download answers text (SRT, VTT or plain), not a file written to disk.
 */
export const RENAMED: Record<string, string> = { downloadRender: 'downloadLink', downloadTranscription: 'downloadText' };

/**
 * Operations no method is generated for: their bodies are forms with a file (multipart/form-data), sent
 * by the methods written in sdk/src/multipart.ts (operationId → `resource.method`).
 */
export const HAND_WRITTEN: Record<string, string> = {
  uploadGenerationImage: 'generations.uploadImage',
  uploadPersonaFace: 'personas.uploadFace',
};

/** `Submissions` → `submissions`. */
export const resourceName = (tag: string) => tag.charAt(0).toLowerCase() + tag.slice(1).replace(/[^A-Za-z0-9]/g, '');

/** createSubmission (tag Submissions) → `create`; see the file's comment. */
export function methodName(tag: string, operationId: string): string {
  if (RENAMED[operationId]) return RENAMED[operationId];
  const words = operationId.split(/(?=[A-Z])/);
  const plural = tag.replace(/[^A-Za-z0-9]/g, '');
  const nouns = new Set([plural, plural.replace(/s$/, '')]);
  const at = words.findIndex((w, i) => i > 0 && nouns.has(w));
  if (at < 0) return operationId;
  const rest = [...words.slice(0, at), ...words.slice(at + 1)];
  return rest[0] + rest.slice(1).join('');
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const ident = (s: string) => (/^[A-Za-z_$][\w$]*$/.test(s) ? s : JSON.stringify(s));
const comment = (lines: string[], indent: string) =>
  `${indent}/**\n${lines.map((l) => `${indent} * ${l.replace(/\*\//g, '*\\/')}`.trimEnd()).join('\n')}\n${indent} */\n`;

interface Method {
  tag: string;
  name: string;
  operationId: string;
  signature: string;
  call: string;
  doc: string[];
}

function method(tag: string, httpMethod: string, path: string, op: Operation): Method | null {
  const id = op.operationId!;
  if (HAND_WRITTEN[id]) return null;
  const o = `operations[${JSON.stringify(id)}]`;
  const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const query = (op.parameters ?? []).filter((p) => p.in === 'query');
  const contentTypes = Object.keys(op.requestBody?.content ?? {});
  if (contentTypes.some((t) => t !== 'application/json'))
    throw new Error(`${id}: a ${contentTypes.join(', ')} body needs a hand-written method (HAND_WRITTEN, sdk/src/multipart.ts)`);
  const success = Object.entries(op.responses ?? {}).filter(([code]) => /^2/.test(code));
  const answers = new Set(success.flatMap(([, r]) => Object.keys(r.content ?? {})));
  const text = answers.size > 0 && !answers.has('application/json');
  const noContent = answers.size === 0;

  const args: string[] = pathParams.map((p) => `${ident(p)}: string`);
  const init: string[] = [];
  const params: string[] = [];
  if (pathParams.length) params.push(`path: { ${pathParams.map(ident).join(', ')} }`);
  if (op.requestBody) {
    const type = op.requestBody.required
      ? `${o}['requestBody']['content']['application/json']`
      : `NonNullable<${o}['requestBody']>['content']['application/json']`;
    args.push(`body${op.requestBody.required ? '' : '?'}: ${type}`);
    init.push('body');
  }
  if (query.length) {
    const required = query.some((q) => q.required);
    args.push(`query${required ? '' : '?'}: ${required ? '' : 'NonNullable<'}${o}['parameters']['query']${required ? '' : '>'}`);
    params.push('query');
  }
  const post = httpMethod === 'post';
  args.push(`opts?: ${post ? 'PostOptions' : 'CallOptions'}`);
  if (params.length) init.push(`params: { ${params.join(', ')} }`);
  if (text) init.push(`parseAs: 'text'`);
  init.push('...callInit(opts)');
  const returns = text ? 'string' : noContent ? 'void' : `Answer<${o}>`;
  const request = `api.${httpMethod.toUpperCase()}(${JSON.stringify(path)}, { ${init.join(', ')} })`;
  const call = noContent ? `ok(${request}).then(() => undefined)` : text ? `ok(${request}) as Promise<string>` : `ok(${request})`;
  const name = methodName(tag, id);
  const doc = [`${httpMethod.toUpperCase()} ${path} (${id})${op.summary ? `: ${op.summary}` : ''}`];
  if (text) doc.push('Answers the text of the file (`format`).');
  const argNames = args.map((a) => a.replace(/\??:.*$/, ''));
  return {
    tag,
    name,
    operationId: id,
    signature: `${name}(${args.join(', ')}): Promise<${returns}>`,
    call: `${name}: (${argNames.join(', ')}) => ${call}`,
    doc,
  };
}

/** The source of sdk/src/resources.ts. */
export function resourcesSource(doc: OpenApiDoc): string {
  const byTag = new Map<string, Method[]>();
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const m of METHODS) {
      const op = item[m];
      if (!op?.operationId) continue;
      const tag = op.tags?.[0];
      if (!tag) throw new Error(`${op.operationId}: no tag, so no resource`);
      const built = method(tag, m, path, op);
      if (!built) continue;
      const key = `${resourceName(tag)}.${built.name}`;
      if (seen.has(key)) throw new Error(`${op.operationId} and ${seen.get(key)} would both be ${key}: add one to RENAMED`);
      seen.set(key, op.operationId);
      byTag.set(tag, [...(byTag.get(tag) ?? []), built]);
    }
  }
  const iface = (tag: string) => `${tag.replace(/[^A-Za-z0-9]/g, '')}Resource`;
  let out = `// Generated by scripts/build-sdk.ts (scripts/sdk-resources.ts) from the OpenAPI document of the Cutroom API (npm run build). Do not edit.\n\n`;
  out += `import type { Client } from 'openapi-fetch';\n`;
  out += `import type { operations, paths } from './schema.js';\n`;
  out += `import { callInit, ok, type Answer, type CallOptions, type PostOptions } from './call.js';\n\n`;
  for (const [tag, methods] of byTag) {
    out += comment([`\`cutroom.${resourceName(tag)}\`: the ${tag} operations.`], '');
    out += `export interface ${iface(tag)} {\n`;
    for (const m of methods) out += comment(m.doc, '  ') + `  ${m.signature};\n`;
    out += `}\n\n`;
  }
  out += `/** Every resource of the API, by name. */\nexport interface Resources {\n`;
  for (const tag of byTag.keys()) out += `  ${resourceName(tag)}: ${iface(tag)};\n`;
  out += `}\n\n`;
  out += `/** The resources calling through \`api\` (its retries, errors and headers). */\nexport function createResources(api: Client<paths>): Resources {\n  return {\n`;
  for (const [tag, methods] of byTag) {
    out += `    ${resourceName(tag)}: {\n`;
    for (const m of methods) out += `      ${m.call},\n`;
    out += `    },\n`;
  }
  out += `  };\n}\n\n`;
  out += `/** operationId → \`resource.method\` of every generated method. */\nexport const RESOURCE_METHODS: Record<string, string> = {\n`;
  for (const [tag, methods] of byTag) for (const m of methods) out += `  ${m.operationId}: '${resourceName(tag)}.${m.name}',\n`;
  out += `};\n\n`;
  out += `/** operationId → \`resource.method\` of the operations written by hand (multipart.ts). */\nexport const HAND_WRITTEN: Record<string, string> = ${JSON.stringify(HAND_WRITTEN, null, 2)};\n`;
  return out;
}
