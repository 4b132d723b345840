import { Cutroom, type JobKind } from '@cutroom/sdk/browser';

/**
 * The signed-in key lives in this tab's sessionStorage only: never in a URL, a cookie or localStorage,
 * gone when the tab closes or on Sign out.
 */
export interface Session {
  apiKey: string;
  /** Sent as X-Workspace-Id, for a key bound to several workspaces. */
  workspaceId?: string;
}

const KEY = 'cutroom.studio.apiKey';
const WORKSPACE = 'cutroom.studio.workspaceId';

export function loadSession(): Session | null {
  const apiKey = sessionStorage.getItem(KEY);
  if (!apiKey) return null;
  return { apiKey, workspaceId: sessionStorage.getItem(WORKSPACE) ?? undefined };
}

export function saveSession(s: Session): void {
  sessionStorage.setItem(KEY, s.apiKey);
  if (s.workspaceId) sessionStorage.setItem(WORKSPACE, s.workspaceId);
  else sessionStorage.removeItem(WORKSPACE);
}

export function clearSession(): void {
  sessionStorage.removeItem(KEY);
  sessionStorage.removeItem(WORKSPACE);
}

/** Poll intervals: the lower ends of what the API asks (submissions every 10 to 15 s, other jobs every 5 to 10 s). */
export function pollMs(kind: JobKind): number {
  return kind === 'submission' ? 10_000 : 5_000;
}

/** The SDK's client on this service's own address. */
export function clientFor(s: Session): Cutroom {
  return new Cutroom({ baseUrl: location.origin, apiKey: s.apiKey, workspaceId: s.workspaceId, pollIntervalMs: pollMs });
}
