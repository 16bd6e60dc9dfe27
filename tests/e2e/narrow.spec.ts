import { expect, test } from '../helpers/e2e-test.ts';
import { atWidth, overflow, ROUTE_WALKER, walkEveryRoute } from '../helpers/route-walk.ts';
import { MIN_TARGET, smallTargets } from '../helpers/touch-targets.ts';

// Every page in one walk (the walk is the costly part, so each page is judged for everything at once):
// one page of every route, the visitor's and the signed-in ones, must
// - fit the narrowest phones in use (320 px): a table or a code block may scroll inside its own box, the
//   page itself may not;
// - offer targets a finger can hit on a phone (375 px): every visible link, button, field, select, text area,
//   role=button, summary and checkbox or radio label is at least 44 × 44 CSS px (WCAG 2.5.5); links inside
//   running text are exempt, as WCAG 2.5.8 exempts them, and so are disabled controls
//   (tests/helpers/touch-targets.ts);
// - load with no Content-Security-Policy violation and no console error: an inline script the policy does not
//   know by hash, an inline event handler or a script from elsewhere would show up here.
// The same walk with another set of system fonts and the longest names is narrow-other-fonts.spec.ts.

test(`every page fits 320 px, has ${MIN_TARGET} px targets at 375 px and breaks no policy`, async ({
  page,
  request,
}) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${new URL(page.url()).pathname}: ${message.text().slice(0, 300)}`);
  });
  page.on('pageerror', (error) => errors.push(`${new URL(page.url()).pathname}: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
    });
  });
  await atWidth(page, 320);
  const { routes, found } = await walkEveryRoute(page, request, ROUTE_WALKER, async (page) => {
    const wide = (await overflow(page)).map((finding) => `at 320 px ${finding}`);
    await atWidth(page, 375);
    const small = await smallTargets(page);
    await atWidth(page, 320);
    return [...wide, ...small];
  });
  expect(routes).toBeGreaterThan(70);
  expect(found).toEqual([]);
  expect(errors).toEqual([]);
});
