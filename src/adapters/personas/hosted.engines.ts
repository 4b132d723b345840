import fs from 'node:fs/promises';
import path from 'node:path';
import { runHostedJob, type HostedRunResult } from '../../domain/generations/hosted-run.js';
import { portraitPrompt, swapPrompt } from '../../domain/personas/persona-prompt.js';
import type { HostedGenerationClient, HostedOutputFetcher, ReferenceImage } from '../../ports/hosted-generation.js';
import type { LocalFiles } from '../../ports/local-files.js';
import type { MediaProbe } from '../../ports/media.js';
import {
  PersonaEngineError,
  type PortraitEngine,
  type PortraitRequest,
  type PortraitResult,
  type SwapEngine,
  type SwapReplace,
  type SwapRequest,
  type SwapResult,
} from '../../ports/persona-engines.js';
import { localMedia } from '../media/container.js';
import { inputRangeArgs, localInputArgs, startFfmpeg } from '../media/ffmpeg-run.js';
import { sourceSoundMp4Args } from './head-swap.engine.js';

/**
 * Hosted persona engines, configured by the operator (docs/personas.md): a generative portrait model
 * and a generative swap model on fal's queue, Replicate's predictions or an OpenAI-compatible Images
 * server, through the shared hosted-generation clients and runHostedJob. Chips and the note become the
 * prompt; references are sent inline; outputs are downloaded with the safe output fetcher.
 */

export interface HostedEngineOptions {
  client: HostedGenerationClient;
  /** The provider's model (`fal-ai/flux/dev`, `owner/name:version`, `gpt-image-1`). */
  model: string;
  /** Input fields sent as they are (the operator's). */
  options: Record<string, unknown>;
  /** The model's field for reference images, when not the protocol's usual one. */
  imageField?: string;
  pollMs: number;
  timeoutMs: number;
  fetcher: HostedOutputFetcher;
  /** Largest output downloaded. */
  maxBytes: number;
  /** The model's own base URL (its files may be on a private address). */
  trustedOrigin?: string;
  files: Pick<LocalFiles, 'withTempDir'>;
}

/** A final state that is not a success as the engine error the record keeps (refunded by the caller). */
function failure(res: HostedRunResult): PersonaEngineError {
  if (res.state === 'refused') return new PersonaEngineError('CONTENT_POLICY_REFUSED', res.detail);
  if (res.state === 'canceled') return new PersonaEngineError('PROVIDER_CANCELED', 'the provider cancelled the job');
  if (res.state === 'failed' && res.timedOut) return new PersonaEngineError('GENERATION_TIMEOUT', res.detail);
  if (res.state === 'failed') return new PersonaEngineError('PROVIDER_FAILED', res.detail, res.retryable);
  return new PersonaEngineError('PROVIDER_FAILED', 'no output');
}

async function run(o: HostedEngineOptions, req: Parameters<typeof runHostedJob>[1], signal?: AbortSignal) {
  const res = await runHostedJob(o.client, req, { pollMs: o.pollMs, timeoutMs: o.timeoutMs, signal });
  if (res.state !== 'succeeded' || res.outputs.length === 0) throw failure(res);
  return res.outputs[0];
}

export class HostedPortraitEngine implements PortraitEngine {
  readonly kind = 'photo' as const;
  readonly readsNotes = true;

  constructor(
    private readonly o: HostedEngineOptions & {
      /** The downloaded output as a PNG (decoded from PNG/JPEG/WebP; anything else is refused). */
      toPng(file: string): Promise<{ png: Uint8Array; width: number; height: number }>;
    },
  ) {}

  get name(): string {
    return `${this.o.client.provider}:${this.o.model}`;
  }

  async render(req: PortraitRequest): Promise<PortraitResult> {
    const images: ReferenceImage[] = req.faces.map((f, i) => ({ bytes: Buffer.from(f.bytes), contentType: 'image/png', fileName: `face-${i}.png` }));
    const output = await run(
      this.o,
      {
        providerModel: this.o.model,
        kind: 'image',
        prompt: portraitPrompt(req.chips, req.note, { fromFacePhotos: req.faces.length > 0 }),
        images,
        options: this.o.options,
        imageField: this.o.imageField,
      },
      req.signal,
    );
    return this.o.files.withTempDir('persona-hosted-', async (dir) => {
      const file = path.join(dir, 'output');
      await this.o.fetcher.fetch(output, file, { maxBytes: this.o.maxBytes, trustedOrigin: this.o.trustedOrigin, signal: req.signal });
      let img: { png: Uint8Array; width: number; height: number };
      try {
        img = await this.o.toPng(file);
      } catch {
        throw new PersonaEngineError('OUTPUT_INVALID', 'the provider answered no readable image');
      }
      return { ...img, kind: 'photo' };
    });
  }
}

export class HostedSwapEngine implements SwapEngine {
  readonly label = 'generative';

  constructor(
    private readonly o: HostedEngineOptions & {
      /** Replace modes the configured model does (the operator says). */
      replaceModes: readonly SwapReplace[];
      /** The model's input field for the source video (sent as a data URI). Default `video_url`. */
      videoField?: string;
      probe: MediaProbe;
    },
  ) {}

  get name(): string {
    return `${this.o.client.provider}:${this.o.model}`;
  }

  get replaceModes(): readonly SwapReplace[] {
    return this.o.replaceModes;
  }

  async swap(req: SwapRequest): Promise<SwapResult> {
    if (!this.o.replaceModes.includes(req.replace))
      throw new PersonaEngineError('REPLACE_MODE_UNAVAILABLE', `replace ${req.replace} is not done by ${this.name}`);
    const source = await fs.readFile(req.source);
    const output = await run(
      this.o,
      {
        providerModel: this.o.model,
        kind: 'video',
        prompt: swapPrompt(req.replace),
        images: [{ bytes: Buffer.from(req.portrait.png), contentType: 'image/png', fileName: 'persona.png' }],
        options: { ...this.o.options, [this.o.videoField ?? 'video_url']: `data:video/mp4;base64,${source.toString('base64')}`, replace: req.replace },
        imageField: this.o.imageField,
      },
      req.signal,
    );
    return this.o.files.withTempDir('persona-swap-', async (dir) => {
      const raw = path.join(dir, 'provider-output');
      await this.o.fetcher.fetch(output, raw, { maxBytes: this.o.maxBytes, trustedOrigin: this.o.trustedOrigin, signal: req.signal });
      let info;
      try {
        info = await this.o.probe.probe(raw);
      } catch {
        throw new PersonaEngineError('OUTPUT_INVALID', 'the provider answered no readable video');
      }
      if (!info.hasVideo) throw new PersonaEngineError('OUTPUT_INVALID', 'the provider answered no video');
      await withSourceSound(raw, req.source, req.seconds, req.output, req.signal);
      return { frames: 0, facesTracked: 0, width: info.width, height: info.height };
    });
  }
}

/** The provider's picture with the source's sound (H.264 + AAC MP4, the source's length), so the sound is always the source's. */
async function withSourceSound(video: string, source: string, seconds: number, output: string, signal?: AbortSignal): Promise<void> {
  const ff = startFfmpeg(
    [
      ...localInputArgs(localMedia(video)),
      ...localInputArgs(localMedia(source), inputRangeArgs({ start: 0, end: seconds })),
      ...sourceSoundMp4Args(seconds, output),
    ],
    { durationSeconds: seconds, signal },
  );
  await ff.done;
}
