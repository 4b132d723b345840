/**
 * The events the service sends to webhook endpoints (docs/webhooks.md, "Event catalogue"): one envelope,
 * `data` fixed by `type`. `WebhookEvent` is their union, so `if (event.type === 'render.completed')`
 * narrows `event.data` to that event's fields.
 */

/** What every event carries around its `data`. */
interface Envelope<T extends string, D> {
  /** `evt_…`: the same on every attempt and for every endpoint (the `webhook-id` header); deduplicate on it. */
  id: string;
  type: T;
  /** ISO 8601: when the event happened. */
  timestamp: string;
  workspace_id: string;
  data: D;
}

/** What a generation made (no URL: GET /generations/{id} signs one). */
export interface GenerationOutput {
  content_type: string;
  width: number;
  height: number;
  /** Videos: the length in seconds. */
  seconds?: number;
  /** Images: the id to use as a generation's input image. */
  image_id?: string;
}

export type SubmissionCompletedEvent = Envelope<'submission.completed', { id: string; video_id: string; status: 'completed'; clips_count: number }>;
export type SubmissionFailedEvent = Envelope<'submission.failed', { id: string; video_id: string; status: 'failed'; error_code: string }>;
export type RenderCompletedEvent = Envelope<'render.completed', { id: string; edit_id: string; status: 'completed' }>;
export type RenderFailedEvent = Envelope<'render.failed', { id: string; edit_id: string; status: 'failed'; error_code: string }>;
/** A transcription ended with a result: `ready`, or `no_speech` (refunded). */
export type TranscriptionReadyEvent = Envelope<'transcription.ready', { id: string; status: 'ready' | 'no_speech'; language: string | null; error_code: null }>;
export type TranscriptionFailedEvent = Envelope<'transcription.failed', { id: string; status: 'failed'; language: null; error_code: string }>;
export type PostCompletedEvent = Envelope<'post.completed', { id: string; status: 'completed' }>;
export type PostPartialEvent = Envelope<'post.partial', { id: string; status: 'partial' }>;
export type PostFailedEvent = Envelope<'post.failed', { id: string; status: 'failed' }>;
export type BroadcastStartedEvent = Envelope<'broadcast.started', { id: string; monitor_id: string; title: string; status: 'live' }>;
export type BroadcastEndedEvent = Envelope<
  'broadcast.ended',
  { id: string; monitor_id: string; status: 'ended'; end_reason: 'ENDLIST' | 'STALLED' | 'STOPPED' }
>;
export type MonitorStoppedEvent = Envelope<'monitor.stopped', { id: string; status: 'stopped'; stop_reason: string }>;
export type PersonaReadyEvent = Envelope<'persona.ready', { id: string; version_id: string; image_status: 'ready' }>;
export type PersonaFailedEvent = Envelope<'persona.failed', { id: string; image_status: 'failed'; error_code: string }>;
export type PersonaVideoReadyEvent = Envelope<'persona_video.ready', { id: string; persona_id: string; status: 'ready'; edit_id: string }>;
export type PersonaVideoFailedEvent = Envelope<'persona_video.failed', { id: string; persona_id: string; status: 'failed'; error_code: string }>;
export type GenerationReadyEvent = Envelope<'generation.ready', { id: string; model_id: string; status: 'ready'; output: GenerationOutput }>;
export type GenerationFailedEvent = Envelope<'generation.failed', { id: string; model_id: string; status: 'failed'; error_code: string }>;
/** An edit derived with POST /edits: a clip's new version (`clip_id` null for an edit of no clip). `duration`: output seconds. */
export type EditCreatedEvent = Envelope<'edit.created', { id: string; parent_edit_id: string; clip_id: string | null; video_id: string; duration: number }>;

/** Every event a webhook endpoint receives: narrow it by `type`. */
export type WebhookEvent =
  | SubmissionCompletedEvent
  | SubmissionFailedEvent
  | RenderCompletedEvent
  | RenderFailedEvent
  | TranscriptionReadyEvent
  | TranscriptionFailedEvent
  | PostCompletedEvent
  | PostPartialEvent
  | PostFailedEvent
  | BroadcastStartedEvent
  | BroadcastEndedEvent
  | MonitorStoppedEvent
  | PersonaReadyEvent
  | PersonaFailedEvent
  | PersonaVideoReadyEvent
  | PersonaVideoFailedEvent
  | GenerationReadyEvent
  | GenerationFailedEvent
  | EditCreatedEvent;

/** An event's name (`render.completed`, …): the `events` of POST /webhooks take these, or `*`. */
export type WebhookEventType = WebhookEvent['type'];

/** The `data` of the event named `T`. */
export type WebhookEventData<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>['data'];

// A key per member of the union, no more and no less: the compiler keeps the list below complete.
const EVENT_TYPES: Record<WebhookEventType, true> = {
  'submission.completed': true,
  'submission.failed': true,
  'render.completed': true,
  'render.failed': true,
  'transcription.ready': true,
  'transcription.failed': true,
  'post.completed': true,
  'post.partial': true,
  'post.failed': true,
  'broadcast.started': true,
  'broadcast.ended': true,
  'monitor.stopped': true,
  'persona.ready': true,
  'persona.failed': true,
  'persona_video.ready': true,
  'persona_video.failed': true,
  'generation.ready': true,
  'generation.failed': true,
  'edit.created': true,
};

/** Every event name `WebhookEvent` knows. */
export const WEBHOOK_EVENT_TYPES = Object.keys(EVENT_TYPES) as WebhookEventType[];
