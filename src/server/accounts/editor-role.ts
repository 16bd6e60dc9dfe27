import { eq, inArray } from 'drizzle-orm';
import { validateAccount } from '../../lib/validate.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { type AccountRole, accounts } from '../db/schema/index.ts';

/** Thrown when the command line names no usable account. */
export class EditorRoleError extends Error {
  override name = 'EditorRoleError';
}

/** An account that may edit content. */
export interface EditorAccount {
  id: number;
  mobile: string | null;
  email: string | null;
  nickname: string;
  role: AccountRole;
}

const columns = {
  id: accounts.id,
  mobile: accounts.mobile,
  email: accounts.email,
  nickname: accounts.nickname,
  role: accounts.role,
};

/** Roles that open the editing area. */
export const EDITOR_ROLES: readonly AccountRole[] = ['editor', 'admin'];

/** True for a role that may edit content. */
export function canEdit(role: AccountRole | null | undefined): boolean {
  return role !== null && role !== undefined && EDITOR_ROLES.includes(role);
}

async function findAccount(db: Db, identifier: string): Promise<EditorAccount> {
  const value = identifier.trim();
  if (!value || validateAccount(value) !== null) {
    throw new EditorRoleError(`"${identifier}" is neither a mobile number nor an e-mail address`);
  }
  const isEmail = value.includes('@');
  const [account] = await db
    .select(columns)
    .from(accounts)
    .where(isEmail ? eq(accounts.email, value.toLowerCase()) : eq(accounts.mobile, value));
  if (!account)
    throw new EditorRoleError(`No account with ${isEmail ? 'e-mail' : 'mobile number'} ${value}; register it first`);
  return account;
}

/** Makes the account with this mobile number or e-mail an editor (an admin stays admin). */
export async function grantEditor(identifier: string, database?: Db): Promise<EditorAccount> {
  const db = database ?? (await configuredDb());
  const account = await findAccount(db, identifier);
  if (canEdit(account.role)) return account;
  const [updated] = await db
    .update(accounts)
    .set({ role: 'editor', updatedAt: new Date() })
    .where(eq(accounts.id, account.id))
    .returning(columns);
  return updated ?? account;
}

/** Takes the editor role back; admins are left alone. */
export async function revokeEditor(identifier: string, database?: Db): Promise<EditorAccount> {
  const db = database ?? (await configuredDb());
  const account = await findAccount(db, identifier);
  if (account.role !== 'editor') return account;
  const [updated] = await db
    .update(accounts)
    .set({ role: 'user', updatedAt: new Date() })
    .where(eq(accounts.id, account.id))
    .returning(columns);
  return updated ?? account;
}

/** Every account that may edit content. */
export async function listEditors(database?: Db): Promise<EditorAccount[]> {
  const db = database ?? (await configuredDb());
  return db
    .select(columns)
    .from(accounts)
    .where(inArray(accounts.role, [...EDITOR_ROLES]))
    .orderBy(accounts.id);
}
