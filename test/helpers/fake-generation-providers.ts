import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local servers speaking the hosted generation protocols (fal's queue, Replicate's predictions,
 * OpenAI-compatible Images), for the clients' contract tests and the generation chain tests. Each
 * checks its key, records every request, serves its outputs from its own `/files/…` and lets a test
 * choose a job's course: by default a job succeeds after `polls` status calls; a prompt containing
 * `[refuse]` is refused by the provider's safety system, `[fail]` fails, `[slow]` stays queued for a
 * few more polls (or use `plan()` for the next job).
 */

export interface FakeRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  json: any;
}

export type Course = 'succeed' | 'refuse' | 'fail';

export interface JobPlan {
  course: Course;
  /** Status calls answered `queued`/`running` before the job finishes. */
  polls: number;
}

interface Job {
  id: string;
  model: string;
  input: any;
  plan: JobPlan;
  seen: number;
  canceled: boolean;
}

export interface FakeOutputs {
  /** Bytes answered for an image job (a PNG). */
  image: Buffer;
  /** Bytes answered for a video job (an MP4). */
  video: Buffer;
  /** The video of a job whose input asks `duration` seconds, as a video model renders the length it is asked
   * for; `video` when absent or when it has none of that length. */
  videoOfSeconds?: (seconds: number) => Buffer | undefined;
}

/** The images a request carried: data URIs decoded (fal/Replicate) or multipart parts (OpenAI). */
export function decodeDataUri(uri: unknown): { contentType: string; bytes: Buffer } | undefined {
  const m = typeof uri === 'string' ? /^data:([^;,]+);base64,(.*)$/s.exec(uri) : null;
  return m ? { contentType: m[1], bytes: Buffer.from(m[2], 'base64') } : undefined;
}

abstract class FakeProvider {
  url = '';
  readonly key = `key-${crypto.randomBytes(6).toString('hex')}`;
  readonly requests: FakeRequest[] = [];
  readonly jobs = new Map<string, Job>();
  /** Protocol mistakes of the client (a missing key, a malformed body). */
  readonly violations: string[] = [];
  private server?: http.Server;
  private planned: JobPlan[] = [];
  /** Status calls before a default job finishes. */
  defaultPolls = 1;
  /** Milliseconds each answer waits (a slow provider). */
  delayMs = 0;
  /** Models (or Replicate versions) that answer a video; so does any model whose id contains `video`. */
  readonly videoModels = new Set<string>();

  constructor(public outputs: FakeOutputs) {}

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        let json: any;
        if (/json/.test(String(req.headers['content-type'] ?? ''))) {
          try {
            json = JSON.parse(body.toString('utf8'));
          } catch {
            this.violations.push('malformed JSON');
          }
        }
        const r: FakeRequest = { method: req.method ?? 'GET', path: new URL(req.url ?? '/', 'http://x').pathname, headers: req.headers, body, json };
        this.requests.push(r);
        setTimeout(() => {
          if (r.path.startsWith('/files/')) return this.file(r, res);
          let a: { status: number; body: unknown };
          try {
            a = this.handle(r);
          } catch (err) {
            a = { status: 500, body: { error: String(err) } };
          }
          res.writeHead(a.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(a.body));
        }, this.delayMs);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The course of the next job submitted. */
  plan(p: Partial<JobPlan> & { course: Course }): void {
    this.planned.push({ polls: this.defaultPolls, ...p });
  }

  protected newJob(model: string, input: any): Job {
    const prompt = String(input?.prompt ?? '');
    const plan =
      this.planned.shift() ??
      (prompt.includes('[refuse]')
        ? { course: 'refuse' as const, polls: this.defaultPolls }
        : prompt.includes('[fail]')
          ? { course: 'fail' as const, polls: this.defaultPolls }
          : { course: 'succeed' as const, polls: this.defaultPolls + (prompt.includes('[slow]') ? 3 : 0) });
    const job: Job = { id: crypto.randomBytes(8).toString('hex'), model, input, plan, seen: 0, canceled: false };
    this.jobs.set(job.id, job);
    return job;
  }

  /** The URL of the output file of `kind`. */
  protected isVideo(model: string): boolean {
    return model.includes('video') || this.videoModels.has(model) || this.videoModels.has(model.replace(/^version:/, ''));
  }

  protected fileUrl(kind: 'image' | 'video', job?: Job): string {
    if (kind === 'video' && job && this.videoOf(job)) return `${this.url}/files/${job.id}.mp4`;
    return `${this.url}/files/${kind === 'image' ? 'out.png' : 'out.mp4'}`;
  }

  /** The video of the asked length for `job` (its input's `duration`), when the outputs have one. */
  private videoOf(job: Job): Buffer | undefined {
    const seconds = Number(job.input?.duration);
    return Number.isFinite(seconds) && seconds > 0 ? this.outputs.videoOfSeconds?.(seconds) : undefined;
  }

  protected authorized(r: FakeRequest, scheme: string): boolean {
    const ok = r.headers.authorization === `${scheme} ${this.key}`;
    if (!ok) this.violations.push(`${r.method} ${r.path} without the key`);
    return ok;
  }

  private file(r: FakeRequest, res: http.ServerResponse): void {
    const ofJob = /^\/files\/([0-9a-f]+)\.mp4$/.exec(r.path);
    const job = ofJob ? this.jobs.get(ofJob[1]) : undefined;
    const bytes = r.path === '/files/out.png' ? this.outputs.image : r.path === '/files/out.mp4' ? this.outputs.video : job ? this.videoOf(job) : undefined;
    if (!bytes) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': r.path.endsWith('.png') ? 'image/png' : 'video/mp4', 'content-length': String(bytes.length) });
    res.end(bytes);
  }

  protected abstract handle(r: FakeRequest): { status: number; body: unknown };
}

/** fal's queue: POST /{model…}, GET /{app}/requests/{id}/status, GET /{app}/requests/{id}, PUT …/cancel. */
export class FakeFal extends FakeProvider {
  /** The kind of output per model id (default image; a model id containing `video` answers a video). */
  protected handle(r: FakeRequest): { status: number; body: unknown } {
    if (!this.authorized(r, 'Key')) return { status: 401, body: { detail: 'Unauthorized' } };
    const m = /^\/([^/]+\/[^/]+)\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(r.path);
    if (m) {
      const job = this.jobs.get(m[2]);
      if (!job || FakeFalApp(job.model) !== m[1]) return { status: 404, body: { detail: 'Request not found' } };
      if (m[3] === '/cancel' && r.method === 'PUT') {
        job.canceled = true;
        return { status: 202, body: { status: 'CANCELLATION_REQUESTED' } };
      }
      if (m[3] === '/status' && r.method === 'GET') {
        job.seen++;
        if (job.seen <= job.plan.polls)
          return { status: 200, body: job.seen === 1 ? { status: 'IN_QUEUE', queue_position: 2 } : { status: 'IN_PROGRESS', logs: [] } };
        return { status: 200, body: { status: 'COMPLETED', logs: [] } };
      }
      if (!m[3] && r.method === 'GET') {
        if (job.seen <= job.plan.polls) return { status: 400, body: { detail: 'Request is still in progress' } };
        if (job.plan.course === 'refuse') {
          return {
            status: 422,
            body: {
              detail: [
                {
                  loc: ['body', 'prompt'],
                  msg: 'The content could not be processed because it contained material flagged by a content checker.',
                  type: 'content_policy_violation',
                },
              ],
            },
          };
        }
        if (job.plan.course === 'fail') return { status: 500, body: { detail: 'Internal error while running the model' } };
        return {
          status: 200,
          body: this.isVideo(job.model)
            ? { video: { url: this.fileUrl('video', job), content_type: 'video/mp4' } }
            : { images: [{ url: this.fileUrl('image'), content_type: 'image/png' }], has_nsfw_concepts: [false] },
        };
      }
    }
    if (r.method === 'POST') {
      if (r.json === undefined || typeof r.json !== 'object') {
        this.violations.push('submit without a JSON input');
        return { status: 422, body: { detail: [{ type: 'missing', msg: 'input' }] } };
      }
      const job = this.newJob(r.path.slice(1), r.json);
      return {
        status: 200,
        body: { request_id: job.id, status: 'IN_QUEUE', queue_position: 2, response_url: `${this.url}/${FakeFalApp(job.model)}/requests/${job.id}` },
      };
    }
    return { status: 404, body: { detail: 'Not found' } };
  }
}

function FakeFalApp(model: string): string {
  return model.split('/').slice(0, 2).join('/');
}

/** Replicate: POST /v1/models/{owner}/{name}/predictions or /v1/predictions, GET /v1/predictions/{id}, POST …/cancel. */
export class FakeReplicate extends FakeProvider {
  private prediction(job: Job): unknown {
    let status = 'starting';
    let output: unknown = null;
    let error: unknown = null;
    if (job.canceled) status = 'canceled';
    else if (job.seen > job.plan.polls) {
      if (job.plan.course === 'succeed') {
        status = 'succeeded';
        output = this.isVideo(job.model) ? this.fileUrl('video', job) : [this.fileUrl('image')];
      } else {
        status = 'failed';
        error = job.plan.course === 'refuse' ? 'NSFW content detected. Try running it again, or try a different prompt.' : 'CUDA out of memory';
      }
    } else if (job.seen > 1) status = 'processing';
    return {
      id: job.id,
      model: job.model,
      input: job.input,
      status,
      output,
      error,
      urls: { get: `${this.url}/v1/predictions/${job.id}`, cancel: `${this.url}/v1/predictions/${job.id}/cancel` },
    };
  }

  protected handle(r: FakeRequest): { status: number; body: unknown } {
    if (!this.authorized(r, 'Bearer'))
      return { status: 401, body: { title: 'Unauthenticated', detail: 'You did not pass a valid authentication token', status: 401 } };
    const official = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(r.path);
    if (r.method === 'POST' && (official || r.path === '/v1/predictions')) {
      if (!r.json || typeof r.json.input !== 'object') {
        this.violations.push('prediction without input');
        return { status: 422, body: { detail: 'input is required', status: 422 } };
      }
      if (!official && typeof r.json.version !== 'string') return { status: 422, body: { detail: 'version is required', status: 422 } };
      const job = this.newJob(official ? `${official[1]}/${official[2]}` : `version:${r.json.version}`, r.json.input);
      return { status: 201, body: this.prediction(job) };
    }
    const m = /^\/v1\/predictions\/([^/]+)(\/cancel)?$/.exec(r.path);
    const job = m ? this.jobs.get(m[1]) : undefined;
    if (!m || !job) return { status: 404, body: { detail: 'Not found.', status: 404 } };
    if (m[2] && r.method === 'POST') {
      job.canceled = true;
      return { status: 200, body: this.prediction(job) };
    }
    if (r.method === 'GET') {
      job.seen++;
      return { status: 200, body: this.prediction(job) };
    }
    return { status: 405, body: { detail: 'Method not allowed' } };
  }
}

/** OpenAI-compatible Images: POST /v1/images/generations (JSON) and /v1/images/edits (multipart), answered at once. */
export class FakeOpenAi extends FakeProvider {
  /** Answer `url` instead of `b64_json`. */
  answerUrls = false;

  protected handle(r: FakeRequest): { status: number; body: unknown } {
    if (!this.authorized(r, 'Bearer'))
      return { status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } } };
    let input: any;
    if (r.method === 'POST' && r.path === '/v1/images/generations') input = r.json;
    else if (r.method === 'POST' && r.path === '/v1/images/edits') {
      const type = String(r.headers['content-type'] ?? '');
      if (!type.startsWith('multipart/form-data')) {
        this.violations.push('edits without multipart');
        return { status: 400, body: { error: { message: 'multipart required', type: 'invalid_request_error' } } };
      }
      input = parseMultipart(r.body, type);
      if (!input.files.length)
        return { status: 400, body: { error: { message: "Missing required parameter: 'image'.", type: 'invalid_request_error', param: 'image' } } };
      input = { ...input.fields, images: input.files };
    } else return { status: 404, body: { error: { message: 'Not found' } } };
    const job = this.newJob(String(input?.model ?? ''), input);
    job.seen = job.plan.polls + 1;
    if (job.plan.course === 'refuse') {
      return {
        status: 400,
        body: {
          error: {
            message: 'Your request was rejected as a result of our safety system.',
            type: 'image_generation_user_error',
            param: null,
            code: 'content_policy_violation',
          },
        },
      };
    }
    if (job.plan.course === 'fail')
      return { status: 500, body: { error: { message: 'The server had an error processing your request.', type: 'server_error' } } };
    return {
      status: 200,
      body: {
        created: Math.floor(Date.now() / 1000),
        data: [this.answerUrls ? { url: this.fileUrl('image') } : { b64_json: this.outputs.image.toString('base64') }],
      },
    };
  }
}

/** A small multipart/form-data reader (fields as text, files with their bytes). */
export function parseMultipart(
  body: Buffer,
  contentType: string,
): { fields: Record<string, string>; files: Array<{ name: string; fileName: string; contentType: string; bytes: Buffer }> } {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  const fields: Record<string, string> = {};
  const files: Array<{ name: string; fileName: string; contentType: string; bytes: Buffer }> = [];
  if (!boundary) return { fields, files };
  const sep = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  let pos = body.indexOf(sep);
  while (pos >= 0) {
    const next = body.indexOf(sep, pos + sep.length);
    if (next < 0) break;
    const part = body.subarray(pos + sep.length + 2, next - 2);
    const headEnd = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, headEnd).toString('utf8');
    const content = part.subarray(headEnd + 4);
    const name = /name="([^"]*)"/.exec(head)?.[1] ?? '';
    const fileName = /filename="([^"]*)"/.exec(head)?.[1];
    if (fileName !== undefined) files.push({ name, fileName, contentType: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1] ?? '', bytes: Buffer.from(content) });
    else fields[name] = content.toString('utf8');
    pos = next;
  }
  return { fields, files };
}
