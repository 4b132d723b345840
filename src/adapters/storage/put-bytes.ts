import fs from 'node:fs/promises';
import path from 'node:path';
import type { LocalFiles } from '../../ports/local-files.js';
import type { Storage } from '../../ports/storage.js';

/**
 * Stores bytes under a key (the Storage port uploads files): written to a scratch folder named
 * `<prefix>…` first, removed afterwards. For images received in a request body (persona photos and
 * portraits, generation reference images).
 */
export function bytesToStorage(storage: Pick<Storage, 'putFile'>, files: Pick<LocalFiles, 'withTempDir'>, prefix: string) {
  return (key: string, bytes: Uint8Array, contentType: string): Promise<void> =>
    files.withTempDir(prefix, async (dir) => {
      const file = path.join(dir, 'image');
      await fs.writeFile(file, bytes);
      await storage.putFile(key, file, contentType);
    });
}
