import type { SignedFiles } from '../../ports/signed-files.js';
import type { Storage } from '../../ports/storage.js';
import { FILES_URL_PREFIX, LocalStorage } from './local.storage.js';
import { isValidKey } from './storage-keys.js';
import { verifySignedRequest } from './signed-url.js';

/** The signed URLs of the local driver, answered by the service (src/http/routes/files.routes.ts); null for S3. */
export function signedFilesOf(storage: Storage): SignedFiles | null {
  if (!(storage instanceof LocalStorage)) return null;
  return {
    urlPrefix: FILES_URL_PREFIX,
    verify: (req) => verifySignedRequest(storage.signingSecret, req),
    upload(urlKey) {
      const target = storage.uploadTarget(urlKey);
      return target && { receive: (body, expectedLength) => storage.receive(target, body, expectedLength) };
    },
    isValidKey,
    head: (key) => storage.head(key),
    read: (key, range) => storage.read(key, range),
  };
}
