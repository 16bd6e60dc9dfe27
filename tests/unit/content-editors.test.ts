import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { canEdit, grantEditor, listEditors, revokeEditor } from '../../src/server/accounts/editor-role.ts';
import { accounts } from '../../src/server/db/schema/index.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/database.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await openTestDatabase();
  await database.db
    .insert(accounts)
    .values([{ mobile: '13800000001' }, { email: 'editor@example.com' }, { mobile: '13800000003', role: 'admin' }]);
});
afterAll(async () => database.close());

describe('grantEditor', () => {
  test('makes an account found by mobile or e-mail (any case) an editor', async () => {
    expect((await grantEditor('13800000001', database.db)).role).toBe('editor');
    expect((await grantEditor('Editor@Example.com', database.db)).role).toBe('editor');
    expect((await listEditors(database.db)).map((a) => a.role)).toEqual(['editor', 'editor', 'admin']);
  });

  test('leaves an admin an admin', async () => {
    expect((await grantEditor('13800000003', database.db)).role).toBe('admin');
    expect((await revokeEditor('13800000003', database.db)).role).toBe('admin');
  });

  test('refuses unknown accounts and malformed identifiers', async () => {
    await expect(grantEditor('13899999999', database.db)).rejects.toThrow(/No account/);
    await expect(grantEditor('not-an-account', database.db)).rejects.toThrow(/neither a mobile number/);
  });
});

describe('revokeEditor', () => {
  test('turns an editor back into a user', async () => {
    await revokeEditor('13800000001', database.db);
    const [row] = await database.db.select().from(accounts).where(eq(accounts.mobile, '13800000001'));
    expect(row?.role).toBe('user');
    expect(canEdit(row?.role)).toBe(false);
    expect(canEdit('editor')).toBe(true);
  });
});
