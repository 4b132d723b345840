import { DomainError } from '../errors.js';

/**
 * Why a link was refused: the `extra.reason` of every 422 INVALID_URL (docs/api-decisions.md, "Error
 * extras"), so that a person knows what to change. `private_address` is the one an operator can lift
 * (CUTROOM_ALLOW_PRIVATE_SOURCES); `metadata_address` is refused always.
 */
export const URL_REFUSALS = [
  /** Not an absolute http(s) address: unparsable, empty or odd host, spaces, longer than 2048 characters. */
  'malformed',
  /** A scheme other than http or https. */
  'scheme',
  /** A user name or password in the address. */
  'credentials',
  /** A page of a known platform that is not one video (a home page, a search) or not one channel (monitors). */
  'unsupported_link',
  /** A site the service does not know, and the address is not a media file (.mp4 .mov .webm .mkv .m3u8 …). */
  'unsupported_host',
  /** The host is (or resolves to) a loopback, private, link-local or other non-public address. */
  'private_address',
  /** A cloud metadata endpoint: never fetched. */
  'metadata_address',
  /** The host name does not resolve. */
  'unresolvable',
  /** The host did not answer, or the connection failed or stalled. */
  'unreachable',
  /** More redirects than the service follows. */
  'too_many_redirects',
  /** The address answered an HTTP error (`extra.status`). */
  'http_status',
  /** The address answers something that is not a video the service reads (a web page, an unknown container, a bad playlist). */
  'not_media',
  /** The site says there is no video at this link (removed, unknown id). */
  'no_video',
] as const;

export type UrlRefusal = (typeof URL_REFUSALS)[number];

/** 422 INVALID_URL with `extra.reason` (and any other detail, such as the HTTP `status`). */
export function invalidUrl(reason: UrlRefusal, detail: Record<string, unknown> = {}): DomainError {
  return new DomainError('INVALID_URL', { reason, ...detail });
}
