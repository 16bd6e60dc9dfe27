import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import type { Db } from '../../src/server/db/client.ts';
import { accounts } from '../../src/server/db/schema/index.ts';
import { messageRoutes } from '../../src/server/messages/routes.ts';
import { fileRoutes } from '../../src/server/storage/routes.ts';
import { submissionRoutes } from '../../src/server/submissions/routes.ts';
import { closeToolsPool } from '../../src/server/tools/runtime.ts';
import { closeSubsetPool } from '../../src/server/webfont/subset.ts';
import { headerAccount, insertAccount, type LibraryFixture, openFixtureLibrary, routesApp } from './font-library.ts';

// What the submission suites share: the fixture library, an app with the contribution calls, the
// messages and the storage behind upload tickets, and accounts that review.

/** The library and the app of one suite. */
export interface SubmissionSuite {
  library: LibraryFixture;
  app: Hono;
  close(): Promise<void>;
}

export async function openSubmissionSuite(prefix: string): Promise<SubmissionSuite> {
  const library = await openFixtureLibrary(prefix);
  const app = routesApp((routes) => {
    routes.route('/web/api', submissionRoutes({ account: headerAccount }));
    routes.route('/api/v1', messageRoutes({ account: headerAccount }));
    routes.route('/files', fileRoutes());
  });
  return {
    library,
    app,
    close: async () => {
      await closeToolsPool();
      await closeSubsetPool();
      await library.close();
    },
  };
}

/** An account with the editor role, which reviews submissions. */
export async function insertReviewer(db: Db, email: string): Promise<number> {
  const id = await insertAccount(db, email);
  await db.update(accounts).set({ role: 'editor', nickname: '审稿人' }).where(eq(accounts.id, id));
  return id;
}
