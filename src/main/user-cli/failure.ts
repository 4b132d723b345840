/** Exit statuses of the user commands (documented in `cutroom --help` and the README). */
export const USER_EXIT = { ok: 0, apiError: 1, usage: 2, connection: 3, jobFailed: 4, file: 5 } as const;

/** A failure the CLI explains itself, with its exit status (and, for --json, the error body it stands for). */
export class CliFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'CliFailure';
  }
}
