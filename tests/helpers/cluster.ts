import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabaseTarget, type TestDatabaseTarget } from './database.ts';
import { type S3Server, startS3Server } from './s3-server.ts';

// Several nodes of one site as docs/operations.md, "Running several nodes" deploys them: web nodes (`npm start`)
// that leave jobs to a worker (`npm run worker`), over one fresh PostgreSQL database (on the
// TEST_DATABASE_URL server) and one bucket of a local S3 server, each process with its own DATA_DIR.
// Runs the existing build.

/** One process of the cluster. */
export interface ClusterNode {
  name: string;
  child: ChildProcess;
  /** http://localhost:<port> for web nodes. */
  url: string;
  dataDir: string;
  output: () => string;
  exited: Promise<number | null>;
}

export interface Cluster {
  web: ClusterNode[];
  worker: ClusterNode;
  databaseUrl: string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `probe` until it answers something truthy, at most `timeoutMs`. */
export async function until<T>(
  probe: () => Promise<T | undefined | false>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** How to start a cluster. */
export interface ClusterOptions {
  webNodes: number;
  env?: Record<string, string>;
  /**
   * Starts every process at the same instant, as `docker compose up` does, instead of letting the
   * first web node migrate and seed before the others start.
   */
  together?: boolean;
}

/** Starts `webNodes` web nodes and one worker over a fresh database and bucket. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const database: TestDatabaseTarget = await createTestDatabaseTarget();
  const s3: S3Server = await startS3Server();
  const started: ClusterNode[] = [];
  const shared = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    FONT_SEED: 'fixtures',
    MULTI_NODE: 'true',
    DATABASE_URL: database.options.url ?? '',
    ...s3.env('site'),
    DOWNLOAD_URL_SECRET: 'cluster-download-secret-of-forty-characters',
    TOOLS_WORKERS: '1',
    ...options.env,
  };

  function launch(name: string, script: string, extra: Record<string, string>, ready: RegExp): Promise<ClusterNode> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `font-alliance-${name}-`));
    const child = spawn(process.execPath, [script], {
      env: { ...process.env, ...shared, DATA_DIR: dataDir, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const node: ClusterNode = {
      name,
      child,
      url: `http://localhost:${extra['PORT']}`,
      dataDir,
      output: () => text,
      exited,
    };
    started.push(node);
    return until(
      async () => {
        if (child.exitCode !== null) throw new Error(`${name} stopped:\n${text}`);
        return ready.test(text) && node;
      },
      240_000,
      `${name} to start`,
    );
  }
  const webNode = async (name: string) =>
    launch(name, 'scripts/start.ts', { PORT: String(await freePort()), TOOLS_RUN_JOBS: 'false' }, /is ready at/);

  const close = async () => {
    for (const node of started) node.child.kill('SIGKILL');
    await Promise.all(started.map((node) => node.exited));
    for (const node of started) fs.rmSync(node.dataDir, { recursive: true, force: true });
    await s3.close();
    await database.drop();
  };
  try {
    if (options.together) {
      const [worker, ...web] = await Promise.all([
        launch('worker', 'scripts/worker.ts', { PORT: '' }, /Tool job worker is running/),
        ...Array.from({ length: options.webNodes }, (_, i) => webNode(`node-${i + 1}`)),
      ]);
      if (!worker) throw new Error('no worker');
      return { web, worker, databaseUrl: shared.DATABASE_URL, close };
    }
    const first = await webNode('node-1');
    const [worker, ...others] = await Promise.all([
      launch('worker', 'scripts/worker.ts', { PORT: '' }, /Tool job worker is running/),
      ...Array.from({ length: options.webNodes - 1 }, (_, i) => webNode(`node-${i + 2}`)),
    ]);
    if (!worker) throw new Error('no worker');
    return { web: [first, ...others], worker, databaseUrl: shared.DATABASE_URL, close };
  } catch (error) {
    await close();
    throw error;
  }
}
