import path from 'node:path';
import type { Logger } from 'pino';
import { DomainError, errorCodeOf } from '../errors.js';
import { retryOrFail, throwIfLost, type Attempt } from '../jobs/retry.js';
import { editHash, makeEdit, type Aspect, type Edit } from '../edits/edit.js';
import { newId } from '../../shared/ids.js';
import type { ClipsRepository } from '../clips/clips.records.js';
import type { SourceDownloader } from '../../ports/source-downloader.js';
import type { TransactionRunner } from '../../ports/transactions.js';
import type { LocalFiles } from '../../ports/local-files.js';
import { PersonaEngineError, type ImageKind, type PortraitEngine, type SwapEngine } from '../../ports/persona-engines.js';
import type { Storage } from '../../ports/storage.js';
import type { PersonaVideosService, SwapSource } from './persona-videos.service.js';
import type { PersonasRepository } from './personas.records.js';
import type { PersonasService } from './personas.service.js';
import { versionImageKey } from './persona.rules.js';

export interface PersonaProcessorDeps {
  repo: PersonasRepository;
  storage: Storage;
  personas: PersonasService;
  videos: PersonaVideosService;
  engines: { chips: PortraitEngine; faces: PortraitEngine; swap: SwapEngine };
  files: LocalFiles;
  logger: Logger;
  readFile(file: string): Promise<Uint8Array>;
  writeFile(file: string, bytes: Uint8Array): Promise<void>;
  /** Brings a library link's media into storage (the submissions' downloader). */
  downloader: SourceDownloader;
  /** Largest persona source in bytes: a larger library video fails with SOURCE_TOO_LARGE. */
  maxSourceBytes: number;
  /** Where the persona video's output edit (an edit of no clip) is recorded. */
  edits: Pick<ClipsRepository, 'insertEdit'>;
  transactions: TransactionRunner;
}

/** The output aspect nearest to the source's (pure). */
export function nearestAspect(width: number, height: number): Aspect {
  const r = width / height;
  const options: Array<[Aspect, number]> = [
    ['9:16', 9 / 16],
    ['1:1', 1],
    ['16:9', 16 / 9],
  ];
  return options.reduce((best, o) => (Math.abs(Math.log(r / o[1])) < Math.abs(Math.log(r / best[1])) ? o : best))[0];
}

/**
 * Jobs `persona.portrait` (one portrait → a new current version, or failed with a refund) and
 * `persona.swap` (the source's face replaced by the persona's → an MP4 and an edit of it, or failed
 * with a refund). Each run leaves `processing` once (conditional updates), so a retry changes nothing twice.
 */
export class PersonaProcessor {
  constructor(private readonly d: PersonaProcessorDeps) {}

  private readBytes(key: string): Promise<Uint8Array> {
    return this.d.storage.withLocalFile(key, (f) => this.d.readFile(f));
  }

  async runPortrait(portraitId: string, attempt: Attempt): Promise<void> {
    const p = await this.d.repo.getPortrait(portraitId);
    if (!p || p.status !== 'processing') return;
    try {
      throwIfLost(attempt);
      const faces = p.faceIds.length ? await this.d.personas.facePhotos(p.workspaceId, p.faceIds, (k) => this.readBytes(k)) : [];
      const engine = faces.length ? this.d.engines.faces : this.d.engines.chips;
      const img = await engine.render({ chips: p.chips, note: p.note, faces, seed: p.id });
      const key = versionImageKey(p.workspaceId, p.personaId, p.id);
      await this.d.files.withTempDir(`prt-${p.id}-`, async (dir) => {
        const file = path.join(dir, 'portrait.png');
        await this.d.writeFile(file, img.png);
        await this.d.storage.putFile(key, file, 'image/png');
      });
      await this.d.personas.finishPortraitReady(p.id, { key, kind: img.kind });
    } catch (err) {
      await retryOrFail(err, attempt, {
        fail: async () => {
          const code = errorCodeOf(err);
          this.d.logger.warn({ err, portraitId, code }, 'persona portrait failed');
          await this.d.personas.finishPortraitFailed(p, code);
        },
      });
    }
  }

  async runSwap(videoId: string, attempt: Attempt): Promise<void> {
    const row = await this.d.repo.getVideo(videoId);
    if (!row || row.status !== 'processing') return;
    try {
      throwIfLost(attempt);
      const version = await this.d.personas.version(row.personaId, row.versionId);
      if (!version) throw new DomainError('VERSION_NOT_FOUND');
      const portrait = { png: await this.readBytes(version.imageKey), kind: version.imageKind as ImageKind };
      const outputKey = `personas/${row.workspaceId}/${row.personaId}/videos/${row.id}.mp4`;
      const src = await this.sourceKey(row.workspaceId, row.id, row.mediaId);
      const result = await this.d.storage.withLocalFile(src, (file) =>
        this.d.files.withTempDir(`swap-${row.id}-`, async (dir) => {
          const output = path.join(dir, 'swap.mp4');
          const out = await this.d.engines.swap.swap({
            source: file,
            seconds: row.seconds,
            portrait,
            quality: row.quality as 'standard' | 'high',
            replace: row.replace as 'person' | 'head',
            output,
          });
          await this.d.storage.putFile(outputKey, output, 'video/mp4');
          return out;
        }),
      );
      const edit = makeEdit({
        source: { key: outputKey, duration: row.seconds, width: result.width, height: result.height },
        in: 0,
        out: row.seconds,
        layout: { aspect: nearestAspect(result.width, result.height), reframe: 'fit' },
        captions: null,
        watermark: false,
        resolution: '720p',
      });
      const editId = await this.createEdit(row.workspaceId, edit);
      await this.d.videos.finishReady(row, { outputKey, editId });
    } catch (err) {
      await retryOrFail(err, attempt, {
        fail: async () => {
          const code = errorCodeOf(err);
          this.d.logger.warn({ err, videoId, code }, 'persona swap failed');
          await this.d.videos.fail(row, code);
        },
      });
    }
  }

  /** The storage key of the swap's source: the upload's, or a library link downloaded once for this video. */
  private async sourceKey(workspaceId: string, videoId: string, mediaId: string): Promise<string> {
    const src: SwapSource = await this.d.videos.source(workspaceId, mediaId);
    if (src.kind !== 'link') return src.key;
    const key = `personas/${workspaceId}/sources/${videoId}.mp4`;
    await this.downloadLink(src, key);
    return key;
  }

  /** A library link's media into storage under `key`; a source that does not exist yet fails the swap. */
  private async downloadLink(source: { mediaUrl: string; platform: string }, key: string): Promise<void> {
    const out = await this.d.downloader.download(source, { storage: this.d.storage, key }, { maxBytes: this.d.maxSourceBytes });
    if (out.kind === 'waiting') throw new PersonaEngineError('SOURCE_NOT_AVAILABLE_YET', 'the library video is not available yet');
  }

  /** Records an edit of no clip (the persona video's output), returns its id. */
  private async createEdit(workspaceId: string, spec: Edit): Promise<string> {
    const id = newId('edit');
    await this.d.transactions.run((tx) => this.d.edits.insertEdit(tx, { id, workspaceId, clipId: null, hash: editHash(spec), spec, templateId: null }));
    return id;
  }
}
