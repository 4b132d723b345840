import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config/env.js';
import type { Database } from '../adapters/db/database.js';
import { DrizzleClipsRepository } from '../adapters/db/repositories/clips.repository.js';
import { DrizzleRendersRepository } from '../adapters/db/repositories/renders.repository.js';
import { NodeLocalFiles } from '../adapters/files/local-files.js';
import { prepareFontsDir } from '../adapters/media/fonts.js';
import { renderEdit } from '../adapters/media/renderer.js';
import { speechInStretches } from '../adapters/vad/edit-speech.js';
import { ClipEditsService } from '../domain/clips/clip-edits.service.js';
import { EditsService } from '../domain/edits/edits.service.js';
import { RenderProcessor, type RenderEngine } from '../domain/renders/renders.processor.js';
import { RendersService } from '../domain/renders/renders.service.js';
import type { SubmissionsService } from '../domain/submissions/submissions.service.js';
import { editTemplateOf, type TemplatesService } from '../domain/templates/templates.service.js';
import type { JobQueue } from '../ports/queue.js';
import type { Storage } from '../ports/storage.js';
import type { TransactionRunner } from '../ports/transactions.js';
import type { Vad } from '../ports/vad.js';
import type { EventPublisher } from '../domain/webhooks/events.js';

export interface RendersWiring {
  config: Config;
  logger: Logger;
  database: Database;
  storage: Storage;
  queue: JobQueue;
  transactions: TransactionRunner;
  submissions: SubmissionsService;
  templates: TemplatesService;
  /** The voice detector (compute.wiring.ts): the pauses `remove_silences` cuts. */
  vad: Vad;
  /** Announces `render.completed` and `render.failed` (webhooks). */
  events?: EventPublisher;
}

/**
 * The ffmpeg render engine: the shipped caption fonts are copied once per process into
 * `<data dir>/fonts` (the folder libass gets as `fontsdir`) before the first render.
 */
export function createRenderEngine(config: Config): RenderEngine {
  let fontsDir: string | undefined;
  return {
    async render(edit, io) {
      if (!fontsDir) {
        const dir = path.join(config.dataDir, 'fonts');
        prepareFontsDir(dir);
        fontsDir = dir;
      }
      const res = await renderEdit(edit, { ...io, fontsDir });
      return { sizeBytes: res.sizeBytes };
    },
  };
}

/** Clip edits (apply_template), edits as documents (/edits), the renders service and the render worker. */
export function createRenders(w: RendersWiring) {
  const db = w.database.db;
  const files = new NodeLocalFiles(os.tmpdir());
  const edits = new DrizzleClipsRepository(db);
  const clipEdits = new ClipEditsService({
    repo: edits,
    tx: w.transactions,
    getSubmission: (ws, videoId, id) => w.submissions.get(ws, videoId, id),
    getTemplate: async (ws, id) => editTemplateOf(await w.templates.getTemplate(ws, id)),
  });
  const editDocs = new EditsService({
    repo: edits,
    tx: w.transactions,
    getTemplate: async (ws, id) => {
      const t = await w.templates.templateOrDefault(ws, id);
      return { id: t.id, captions: t.config.captions, title: t.config.title, layout: t.config.layout };
    },
    events: w.events,
    speechIn: speechInStretches({ storage: w.storage, files, vad: w.vad }),
  });
  const repo = new DrizzleRendersRepository(db);
  const renders = new RendersService({ repo, edits, tx: w.transactions, queue: w.queue, storage: w.storage, clipEdits });
  const renderProcessor = new RenderProcessor({
    repo,
    edits,
    storage: w.storage,
    files,
    engine: createRenderEngine(w.config),
    logger: w.logger,
    events: w.events,
  });
  return { clipEdits, edits: editDocs, renders, renderProcessor };
}
