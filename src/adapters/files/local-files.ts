import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { LocalFiles } from '../../ports/local-files.js';

/** Scratch folders under `tmpDir` (os.tmpdir() in the service), removed after use. */
export class NodeLocalFiles implements LocalFiles {
  constructor(private readonly tmpDir: string) {}

  async withTempDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
    const dir = await fs.mkdtemp(path.join(this.tmpDir, prefix));
    try {
      return await fn(dir);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  async size(file: string): Promise<number> {
    return (await fs.stat(file)).size;
  }

  async sha256(file: string): Promise<string> {
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  }
}
