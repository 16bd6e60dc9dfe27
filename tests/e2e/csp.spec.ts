import { expect, test } from '../helpers/e2e-test.ts';

// The Content-Security-Policy blocks nothing the site itself does: that every page loads with no
// violation and no console error is judged in the walk of every route (narrow.spec.ts). Here: what it is
// for, a script injected into a page does not run and is reported.

test('a script injected into a page does not run, and the policy allows scripts only from the site', async ({
  page,
  request,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text().slice(0, 300));
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
    });
  });

  // A script injected into a page (as a cross-site script would be) does not run, and is reported.
  await page.goto('/');
  // An inline script runs as it is inserted, so the flag is set by then if the policy let it run.
  const ran = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__injected = true;';
    document.body.append(script);
    return (window as unknown as { __injected?: boolean }).__injected === true;
  });
  expect(ran).toBe(false);
  // The violation is reported as an event that follows; wait for it.
  await expect.poll(() => problems.some((problem) => problem.includes('CSP violation: script-src'))).toBe(true);
  // The policy is there to be tested: scripts only from the site or by hash.
  const policy = (await request.get('/')).headers()['content-security-policy'] ?? '';
  expect(policy).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
  expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
});
