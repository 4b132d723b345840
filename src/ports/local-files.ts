/**
 * Files on this machine, for jobs that work on local copies (renders, transcriptions, submissions):
 * a private scratch folder, a file's size and its SHA-256. Implemented by src/adapters/files/local-files.ts.
 */
export interface LocalFiles {
  /**
   * Runs `fn` with a new empty folder of its own (named `<prefix>` plus a random suffix, in the service's
   * temporary folder); the folder and everything in it is removed afterwards, also when `fn` throws.
   */
  withTempDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T>;
  /** Size in bytes of a local file. */
  size(file: string): Promise<number>;
  /** Hex SHA-256 of a local file's bytes (read as a stream). */
  sha256(file: string): Promise<string>;
}
