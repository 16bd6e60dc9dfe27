import { closeDatabase } from '../../src/server/db/client.ts';
import { EnvError } from '../../src/server/env.ts';

/**
 * Runs a command-line tool that uses the database: its exit code is what `main` answers, errors of
 * the given kinds (and a bad configuration) print their message alone, anything else its stack; the
 * database is closed (and PGlite checkpointed) before the process ends.
 */
export async function runCommand(
  main: (argv: string[]) => Promise<number>,
  expected: ReadonlyArray<new (...args: never[]) => Error>,
): Promise<never> {
  let code = 1;
  try {
    code = await main(process.argv.slice(2));
  } catch (error) {
    if (error instanceof EnvError || expected.some((kind) => error instanceof kind))
      console.error((error as Error).message);
    else console.error(error);
  } finally {
    await closeDatabase();
  }
  process.exit(code);
}
