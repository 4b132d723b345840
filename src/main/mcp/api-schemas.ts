import { z } from 'zod';

/**
 * The MCP tools' input schemas, derived from the service's own OpenAPI document (the one
 * `GET /api/v1/openapi.json` serves, built from the routes by `openApiDocument`): a tool takes the
 * fields of an operation's request body or query with their types, limits, enums and descriptions,
 * so a limit changed in a route changes the tool too. A tool may give a field a description written
 * for a model instead of the document's (`describe`), and adds fields of its own beside them.
 */

type JsonSchema = Record<string, unknown>;

interface Operation {
  operationId?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: JsonSchema; description?: string }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export class ApiSchemas {
  private readonly operations = new Map<string, Operation>();

  constructor(private readonly doc: OpenApiDoc) {
    for (const methods of Object.values(doc.paths)) {
      for (const op of Object.values(methods)) if (op.operationId) this.operations.set(op.operationId, op);
    }
  }

  private operation(operationId: string): Operation {
    const op = this.operations.get(operationId);
    if (!op) throw new Error(`the OpenAPI document has no operation ${operationId}`);
    return op;
  }

  /** `$ref`s to the document's components replaced by the schemas they name. */
  private resolve(schema: unknown): unknown {
    if (Array.isArray(schema)) return schema.map((s) => this.resolve(s));
    if (!schema || typeof schema !== 'object') return schema;
    const ref = (schema as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') {
      const name = ref.replace('#/components/schemas/', '');
      const target = this.doc.components?.schemas?.[name];
      if (!target) throw new Error(`the OpenAPI document has no schema ${ref}`);
      return this.resolve(target);
    }
    return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === 'example' || k === 'examples' ? v : this.resolve(v)]));
  }

  /** The JSON body's schema of an operation. */
  body(operationId: string): JsonSchema {
    const schema = this.operation(operationId).requestBody?.content?.['application/json']?.schema;
    if (!schema) throw new Error(`${operationId} takes no JSON body`);
    return this.resolve(schema) as JsonSchema;
  }

  /**
   * Fields of an operation's JSON body (`from: 'body'`) or query (`from: 'query'`) as a zod shape for
   * `registerTool`: optional unless the operation requires them, with the document's description or
   * the one `describe` gives. The arguments come typed `unknown`: a tool casts them to the SDK's type of
   * the same body (zod has checked them against the document's schema by then).
   */
  fields(operationId: string, names: readonly string[], opts: { from?: 'body' | 'query'; describe?: Record<string, string> } = {}): z.ZodRawShape {
    const { properties, required } = opts.from === 'query' ? this.query(operationId) : this.objectOf(this.body(operationId));
    const shape: Record<string, z.ZodType> = {};
    for (const name of names) {
      const prop = properties[name];
      if (!prop) throw new Error(`${operationId} has no field ${name}`);
      let field = z.fromJSONSchema(prop as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodType;
      const text = opts.describe?.[name];
      if (text) field = field.describe(text);
      shape[name] = required.includes(name) ? field : field.optional();
    }
    return shape as z.ZodRawShape;
  }

  private objectOf(schema: JsonSchema): { properties: Record<string, JsonSchema>; required: string[] } {
    return { properties: (schema.properties ?? {}) as Record<string, JsonSchema>, required: (schema.required ?? []) as string[] };
  }

  private query(operationId: string): { properties: Record<string, JsonSchema>; required: string[] } {
    const params = (this.operation(operationId).parameters ?? []).filter((p) => p.in === 'query');
    return {
      properties: Object.fromEntries(
        params.map((p) => {
          const schema = this.resolve(p.schema ?? {}) as JsonSchema;
          return [p.name, p.description && !schema.description ? { ...schema, description: p.description } : schema];
        }),
      ),
      required: params.filter((p) => p.required).map((p) => p.name),
    };
  }
}
