import { parse, protocol, type PGlite, type Results } from '@electric-sql/pglite';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];

interface Statement {
  name: string;
  /** Parameter type OIDs, from the statement's description (the values are serialised by them). */
  paramTypes: number[];
  /** The statement's RowDescription, or none when it returns no rows. */
  rowDescription?: BackendMessage;
}

const serialize = protocol.serialize;
/** "cached plan must not change result type": a table under a held statement changed its columns. */
const FEATURE_NOT_SUPPORTED = '0A000';

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Parameterised queries on PGlite as named prepared statements, parsed once per text and held
 * (at most `max`, the least recently used closed first).
 *
 * `PGlite.query` sends every query as six separate protocol calls into the WebAssembly PostgreSQL
 * (parse, describe, bind, describe, execute, sync) and PostgreSQL parses, analyses and plans it each
 * time, including a size check of every relation it reads (a file stat per relation). A held
 * statement runs as one call (bind, execute, sync) on its cached plan: about a third of the CPU time
 * for a one-row read by primary key (bench/api.bench.ts, docs/benchmarks.md). Results, value
 * serialisation (by the parameter types PostgreSQL inferred) and errors are those of `PGlite.query`,
 * under the same two locks, so a query never runs inside another caller's transaction.
 */
export class PgliteStatements {
  private readonly held = new Map<string, Statement>();
  private seq = 0;

  constructor(
    private readonly client: PGlite,
    private readonly max = 100,
  ) {}

  query(text: string, values: unknown[]): Promise<Results> {
    return this.client._runExclusiveTransaction(() => this.client._runExclusiveQuery(() => this.run(text, values, true)));
  }

  private async run(text: string, values: unknown[], retry: boolean): Promise<Results> {
    await this.client._checkReady();
    const statement = await this.statement(text, values);
    const bound = values.map((v, i) => {
      if (v === null || v === undefined) return null;
      const serializer = this.client.serializers[statement.paramTypes[i]];
      return serializer ? serializer(v) : String(v);
    });
    try {
      const { messages } = await this.client.execProtocol(
        concat([serialize.bind({ statement: statement.name, values: bound as Array<string | null> }), serialize.execute({}), serialize.sync()]),
      );
      return parse.parseResults(statement.rowDescription ? [statement.rowDescription, ...messages] : messages, this.client.parsers)[0];
    } catch (err) {
      if ((err as { code?: string }).code === FEATURE_NOT_SUPPORTED) {
        // The plan PostgreSQL holds no longer fits the table: describe the statement anew, once.
        await this.forget(text);
        if (retry) return this.run(text, values, false);
      }
      throw Object.assign(err as object, { query: text, params: values });
    }
  }

  /** The held statement for `text`, parsed and described now if it is not held. */
  private async statement(text: string, values: unknown[]): Promise<Statement> {
    const held = this.held.get(text);
    if (held) {
      this.held.delete(text);
      this.held.set(text, held);
      return held;
    }
    const name = `cutroom_s${++this.seq}`;
    let messages: BackendMessage[];
    try {
      ({ messages } = await this.client.execProtocol(concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]), {
        syncToFs: false,
      }));
    } catch (err) {
      throw Object.assign(err as object, { query: text, params: values });
    }
    const params = messages.find((m) => m.name === 'parameterDescription') as { dataTypeIDs: number[] } | undefined;
    const statement: Statement = {
      name,
      paramTypes: params?.dataTypeIDs ?? [],
      rowDescription: messages.find((m) => m.name === 'rowDescription'),
    };
    this.held.set(text, statement);
    if (this.held.size > this.max) await this.forget(this.held.keys().next().value!);
    return statement;
  }

  private async forget(text: string): Promise<void> {
    const statement = this.held.get(text);
    if (!statement) return;
    this.held.delete(text);
    await this.client.execProtocol(concat([serialize.close({ type: 'S', name: statement.name }), serialize.sync()]), { syncToFs: false });
  }

  /** How many statements are held (tests). */
  get size(): number {
    return this.held.size;
  }
}
