import type { Credentials } from '../../ports/publisher.js';

/** The checks behind each publisher's `checkCredentials` (admin API: connecting an account). */

const nonEmpty = (v: unknown): boolean => typeof v === 'string' && v.trim() !== '';

const STRING_FIELDS = ['access_token', 'refresh_token', 'client_id', 'client_key', 'client_secret', 'expires_at', 'open_id', 'ig_user_id', 'username'];

/** What every network requires: the known fields are strings and `expires_at` is an instant. The first bad field, or null. */
export function checkCredentialFields(credentials: Credentials): string | null {
  for (const key of STRING_FIELDS) {
    if (credentials[key] !== undefined && typeof credentials[key] !== 'string') return key;
  }
  if (credentials.expires_at !== undefined && Number.isNaN(Date.parse(credentials.expires_at))) return 'expires_at';
  return null;
}

/**
 * An OAuth network's connection (YouTube, TikTok): an access token or a refresh token, and an own client
 * only as a pair (`client_id` or `client_key`, with `client_secret`); `clientIdField` is the name the
 * network's operators know the client id by, reported when the secret comes alone.
 */
export function checkOAuthCredentials(credentials: Credentials, clientIdField: 'client_id' | 'client_key'): string | null {
  const bad = checkCredentialFields(credentials);
  if (bad) return bad;
  if (!nonEmpty(credentials.access_token) && !nonEmpty(credentials.refresh_token)) return 'access_token';
  if ((nonEmpty(credentials.client_id) || nonEmpty(credentials.client_key)) !== nonEmpty(credentials.client_secret)) {
    return nonEmpty(credentials.client_secret) ? clientIdField : 'client_secret';
  }
  return null;
}

/** Instagram: a token and the numeric id of the professional account. */
export function checkInstagramCredentials(credentials: Credentials): string | null {
  const bad = checkCredentialFields(credentials);
  if (bad) return bad;
  if (!nonEmpty(credentials.access_token)) return 'access_token';
  if (!/^\d+$/.test(String(credentials.ig_user_id ?? ''))) return 'ig_user_id';
  return null;
}
