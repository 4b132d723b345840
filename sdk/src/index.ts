export { Cutroom, ok, defaultPollIntervalMs } from './client.js';
export type {
  Answer,
  CallOptions,
  PostOptions,
  ClipFileOptions,
  ClipFileResult,
  TranscribeFileOptions,
  TranscribeFileResult,
  DownloadRenderOptions,
  DownloadedRender,
  NodeRendersResource,
  CreateSubmissionRequest,
  CreateTranscriptionRequest,
  Transcript,
  CutroomOptions,
  JobKind,
  WaitOptions,
  Schemas,
  VideoAnalysis,
  Submission,
  Render,
  Transcription,
  Post,
  Persona,
  PersonaVideo,
  PersonaSource,
  Generation,
  MediaUpload,
  Edit,
  EditVersionList,
  Clip,
  DeriveEditRequest,
} from './client.js';
export { CutroomConfigError, CutroomError } from './errors.js';
export { ERROR_REASONS, errorReason, formatBytes, formatSeconds } from './reasons.js';
export { backoffMs, retryAfterMs } from './retry.js';
export type { RetryOptions, Sleep } from './retry.js';
export type { UploadKind, UploadProgress, UploadVideoOptions } from './upload.js';
export { acceptedExtensions } from './upload.js';
export { verifyWebhook } from './webhooks.js';
export type { VerifyWebhookOptions, WebhookHeaders } from './webhooks.js';
export { WEBHOOK_EVENT_TYPES } from './webhook-events.js';
export type * from './webhook-events.js';
export type * from './resources.js';
export type { FileUploadOptions, GenerationUploads, PersonaUploads } from './multipart.js';
export type { components, operations, paths } from './schema.js';
