import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { Cutroom, CutroomError } from '@cutroom/sdk';
import { Progress, type OutStream } from './user-cli/progress.js';
import {
  balanceCommand,
  clipCommand,
  clipReviewCommand,
  editDeriveCommand,
  editGetCommand,
  editVersionsCommand,
  jobsCommand,
  renderCreateCommand,
  renderDownloadCommand,
  renderGetCommand,
  transcribeCommand,
  type CliContext,
} from './user-cli/commands.js';
import { parseFix, parseIndexList, parseMinSilence, parseTrim, parseZoom } from './user-cli/edit-flags.js';
import { parseKeywords, parseLength, parsePrompt } from './user-cli/clip-flags.js';
import { CliFailure, USER_EXIT } from './user-cli/failure.js';
import { parseMaxCredits, type InStream } from './user-cli/consent.js';
import { bashCompletion, zshCompletion } from './user-cli/completion.js';
import * as r from './user-cli/resources.js';

export { USER_EXIT } from './user-cli/failure.js';

/** Where the user CLI writes, which environment it reads, and (tests) how it reaches the service. */
export interface UserIo {
  stdout: OutStream;
  stderr: OutStream;
  /** Where a price is accepted (y/N) when it and stderr are terminals. */
  stdin?: InStream;
  env: Readonly<Record<string, string | undefined>>;
  /** Milliseconds between polls of a job (default: the API's intervals). */
  pollIntervalMs?: number;
}

export const USER_HELP_FOOTER = `
Environment:
  CUTROOM_URL            The service's address (default http://localhost:8080)
  CUTROOM_API_KEY        The API key (required)
  CUTROOM_WORKSPACE_ID   The workspace, for a key bound to several
  CUTROOM_POLL_INTERVAL_MS  Milliseconds between two looks at a job (default: the API's 5 to 15 s)

Exit status:
  0  done
  1  the API refused a request, or would (a local video under a minute, measured
     with ffprobe when it is on the PATH): the reason, its error code, the request id
  2  usage or configuration error (bad arguments, CUTROOM_API_KEY unset), or a price
     not accepted (answered no, above --max-credits, no --yes without a terminal):
     nothing was charged
  3  the service could not be reached or did not answer like Cutroom
  4  a job ended badly (submission, render or transcription failed, render file expired)
  5  a local file could not be read or written, or would be overwritten (--force)

Prices: every command that charges (clip, transcribe, personas create|regenerate|swap,
generations create) prints "This will cost N credits (…); balance after: M" first and
asks on a terminal; --yes accepts, --max-credits N accepts up to N; without a terminal
one of them is required.
`;

function seconds(raw: string): number {
  const parts = raw.trim().split(':');
  if (parts.length > 3 || parts.some((p) => !/^\d+(\.\d+)?$/.test(p))) throw new InvalidArgumentError(`"${raw}" is not a time (seconds, mm:ss or hh:mm:ss)`);
  return parts.reduce((total, p) => total * 60 + Number(p), 0);
}

/** `--timeframe a-b`: seconds, mm:ss or hh:mm:ss on each side, a before b. */
export function parseTimeframe(raw: string): { start: number; end: number } {
  const m = /^([^-]+)-([^-]+)$/.exec(raw.trim());
  if (!m) throw new InvalidArgumentError('expected <start>-<end>, such as 60-600 or 1:00-10:00');
  const start = seconds(m[1]);
  const end = seconds(m[2]);
  if (end <= start) throw new InvalidArgumentError('the end must come after the start');
  return { start, end };
}

const yes = () => new Option('-y, --yes', 'accept the price without being asked');
const maxCredits = () =>
  new Option('--max-credits <n>', 'accept the price only up to n credits (refused above it, nothing charged)').argParser(parseMaxCredits);

function program(io: UserIo, run: (action: (ctx: CliContext) => Promise<void>, json: boolean) => Promise<void>): Command {
  const root = new Command('cutroom')
    .description('Clip, edit, render and transcribe videos with a Cutroom service.')
    .exitOverride()
    .configureOutput({ writeOut: (s) => void io.stdout.write(s), writeErr: (s) => void io.stderr.write(s) })
    .addHelpText('after', USER_HELP_FOOTER)
    .showSuggestionAfterError(true);
  const json = new Option('--json', 'print JSON (the API’s objects) on stdout instead of text; progress stays on stderr');

  root
    .command('clip')
    .description('upload a video (or analyse a link), clip it, show the clips and download their renders')
    .argument('<file|url>', 'a video file (.mp4 .mov .webm .mkv) or a public video link')
    .option('--timeframe <a-b>', 'clip only this stretch: seconds, mm:ss or hh:mm:ss (at least one minute)', parseTimeframe)
    .option('--template <id>', 'caption template (cutroom: GET /templates)')
    .option('--strategy <id>', 'clipping strategy')
    .option('--language <code>', 'spoken language: auto, en or pt', 'auto')
    .option('--prompt <text>', 'what to look for, such as "the moments about pricing" (matching clips come first)', parsePrompt)
    .option('--keywords <a,b>', 'words or phrases a clip must say, separated by commas (up to 20)', parseKeywords)
    .option('--length <min-max>', 'clip length in seconds, within 10-180, such as 20-45', parseLength)
    .addOption(new Option('--render <which>', 'which clips to render and download').choices(['best', 'all', 'none']).default('best'))
    .option('--out <dir>', 'folder for the rendered MP4 files (<title-slug>-<clip id>.mp4)', '.')
    .option('--force', 'replace files that exist already')
    .addOption(yes())
    .addOption(maxCredits())
    .addOption(json)
    .action((source: string, opts) => run((ctx) => clipCommand(ctx, source, opts), opts.json === true));

  root
    .command('transcribe')
    .description('transcribe an audio or video file into SRT, WebVTT or text')
    .argument('<file>', 'audio (.mp3 .wav .m4a .aac .ogg .opus .flac) or video')
    .option('--speakers', 'label the speakers (A, B, …)', false)
    .addOption(new Option('--format <format>', 'file format').choices(['srt', 'vtt', 'txt']).default('srt'))
    .option('--language <code>', 'spoken language (auto, or a code such as en)', 'auto')
    .option('-o, --output <file>', 'write the transcript to this file (default: stdout)')
    .option('--force', 'replace the --output file if it exists')
    .addOption(yes())
    .addOption(maxCredits())
    .addOption(json)
    .action((file: string, opts) => run((ctx) => transcribeCommand(ctx, file, opts), opts.json === true));

  const renders = root.command('renders').description('renders of edits');
  renders
    .command('list')
    .description('the workspace’s renders, newest first')
    .addOption(new Option('--status <status>').choices(['queued', 'active', 'completed', 'failed', 'expired']))
    .addOption(json)
    .action((opts) => run((ctx) => r.rendersListCommand(ctx, opts), opts.json === true));
  renders
    .command('get')
    .description('show a render')
    .argument('<renderId>')
    .addOption(json)
    .action((id: string, opts) => run((ctx) => renderGetCommand(ctx, id), opts.json === true));
  renders
    .command('create')
    .description('start rendering an edit and show the render (then: renders download <id>)')
    .argument('<editId>')
    .option('--preview', 'a fast preview at 360 px on the short side instead of the final file')
    .addOption(json)
    .action((id: string, opts) => run((ctx) => renderCreateCommand(ctx, id, opts), opts.json === true));
  renders
    .command('download')
    .description('download a completed render’s MP4 (waits while it renders)')
    .argument('<renderId>')
    .option('--out <dir>', 'folder to save it in (<title-slug>-<render id>.mp4)', '.')
    .option('--force', 'replace the file if it exists')
    .addOption(json)
    .action((id: string, opts) => run((ctx) => renderDownloadCommand(ctx, id, opts), opts.json === true));

  const edits = root.command('edits').description('edits of clips: show one, its versions, derive a new one');
  edits
    .command('get')
    .description('show an edit: its segments and its words with their indices')
    .argument('<editId>')
    .addOption(json)
    .action((id: string, opts) => run((ctx) => editGetCommand(ctx, id), opts.json === true));
  edits
    .command('versions')
    .description('every version of the edit’s clip, newest first')
    .argument('<editId>')
    .addOption(json)
    .action((id: string, opts) => run((ctx) => editVersionsCommand(ctx, id), opts.json === true));
  edits
    .command('derive')
    .description('a new edit from this one (which never changes) with the changes asked; the clip points at it')
    .argument('<editId>')
    .option('--trim <start-end>', 'keep only this stretch of the source, in seconds (e.g. 12.4-41)', parseTrim)
    .option('--fix <index=text>', 'correct a word’s text (repeatable; "17=" hides word 17)', parseFix, [])
    .option('--remove-words <indices>', 'cut these words out (e.g. 3,4,9)', parseIndexList)
    .option('--remove-fillers', 'cut the filler words (um, uh, …)')
    .option('--remove-silences', 'cut pauses longer than 0.6 s down to a short gap (the voice detector finds them)')
    .option('--min-silence <seconds>', 'with --remove-silences: cut pauses longer than this instead (0.3 to 10; implies --remove-silences)', parseMinSilence)
    .option('--no-snap', 'keep the trim’s times as given instead of snapping them to word boundaries')
    .addOption(new Option('--aspect <ratio>', 'aspect ratio').choices(['9:16', '1:1', '16:9']))
    .addOption(
      new Option(
        '--reframe <layout>',
        'how the picture is framed (auto picks per shot; split: two faces stacked; screen: a slide with the face below)',
      ).choices(['auto', 'speaker', 'split', 'screen', 'center', 'fit']),
    )
    .option('--zoom <factor>', 'punch in on the framed picture: 1 (none) to 3, or subtle (eased punch-ins on emphasised words) or none', parseZoom)
    .option('--template <id>', 'caption template')
    .option('--no-captions', 'no burned-in captions')
    .option('--title <text>', 'the title shown on the clip')
    .addOption(json)
    .action((id: string, opts) => run((ctx) => editDeriveCommand(ctx, id, opts), opts.json === true));

  const clips = root
    .command('clips')
    .description('clips of a submission: <submission> is <video-id>/<submission-id> (or the submission id alone), <clip> <video-id>/<submission-id>/<clip-id>');
  clips
    .command('list')
    .description('the clips of a submission, best first, each with its <clip> reference')
    .argument('<submission>', '<video-id>/<submission-id>, or <submission-id>')
    .addOption(json)
    .action((ref: string, opts) => run((ctx) => r.clipsListCommand(ctx, ref), opts.json === true));
  clips
    .command('show')
    .description('one clip: its times, rating, reason, review and edit')
    .argument('<clip>', '<video-id>/<submission-id>/<clip-id>, or <submission-id>/<clip-id>')
    .addOption(json)
    .action((ref: string, opts) => run((ctx) => r.clipsShowCommand(ctx, ref), opts.json === true));
  clips
    .command('render')
    .description('start rendering a clip (then: clips download, or renders download <id>)')
    .argument('<clip>', '<video-id>/<submission-id>/<clip-id>, or <submission-id>/<clip-id>')
    .option('--template <id>', 're-render with this caption template (a new edit of the clip)')
    .option('--preview', 'a fast preview at 360 px on the short side')
    .addOption(json)
    .action((ref: string, opts) => run((ctx) => r.clipsRenderCommand(ctx, ref, opts), opts.json === true));
  clips
    .command('download')
    .description('render the clip if needed, wait, and save <title-slug>-<clip id>.mp4')
    .argument('<clip>', '<video-id>/<submission-id>/<clip-id>, or <submission-id>/<clip-id>')
    .option('--template <id>', 'with this caption template (a new edit of the clip)')
    .option('--preview', 'a fast preview at 360 px on the short side')
    .option('--out <dir>', 'folder to save it in', '.')
    .option('--force', 'replace the file if it exists')
    .addOption(json)
    .action((ref: string, opts) => run((ctx) => r.clipsDownloadCommand(ctx, ref, opts), opts.json === true));
  clips
    .command('review')
    .description('mark a clip kept or skipped (none clears it)')
    .argument('<videoId>')
    .argument('<submissionId>')
    .argument('<clipId>')
    .addArgument(new Argument('<review>').choices(['kept', 'skipped', 'none']))
    .addOption(json)
    .action((videoId: string, submissionId: string, clipId: string, review: 'kept' | 'skipped' | 'none', opts) =>
      run((ctx) => clipReviewCommand(ctx, { videoId, submissionId, clipId }, review), opts.json === true),
    );

  root
    .command('templates')
    .description('caption templates and clipping strategies')
    .command('list')
    .description('the templates and strategies the workspace can use (ids for --template and --strategy)')
    .addOption(json)
    .action((opts) => run((ctx) => r.templatesListCommand(ctx), opts.json === true));

  const transcriptions = root.command('transcriptions').description('transcriptions: list, show, download');
  transcriptions
    .command('list')
    .description('the workspace’s transcriptions, newest first')
    .addOption(new Option('--status <status>').choices(['processing', 'ready', 'no_speech', 'failed']))
    .addOption(json)
    .action((opts) => run((ctx) => r.transcriptionsListCommand(ctx, opts), opts.json === true));
  transcriptions
    .command('get')
    .description('a transcription, with its stage, progress and time left while processing')
    .argument('<transcriptionId>')
    .addOption(json)
    .action((id: string, opts) => run((ctx) => r.transcriptionsGetCommand(ctx, id), opts.json === true));
  transcriptions
    .command('download')
    .description('the transcript as SRT, WebVTT or text (waits while it processes)')
    .argument('<transcriptionId>')
    .addOption(new Option('--format <format>', 'file format').choices(['srt', 'vtt', 'txt']).default('srt'))
    .option('--no-speakers', 'leave the speaker names out')
    .option('-o, --output <file>', 'write it to this file (default: stdout)')
    .option('--force', 'replace the --output file if it exists')
    .addOption(json)
    .action((id: string, opts) => run((ctx) => r.transcriptionsDownloadCommand(ctx, id, opts), opts.json === true));

  const personas = root.command('personas').description('personas: made-up characters with a portrait');
  personas
    .command('list')
    .description('the workspace’s personas, newest first')
    .addOption(json)
    .action((opts) => run((ctx) => r.personasListCommand(ctx), opts.json === true));
  personas
    .command('get')
    .description('a persona: its portrait’s state, traits and versions')
    .argument('<personaId>')
    .addOption(json)
    .action((id: string, opts) => run((ctx) => r.personasGetCommand(ctx, id), opts.json === true));
  personas
    .command('create')
    .description('a new persona (charged the catalog’s portrait price); waits for its portrait')
    .option('--chip <trait=option>', 'a trait (repeatable; options: GET /personas/catalog); the others take the defaults', r.parseChip)
    .option('--no-wait', 'answer at once instead of waiting for the portrait')
    .addOption(yes())
    .addOption(maxCredits())
    .addOption(json)
    .action((opts) => run((ctx) => r.personasCreateCommand(ctx, opts), opts.json === true));
  personas
    .command('regenerate')
    .description('a new portrait from changed traits or a note (charged like create)')
    .argument('<personaId>')
    .option('--chip <trait=option>', 'a changed trait (repeatable)', r.parseChip)
    .option('--note <text>', 'one line, such as "shorter hair"')
    .option('--no-wait', 'answer at once instead of waiting for the portrait')
    .addOption(yes())
    .addOption(maxCredits())
    .addOption(json)
    .action((id: string, opts) => run((ctx) => r.personasRegenerateCommand(ctx, id, opts), opts.json === true));
  personas
    .command('swap')
    .description('put the persona into a video of up to 15 s (30 s high): quote, swap, wait, save <name-slug>-<video id>.mp4')
    .argument('<personaId>')
    .argument('<video>', 'a source video (.mp4 .mov .webm .mkv), uploaded (free)')
    .addOption(new Option('--quality <quality>').choices(['standard', 'high']).default('standard'))
    .addOption(new Option('--replace <what>', 'the whole person, or head and hair only').choices(['person', 'head']).default('person'))
    .option('--out <dir>', 'folder to save it in', '.')
    .option('--force', 'replace the file if it exists')
    .option('--no-wait', 'answer at once instead of waiting and downloading')
    .addOption(yes())
    .addOption(maxCredits())
    .addOption(json)
    .action((id: string, file: string, opts) => run((ctx) => r.personasSwapCommand(ctx, id, file, opts), opts.json === true));
  personas
    .command('download')
    .description('save the current portrait as <name-slug>-<persona id>.png')
    .argument('<personaId>')
    .option('--out <dir>', 'folder to save it in', '.')
    .option('--force', 'replace the file if it exists')
    .addOption(json)
    .action((id: string, opts) => run((ctx) => r.personasDownloadCommand(ctx, id, opts), opts.json === true));

  const generations = root.command('generations').description('images and videos made by models');
  generations
    .command('models')
    .description('the models, their options and prices')
    .addOption(json)
    .action((opts) => run((ctx) => r.generationsModelsCommand(ctx), opts.json === true));
  generations
    .command('create')
    .description('quote, generate, wait and save <model-slug>-<generation id>.<ext>')
    .argument('<modelId>')
    .option('--prompt <text>', 'what to make (models that take one)')
    .option('--image <file|id>', 'an input image: a local file (uploaded, free) or an image id (repeatable)', r.collect)
    .option('--option <name=value>', 'a model option, such as duration=3 (repeatable)', r.parseOption)
    .option('--out <dir>', 'folder to save the result in', '.')
    .option('--force', 'replace the file if it exists')
    .option('--no-wait', 'answer at once instead of waiting and downloading')
    .addOption(yes())
    .addOption(maxCredits())
    .addOption(json)
    .action((id: string, opts) => run((ctx) => r.generationsCreateCommand(ctx, id, opts), opts.json === true));
  generations
    .command('get')
    .description('a generation')
    .argument('<generationId>')
    .addOption(json)
    .action((id: string, opts) => run((ctx) => r.generationsGetCommand(ctx, id), opts.json === true));
  generations
    .command('download')
    .description('wait for a generation and save its output')
    .argument('<generationId>')
    .option('--out <dir>', 'folder to save it in', '.')
    .option('--force', 'replace the file if it exists')
    .addOption(json)
    .action((id: string, opts) => run((ctx) => r.generationsDownloadCommand(ctx, id, opts), opts.json === true));

  const monitors = root.command('monitors').description('monitors of channels: new videos (video) or live broadcasts (live) clipped as they come');
  monitors
    .command('list')
    .description('the workspace’s monitors')
    .addOption(json)
    .action((opts) => run((ctx) => r.monitorsListCommand(ctx), opts.json === true));
  monitors
    .command('get')
    .description('a monitor')
    .argument('<monitorId>')
    .addOption(json)
    .action((id: string, opts) => run((ctx) => r.monitorsGetCommand(ctx, id), opts.json === true));
  monitors
    .command('create')
    .description('a monitor, stopped (then: monitors start <id>)')
    .addOption(new Option('--type <type>', 'video: new uploads; live: broadcasts').choices(['live', 'video']).makeOptionMandatory())
    .requiredOption('--url <url>', 'a YouTube or Twitch channel, a feed of uploads, or (live) an HLS playlist')
    .option('--name <name>')
    .option('--template <id>', 'caption template of its clips')
    .addOption(new Option('--language <code>', 'spoken language').choices(['auto', 'en', 'pt']))
    .addOption(json)
    .action((opts) => run((ctx) => r.monitorsCreateCommand(ctx, opts), opts.json === true));
  for (const action of ['start', 'stop'] as const) {
    monitors
      .command(action)
      .description(action === 'start' ? 'start it: it clips, and charges, as new videos or batches come' : 'stop it')
      .argument('<monitorId>')
      .addOption(json)
      .action((id: string, opts) => run((ctx) => r.monitorsSwitchCommand(ctx, id, action), opts.json === true));
  }

  const posts = root.command('posts').description('posts of rendered edits to connected accounts');
  posts
    .command('list')
    .description('the workspace’s posts, newest first')
    .addOption(json)
    .action((opts) => run((ctx) => r.postsListCommand(ctx), opts.json === true));
  posts
    .command('get')
    .description('a post and its items')
    .argument('<postId>')
    .addOption(json)
    .action((id: string, opts) => run((ctx) => r.postsGetCommand(ctx, id), opts.json === true));
  posts
    .command('create')
    .description('publish edits to accounts (every --edit to every --to), now or at --at')
    .requiredOption('--edit <editId>', 'an edit to publish (repeatable)', r.collect)
    .requiredOption('--to <connectionId>', 'a connected account (repeatable)', r.collect)
    .option('--metadata <json>', 'per network, e.g. {"youtube":{"title":"…"}}', r.parseMetadata)
    .option('--at <time>', 'publish at this ISO 8601 time instead of now')
    .addOption(json)
    .action((opts) => run((ctx) => r.postsCreateCommand(ctx, opts), opts.json === true));
  posts
    .command('delete')
    .description('delete a post')
    .argument('<postId>')
    .addOption(json)
    .action((id: string, opts) => run((ctx) => r.postsDeleteCommand(ctx, id), opts.json === true));

  const webhooks = root.command('webhooks').description('webhooks: where the service sends events');
  webhooks
    .command('list')
    .description('the workspace’s webhooks')
    .addOption(json)
    .action((opts) => run((ctx) => r.webhooksListCommand(ctx), opts.json === true));
  webhooks
    .command('create')
    .description('a webhook; prints its signing secret once')
    .requiredOption('--url <url>', 'where to POST the events')
    .requiredOption('--event <type>', 'an event type such as render.completed (repeatable)', r.collect)
    .addOption(json)
    .action((opts) => run((ctx) => r.webhooksCreateCommand(ctx, opts), opts.json === true));
  webhooks
    .command('delete')
    .description('delete a webhook')
    .argument('<webhookId>')
    .addOption(json)
    .action((id: string, opts) => run((ctx) => r.webhooksDeleteCommand(ctx, id), opts.json === true));

  root
    .command('completion')
    .description('print a completion script: cutroom completion bash > ~/.local/share/bash-completion/completions/cutroom')
    .addArgument(new Argument('<shell>').choices(['bash', 'zsh']))
    .action((shell: 'bash' | 'zsh') => void io.stdout.write(shell === 'bash' ? bashCompletion(root) : zshCompletion(root)));

  root
    .command('balance')
    .description('show the workspace’s credits')
    .addOption(json)
    .action((opts) => run((ctx) => balanceCommand(ctx), opts.json === true));

  root
    .command('jobs')
    .description('what is running: submissions, renders and transcriptions not finished')
    .addOption(json)
    .action((opts) => run((ctx) => jobsCommand(ctx), opts.json === true));
  return root;
}

/**
 * The exit status and message of an error (USER_EXIT). The API's refusals and failed jobs are printed in
 * the words of the SDK's table of reasons: `<sentence> (<CODE>, HTTP <status>, request <id>)`, or for a job
 * `<sentence> (<CODE>, <job id>: <error_code>)`; --json prints the body with the same `reason`.
 */
export function failureOf(err: unknown): { exitCode: number; message: string; body?: Record<string, unknown> } {
  if (err instanceof CliFailure) return { exitCode: err.exitCode, message: err.message, ...(err.body ? { body: err.body } : {}) };
  if (err instanceof CutroomError) {
    const body = {
      code: err.code,
      status: err.status,
      reason: err.reason,
      ...(err.extra ? { extra: err.extra } : {}),
      ...(err.requestId ? { request_id: err.requestId } : {}),
    };
    if (err.status === null) {
      const local = err.code === 'UPLOAD_STREAM_TOO_SHORT';
      const job =
        err.extra && typeof err.extra.id === 'string' ? `, ${err.extra.id}${typeof err.extra.error_code === 'string' ? `: ${err.extra.error_code}` : ''}` : '';
      return { exitCode: local ? USER_EXIT.file : USER_EXIT.jobFailed, message: `${err.reason} (${err.code}${job})`, body };
    }
    if (err.code.startsWith('HTTP_'))
      return { exitCode: USER_EXIT.connection, message: `the service answered HTTP ${err.status}, not like Cutroom (is CUTROOM_URL right?)`, body };
    return { exitCode: USER_EXIT.apiError, message: err.describe(), body };
  }
  const code = (err as NodeJS.ErrnoException)?.code;
  if (typeof code === 'string' && ['ENOENT', 'EACCES', 'EISDIR', 'ENOTDIR', 'EEXIST', 'ENOSPC', 'EROFS', 'EPERM'].includes(code)) {
    return { exitCode: USER_EXIT.file, message: (err as Error).message };
  }
  if (err instanceof TypeError && /fetch failed|ECONNREFUSED|ENOTFOUND|EAI_AGAIN/.test(`${err.message} ${String((err as { cause?: unknown }).cause ?? '')}`)) {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    return { exitCode: USER_EXIT.connection, message: `cannot reach the service: ${cause ?? err.message}` };
  }
  return { exitCode: USER_EXIT.connection, message: err instanceof Error ? err.message : String(err) };
}

/** The client of CUTROOM_URL with CUTROOM_API_KEY; a usage error when the key is missing or the URL is not http(s). */
function client(io: UserIo): Cutroom {
  const apiKey = io.env.CUTROOM_API_KEY?.trim();
  if (!apiKey) throw new CliFailure('CUTROOM_API_KEY is not set (the API key of your workspace)', USER_EXIT.usage);
  const baseUrl = io.env.CUTROOM_URL?.trim() || 'http://localhost:8080';
  if (!/^https?:\/\/[^/]/i.test(baseUrl)) throw new CliFailure(`CUTROOM_URL must be an http(s) URL (got "${baseUrl}")`, USER_EXIT.usage);
  const fromEnv = Number(io.env.CUTROOM_POLL_INTERVAL_MS);
  if (io.env.CUTROOM_POLL_INTERVAL_MS && !(Number.isInteger(fromEnv) && fromEnv >= 100)) {
    throw new CliFailure(`CUTROOM_POLL_INTERVAL_MS must be an integer of at least 100 (got "${io.env.CUTROOM_POLL_INTERVAL_MS}")`, USER_EXIT.usage);
  }
  const interval = io.pollIntervalMs ?? (io.env.CUTROOM_POLL_INTERVAL_MS ? fromEnv : undefined);
  return new Cutroom({
    baseUrl,
    apiKey,
    workspaceId: io.env.CUTROOM_WORKSPACE_ID?.trim() || undefined,
    ...(interval ? { pollIntervalMs: () => interval } : {}),
  });
}

/** Runs `cutroom <clip|transcribe|edits|clips|renders|balance|jobs> …` and answers its exit status (USER_EXIT). */
export async function runUserCli(argv: string[], io: UserIo): Promise<number> {
  let status: number = USER_EXIT.ok;
  const run = async (action: (ctx: CliContext) => Promise<void>, json: boolean) => {
    try {
      await action({ cutroom: client(io), io, json, progress: new Progress(io.stderr) });
    } catch (err) {
      const f = failureOf(err);
      if (json) io.stdout.write(`${JSON.stringify({ error: f.body ?? { message: f.message } }, null, 2)}\n`);
      io.stderr.write(`cutroom: ${f.message}\n`);
      status = f.exitCode;
    }
  };
  try {
    await program(io, run).parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end here too, with exit code 0.
      return err.exitCode === 0 ? USER_EXIT.ok : USER_EXIT.usage;
    }
    throw err;
  }
  return status;
}
