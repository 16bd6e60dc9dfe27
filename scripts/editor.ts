// Grants, revokes and lists the editor role: npm run editor -- grant <mobile|email>.
import fs from 'node:fs';
import { EditorRoleError, grantEditor, listEditors, revokeEditor } from '../src/server/accounts/editor-role.ts';
import { runCommand } from './lib/command.ts';

if (fs.existsSync('.env')) process.loadEnvFile('.env');

const USAGE = `Usage:
  npm run editor -- grant <mobile|email>    let the account edit articles, albums and cases at /editor
  npm run editor -- revoke <mobile|email>   take the editor role back
  npm run editor -- list                    show every account that may edit

With the embedded database (no DATABASE_URL), stop the server first: one process at a time may open it.`;

function describeAccount(account: { id: number; mobile: string | null; email: string | null; role: string }): string {
  return `#${account.id} ${[account.mobile, account.email].filter(Boolean).join(' / ')} (${account.role})`;
}

async function main(argv: string[]): Promise<number> {
  const [command, identifier] = argv;
  if (command === 'list' && !identifier) {
    const editors = await listEditors();
    console.log(editors.length === 0 ? 'No editors yet.' : editors.map(describeAccount).join('\n'));
    return 0;
  }
  if ((command === 'grant' || command === 'revoke') && identifier) {
    const account = command === 'grant' ? await grantEditor(identifier) : await revokeEditor(identifier);
    console.log(`${command === 'grant' ? 'Editor' : 'Revoked'}: ${describeAccount(account)}`);
    return 0;
  }
  console.error(USAGE);
  return 2;
}

await runCommand(main, [EditorRoleError]);
