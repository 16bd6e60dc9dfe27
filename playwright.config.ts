import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// E2E_PORT lets two runs on one machine (say, two checkouts) serve side by side.
const PORT = Number(process.env['E2E_PORT'] || 4399);
// Each run serves from its own data folder, seeded from the small fixture fonts. Workers load this
// file again in other processes; E2E_DATA_DIR hands them the runner's folder (tests read the outbox).
const dataDir = process.env['E2E_DATA_DIR'] || path.join(os.tmpdir(), `font-alliance-e2e-${process.pid}`);
process.env['E2E_DATA_DIR'] = dataDir;

export default defineConfig({
  testDir: 'tests/e2e',
  // One browser: the journeys share one server and its data, and some walk every page of the site while
  // others create and delete records (an article deleted mid-walk answers 404). Two browsers were tried
  // and raced so; they also freed no time, as the unit suite takes the second core.
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Time limits only stop a journey that hangs; none judges speed (that is for tests/bench/). The
  // journeys share two cores with the unit suite in `npm test`, often beside other work: a state that
  // takes a second alone can take half a minute there. Waiting longer for it costs nothing when it comes.
  timeout: 300_000,
  expect: { timeout: 60_000 },
  reporter: process.env['CI'] ? 'list' : 'line',
  use: {
    baseURL: `http://localhost:${PORT}`,
    locale: 'zh-CN',
    // Recording a trace costs a third of the journeys' CPU (the screencast most of it), paid on every
    // journey to keep the few that fail; a failure prints its call log and the page's accessibility
    // tree either way. E2E_TRACE=true records and keeps the trace of each failed journey.
    trace: process.env['E2E_TRACE'] === 'true' ? 'retain-on-failure' : 'off',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        // The system Chromium; Playwright never downloads a browser here.
        launchOptions: {
          executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: {
    command: 'node scripts/start.ts',
    url: `http://localhost:${PORT}/readyz`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: 'localhost',
      DATA_DIR: dataDir,
      FONT_SEED: 'fixtures',
      // The fixture library lacks most fonts the content names; those warnings are expected here.
      LOG_LEVEL: 'error',
      DATABASE_URL: '',
      // Each test's browser names an address of its own in X-Forwarded-For (tests/helpers/e2e-test.ts).
      TRUST_PROXY: 'true',
      // Record numbers and channels as an operator sets them (the defaults show none).
      // The reviewer of the submission journey, the video journey's editor and the editor of the
      // custom-font journey are editors from registration on, and so is the editor who walks every
      // signed-in page (narrow.spec.ts).
      EDITOR_ACCOUNTS:
        'reviewer@example.com,video-editor@example.com,service-editor@example.com,route-walker@example.com,long-name-walker@example.com',
      SITE_ICP: '京ICP备20260001号-1',
      SITE_PSB: '京公网安备11010502000001号',
      CONTACT_EMAIL: 'hello@font-alliance.example',
      CONTACT_PHONE: '010-6000 0000',
      CONTACT_WECHAT: '造字联盟',
    },
  },
});
