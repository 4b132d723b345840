/** `cutroom admin …`: operator commands over /admin/v1 (being built). */
export async function runAdmin(args: string[]): Promise<number> {
  process.stderr.write(`cutroom admin: unknown command ${args.join(' ')}\n`);
  return 2;
}
