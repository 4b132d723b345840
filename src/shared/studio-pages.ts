/**
 * The Studio's page addresses (docs/studio.md), one table for both sides: the service answers each with
 * the app's index.html (so a page reloads and can be shared), and the app's router reads the same
 * patterns. `:name` is one path segment. Nothing else falls back to the app: an unknown path stays a
 * JSON 404, and no page can shadow /api/v1, /admin/v1, /files, /published or the health and metrics paths.
 */
export const STUDIO_PAGES = {
  home: '/',
  newClips: '/new',
  posts: '/posts',
  credits: '/credits',
  submission: '/submissions/:videoId/:submissionId',
  editor: '/submissions/:videoId/:submissionId/clips/:clipId',
  transcriptions: '/transcriptions',
  transcription: '/transcriptions/:transcriptionId',
  generations: '/generations',
  monitors: '/monitors',
  monitor: '/monitors/:monitorId',
  settings: '/settings',
  personas: '/personas',
  persona: '/personas/:personaId',
} as const;

export type StudioPage = keyof typeof STUDIO_PAGES;

/** The folder of the app's hashed files (`/assets/<name>-<hash>.js`): cached for a year, never changed in place. */
export const STUDIO_ASSETS_PREFIX = '/assets/';
