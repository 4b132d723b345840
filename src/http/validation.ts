import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';

// A CommonJS default export seen through NodeNext ESM.
type AddFormats = (typeof addFormatsModule)['default'];
const addFormats: AddFormats = (addFormatsModule as unknown as { default: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

function makeAjv(coerce: boolean) {
  const ajv = new Ajv({ coerceTypes: coerce ? 'array' : false, useDefaults: true, removeAdditional: false, allErrors: true, strict: false });
  addFormats(ajv);
  return ajv;
}

/**
 * JSON bodies are validated strictly (a number is not a string); query strings, path parameters and
 * headers are text on the wire, so they are coerced to the schema's types.
 */
export function validatorCompiler(): FastifySchemaCompiler<FastifySchema> {
  const strict = makeAjv(false);
  const coercing = makeAjv(true);
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    const id = (schema as { $id?: string }).$id;
    const known = id ? ajv.getSchema(id) : undefined;
    return (known ?? ajv.compile(schema as object)) as ValidateFunction;
  };
}
