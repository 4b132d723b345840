import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { HostedClientFactory, HostedOutputFetcher, ReferenceImage } from '../../ports/hosted-generation.js';
import type { EmbeddedGenerator, ImageInspector } from '../../ports/images.js';
import type { LocalFiles } from '../../ports/local-files.js';
import type { MediaProbe } from '../../ports/media.js';
import type { Storage } from '../../ports/storage.js';
import { DomainError, errorCodeOf } from '../errors.js';
import { retryOrFail, throwIfLost, type Attempt } from '../jobs/retry.js';
import type { GenerationImageRow, GenerationModelRow, GenerationRow, GenerationsRepository } from './generations.records.js';
import { GENERATION_ERRORS, type Provider } from './generations.rules.js';
import { imageKeyOf, videoKeyOf, type GenerationsService } from './generations.service.js';
import { runHostedJob } from './hosted-run.js';

/** Everything the job does that is I/O, wired in src/main/generations.wiring.ts. */
export interface GenerationProcessorDeps {
  repo: GenerationsRepository;
  storage: Storage;
  generations: GenerationsService;
  logger: Logger;
  files: LocalFiles;
  embedded: EmbeddedGenerator;
  hosted: HostedClientFactory;
  fetcher: HostedOutputFetcher;
  images: ImageInspector;
  probe: MediaProbe;
  /** Pause between status calls to a hosted provider. */
  pollMs: number;
  /** A hosted job without a result after this long is cancelled and fails with GENERATION_TIMEOUT. */
  timeoutMs: number;
  /** Largest output downloaded from a provider. */
  maxOutputBytes: number;
}

/** Ceiling of one request to a queue provider (fal, Replicate): submit, status, result. */
const QUEUE_REQUEST_TIMEOUT_MS = 60_000;

/** An error the job's retry rule sees as worth another run (a hosted provider's 5xx or rate limit). */
class RetryableProviderError extends Error {
  readonly retryable = true;
  readonly errorCode = GENERATION_ERRORS.provider;
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Job `generation.process`: queued → processing → ready (output stored in the service's storage; an image
 * output becomes an image of the workspace) or failed with its code and the charge refunded. A hosted
 * job's id is stored as soon as the provider answers it, so a retried run polls it instead of paying the
 * provider twice; finishing is one conditional update, so a duplicated run changes nothing twice.
 */
export class GenerationProcessor {
  constructor(private readonly d: GenerationProcessorDeps) {}

  async run(id: string, attempt: Attempt, signal?: AbortSignal): Promise<void> {
    const row = await this.d.repo.get(id);
    if (!row || row.status === 'ready' || row.status === 'failed') return;
    if (row.status === 'queued') await this.d.repo.markProcessing(id);
    try {
      throwIfLost(attempt);
      const model = await this.d.repo.getModel(row.modelId);
      if (!model) return await this.d.generations.fail(row, GENERATION_ERRORS.model);
      const images = await this.d.repo.findImages(row.workspaceId, row.imageIds);
      const ordered = row.imageIds.map((i) => images.find((im) => im.id === i)).filter((im): im is GenerationImageRow => im !== undefined);
      if (ordered.length !== row.imageIds.length) throw new DomainError('IMAGE_NOT_FOUND');
      const code = await this.d.files.withTempDir(`gen-${row.id}-`, (dir) =>
        model.provider === 'embedded' ? this.runEmbedded(row, model, ordered, dir, signal) : this.runHosted(row, model, ordered, dir, signal),
      );
      if (code) await this.d.generations.fail(row, code);
    } catch (err) {
      await retryOrFail(err, attempt, {
        fail: async () => {
          const code = errorCodeOf(err);
          this.d.logger.warn({ err, generationId: id, code }, 'generation failed');
          await this.d.generations.fail(row, code);
        },
      });
    }
  }

  /** Nests withLocalFile for each image: `fn` gets their local paths in order. */
  private withLocalImages<T>(images: GenerationImageRow[], fn: (files: string[]) => Promise<T>, files: string[] = []): Promise<T> {
    if (files.length === images.length) return fn(files);
    return this.d.storage.withLocalFile(images[files.length].storageKey, (file) => this.withLocalImages(images, fn, [...files, file]));
  }

  private async runEmbedded(
    row: GenerationRow,
    model: GenerationModelRow,
    images: GenerationImageRow[],
    dir: string,
    signal?: AbortSignal,
  ): Promise<string | null> {
    const out = await this.withLocalImages(images, (files) =>
      this.d.embedded.run(model.providerModel, { images: files, options: row.options, outDir: dir, signal }),
    );
    this.d.logger.info({ generationId: row.id, engine: out.engine }, 'embedded generation done');
    await this.store(row, out.file, { contentType: out.contentType, width: out.width, height: out.height, seconds: out.seconds });
    return null;
  }

  private async runHosted(
    row: GenerationRow,
    model: GenerationModelRow,
    images: GenerationImageRow[],
    dir: string,
    signal?: AbortSignal,
  ): Promise<string | null> {
    const provider = model.provider as Exclude<Provider, 'embedded'>;
    // A synchronous provider answers in its one request; a queue's submit and status calls are short.
    const requestTimeoutMs = provider === 'openai' ? this.d.timeoutMs : Math.min(this.d.timeoutMs, QUEUE_REQUEST_TIMEOUT_MS);
    const client = this.d.hosted({ provider, baseUrl: model.baseUrl ?? undefined, apiKey: await this.d.generations.apiKeyOf(model), requestTimeoutMs });
    const refs: ReferenceImage[] = [];
    for (const im of images)
      refs.push({ bytes: await collect(await this.d.storage.read(im.storageKey)), contentType: im.contentType, fileName: path.basename(im.storageKey) });
    const result = await runHostedJob(
      client,
      {
        providerModel: model.providerModel,
        kind: model.kind as 'image' | 'video',
        prompt: row.prompt ?? undefined,
        images: refs,
        options: row.options,
        imageField: model.imageField ?? undefined,
      },
      {
        pollMs: this.d.pollMs,
        timeoutMs: this.d.timeoutMs,
        signal,
        // A synchronous provider's job exists only inside this run: nothing to resume.
        jobId: provider === 'openai' ? undefined : (row.providerJobId ?? undefined),
        onSubmitted: provider === 'openai' ? undefined : (jobId) => this.d.repo.setProviderJob(row.id, jobId),
      },
    );
    switch (result.state) {
      case 'refused':
        this.d.logger.info({ generationId: row.id, detail: result.detail }, 'provider refused the generation');
        return GENERATION_ERRORS.refused;
      case 'canceled':
        return GENERATION_ERRORS.provider;
      case 'failed':
        if (result.timedOut) return GENERATION_ERRORS.timeout;
        this.d.logger.warn({ generationId: row.id, detail: result.detail }, 'provider failed the generation');
        if (result.retryable) throw new RetryableProviderError(result.detail);
        return GENERATION_ERRORS.provider;
      case 'succeeded':
        break;
    }
    const file = path.join(dir, 'output');
    try {
      await this.d.fetcher.fetch(result.outputs[0], file, { maxBytes: this.d.maxOutputBytes, trustedOrigin: model.baseUrl ?? undefined, signal });
    } catch (err) {
      if (err instanceof DomainError && (err.code === 'FILE_TOO_LARGE' || err.code === 'INVALID_URL')) {
        this.d.logger.warn({ err, generationId: row.id }, 'provider output refused');
        return GENERATION_ERRORS.output;
      }
      throw Object.assign(err as Error, { retryable: true });
    }
    if (model.kind === 'image') {
      const check = await this.d.images.inspect(file);
      if (!check.ok) return GENERATION_ERRORS.output;
      await this.store(row, file, { contentType: check.info.contentType, width: check.info.width, height: check.info.height });
    } else {
      const info = await this.d.probe.probe(file).catch(() => null);
      if (!info || info.container !== 'mov' || !info.hasVideo || !info.width || !info.height) return GENERATION_ERRORS.output;
      await this.store(row, file, { contentType: 'video/mp4', width: info.width, height: info.height, seconds: info.duration });
    }
    return null;
  }

  /** Puts the output in storage and marks the generation ready (the file is removed again when it had already finished). */
  private async store(row: GenerationRow, file: string, o: { contentType: string; width: number; height: number; seconds?: number }): Promise<void> {
    const image = row.kind === 'image';
    const key = image ? imageKeyOf(row.workspaceId, `gen-${row.id}`, o.contentType) : videoKeyOf(row.workspaceId, row.id);
    await this.d.storage.putFile(key, file, o.contentType);
    const size = await this.d.files.size(file);
    const seconds = o.seconds !== undefined ? Math.round(o.seconds * 1000) / 1000 : undefined;
    const done = await this.d.generations.finishReady(
      row,
      { key, content_type: o.contentType, width: o.width, height: o.height, ...(seconds !== undefined && !image ? { seconds } : {}) },
      image ? { size } : undefined,
    );
    if (!done) this.d.logger.info({ generationId: row.id }, 'generation had already finished');
  }
}
