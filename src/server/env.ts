import path from 'node:path';
import { z } from 'zod';

/**
 * The one reader of `process.env`. Every variable has a default that needs no outside server,
 * so a fresh clone runs with no configuration; docs/configuration.md lists them all.
 */
const schema = z.object({
  HOST: z.string().min(1).default('localhost'),
  PORT: z.coerce.number().int().min(1).max(65535).default(4321),
  SITE_URL: z.url().default('http://localhost:4321'),
  /** Where the browser calls the API when it is not this origin (built into the pages; the CSP allows it). */
  PUBLIC_API_BASE: z.url().optional(),
  SITE_TITLE: z.string().min(1).default('造字联盟官网'),
  // The footer's record numbers and the contact page's channels (docs/configuration.md).
  SITE_ICP: z
    .string()
    .regex(/^\p{Script=Han}ICP[备证]\d{6,10}号(-\d{1,3})?$/u, 'must read like 京ICP备12345678号 or 京ICP备12345678号-1')
    .optional(),
  SITE_PSB: z
    .string()
    .regex(/^\p{Script=Han}公网安备\d{14}号$/u, 'must read like 京公网安备11010502000001号')
    .optional(),
  CONTACT_EMAIL: z.email().optional(),
  CONTACT_PHONE: z
    .string()
    .regex(/^\+?[\d\- ]{5,20}$/, 'must be a phone number (digits, spaces, dashes, an optional +)')
    .optional(),
  CONTACT_WECHAT: z.string().max(40).optional(),
  CONTACT_ADDRESS: z.string().max(120).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('data'),
  /** Several processes behind one load balancer (docs/operations.md, "Running several nodes"): start-up checks what they must share. */
  MULTI_NODE: z.stringbool().default(false),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  // Shared storage for several servers (docs/operations.md, "Storage"); empty keeps the files under DATA_DIR.
  STORAGE_URL: z
    .string()
    .regex(
      /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/([A-Za-z0-9_-][A-Za-z0-9._-]*\/?)*)?$/,
      'must be empty (files under DATA_DIR) or s3://bucket or s3://bucket/folder',
    )
    .optional(),
  S3_ENDPOINT: z.url('must be the http(s):// address of the S3 service').optional(),
  // Where browsers reach the bucket when the nodes reach it at a private address (docs/operations.md).
  S3_PUBLIC_URL: z.url('must be the http(s):// address at which browsers reach the S3 service').optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/, 'must be a region name such as us-east-1, auto or oss-cn-hangzhou')
    .default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z.stringbool().default(false),
  /** The embedded database's buffer pool (PostgreSQL's shared_buffers), in MB; a PostgreSQL server keeps its own. */
  PGLITE_SHARED_BUFFERS_MB: z.coerce.number().int().min(1).max(4096).default(32),
  FONT_SEED: z.enum(['registry', 'fixtures', 'none']).default('registry'),
  NPM_REGISTRY: z.url().default('https://registry.npmjs.org'),
  // Families that only Debian ships (fonts-cwtex-fs), pinned by SHA-256 like the npm packages.
  DEBIAN_MIRROR: z.url().default('http://deb.debian.org/debian'),
  SUBSET_WORKERS: z.coerce.number().int().min(1).max(32).optional(),
  SUBSET_FACE_CACHE_MB: z.coerce.number().int().min(16).max(16_384).default(128),
  // Font tools (docs/tools.md).
  TOOLS_MAX_UPLOAD_MB: z.coerce.number().int().min(1).max(2048).default(50),
  TOOLS_TEMP_TTL_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
  TOOLS_WORKERS: z.coerce.number().int().min(1).max(16).optional(),
  // Videos (docs/videos.md): the largest file an editor may upload.
  VIDEO_MAX_UPLOAD_MB: z.coerce.number().int().min(1).max(4096).default(200),
  /** Whether this process runs queued tool jobs; web nodes beside `npm run worker` may set false. */
  TOOLS_RUN_JOBS: z.stringbool().default(true),
  /** Called (POST, JSON) with the cache keys and paths purged, for a CDN in front of the site. */
  CDN_PURGE_URL: z.url().optional(),
  /** Signs font download links; when unset a random secret is made once and kept in DATA_DIR. */
  DOWNLOAD_URL_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Signs the site's own presigned uploads (submissions); when unset a random secret is kept in DATA_DIR. */
  UPLOAD_URL_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  // Accounts (docs/accounts.md).
  /** Mobile numbers or e-mail addresses whose accounts are editors from registration on. */
  EDITOR_ACCOUNTS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim().toLowerCase())
        .filter(Boolean),
    ),
  SESSION_TTL_SECONDS: z.coerce.number().int().min(300).max(31_536_000).default(604_800),
  PUBLIC_COOKIE_DOMAIN: z.string().optional(),
  TRUST_PROXY: z.stringbool().default(false),
  CODE_DAILY_LIMIT_PER_TARGET: z.coerce.number().int().min(1).max(1000).default(10),
  CODE_DAILY_LIMIT_PER_IP: z.coerce.number().int().min(1).max(10_000).default(30),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().optional(),
  ALIYUN_SMS_ACCESS_KEY_ID: z.string().optional(),
  ALIYUN_SMS_ACCESS_KEY_SECRET: z.string().optional(),
  ALIYUN_SMS_SIGN_NAME: z.string().optional(),
  ALIYUN_SMS_TEMPLATE_CODE: z.string().optional(),
  ALIYUN_SMS_ENDPOINT: z.url().default('https://dysmsapi.aliyuncs.com'),
  WECHAT_APP_ID: z.string().optional(),
  WECHAT_APP_SECRET: z.string().optional(),
  WECHAT_OPEN_URL: z.url().default('https://open.weixin.qq.com'),
  WECHAT_API_URL: z.url().default('https://api.weixin.qq.com'),
});

// A half-configured provider would fail on the first message; say so at start-up instead.
const ALIYUN_SMS_VARIABLES = [
  'ALIYUN_SMS_ACCESS_KEY_ID',
  'ALIYUN_SMS_ACCESS_KEY_SECRET',
  'ALIYUN_SMS_SIGN_NAME',
  'ALIYUN_SMS_TEMPLATE_CODE',
] as const;
const WECHAT_VARIABLES = ['WECHAT_APP_ID', 'WECHAT_APP_SECRET'] as const;
const S3_KEY_VARIABLES = ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
// What every node must have alike: one database and one bucket (PGlite and DATA_DIR belong to one
// process), and the secret that signs download links, which is otherwise made per DATA_DIR, so a link
// signed on one node would be refused by the next. Uploads are signed with the bucket's keys then.
const MULTI_NODE_VARIABLES = {
  DATABASE_URL: 'every node must use the same PostgreSQL server (the embedded database serves one process)',
  STORAGE_URL: 'every node must keep files in the same S3 bucket (DATA_DIR belongs to one server)',
  DOWNLOAD_URL_SECRET: 'every node must sign download links with the same secret (else one is made per DATA_DIR)',
} as const;

function requireAllOrNone(group: readonly string[], values: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const given = group.filter((name) => values[name]);
  if (given.length === 0 || given.length === group.length) return;
  for (const name of group.filter((name) => !values[name])) {
    ctx.addIssue({ code: 'custom', path: [name], message: `must be set together with ${given.join(', ')}` });
  }
}

const checked = schema.superRefine((values, ctx) => {
  requireAllOrNone(ALIYUN_SMS_VARIABLES, values, ctx);
  requireAllOrNone(WECHAT_VARIABLES, values, ctx);
  requireAllOrNone(S3_KEY_VARIABLES, values, ctx);
  if (values.MULTI_NODE) {
    for (const [name, why] of Object.entries(MULTI_NODE_VARIABLES)) {
      if (!values[name as keyof typeof MULTI_NODE_VARIABLES]) {
        ctx.addIssue({ code: 'custom', path: [name], message: `must be set with MULTI_NODE=true: ${why}` });
      }
    }
  }
  // S3 settings without a bucket would be silently ignored, and the files kept on this one server.
  if (!values.STORAGE_URL) {
    for (const name of ['S3_ENDPOINT', 'S3_PUBLIC_URL', ...S3_KEY_VARIABLES] as const) {
      if (values[name])
        ctx.addIssue({ code: 'custom', path: [name], message: 'is only read with STORAGE_URL=s3://bucket' });
    }
  }
});

/** The names of every variable the site reads (docs/configuration.md and .env.example list them all). */
export const ENV_VARIABLES: readonly string[] = Object.keys(schema.shape);

export type Env = z.infer<typeof schema> & {
  /** Absolute path of DATA_DIR. */
  dataDir: string;
};

/** Thrown when a variable has a value the site cannot run with. */
export class EnvError extends Error {
  override name = 'EnvError';
}

/**
 * Parses a set of variables. A bad value throws an EnvError that names every offending variable,
 * so start-up stops with a message an operator can act on.
 */
export function parseEnv(source: NodeJS.ProcessEnv): Env {
  // An empty value means "use the default", so a copied .env.example works as it is.
  const given = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  // npm exports the registry it installs from; use the same one for the font packages.
  given['NPM_REGISTRY'] ??= given['npm_config_registry'];
  const result = checked.safeParse(given);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      // A secret is never printed: start-up messages end up in logs.
      const got = name.includes('SECRET') && source[name] ? '(hidden)' : JSON.stringify(source[name]);
      return `  ${issue.path.join('.')}: ${issue.message} (got ${got})`;
    });
    throw new EnvError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const parsed = result.data;
  return { ...parsed, dataDir: path.resolve(parsed.DATA_DIR) };
}

let cached: Env | undefined;

/** The process configuration, parsed once on first use. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Forgets the parsed configuration; tests call this after changing process.env. */
export function resetEnv(): void {
  cached = undefined;
}
