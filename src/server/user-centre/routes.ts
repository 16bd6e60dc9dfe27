import { Hono } from 'hono';
import { type AccountResolver, requireAccount, sessionAccount } from '../auth/current-account.ts';
import { ok } from '../http/envelope.ts';
import { userOverview } from './overview.ts';

/** The user centre's home in one call (GET /web/api/user/overview), for clients that render it themselves. */
export function userCentreRoutes(options: { account?: AccountResolver } = {}): Hono {
  const resolve = options.account ?? sessionAccount;
  const routes = new Hono();
  routes.get('/user/overview', async (c) => c.json(ok(await userOverview(await requireAccount(resolve, c)))));
  return routes;
}
