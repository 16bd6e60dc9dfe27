import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ENV_VARIABLES, EnvError, parseEnv } from '../../src/server/env.ts';

describe('parseEnv', () => {
  test('needs no variables at all: every default is an embedded setup', () => {
    const config = parseEnv({});
    expect(config.PORT).toBe(4321);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.dataDir).toBe(path.resolve('data'));
    expect(config.SITE_TITLE).toBe('造字联盟官网');
  });

  test.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['SITE_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['LOG_LEVEL', 'loud'],
    ['FONT_SEED', 'everything'],
    ['SITE_ICP', 'ICP 12345678'],
    ['SITE_PSB', '京公网安备123号'],
    ['CONTACT_EMAIL', 'not-an-address'],
    ['CONTACT_PHONE', 'call us'],
    ['STORAGE_URL', 'https://bucket.example.com'],
    ['STORAGE_URL', 's3://Bad_Bucket/x'],
    ['STORAGE_URL', 's3://bucket/../x'],
  ])('rejects %s=%s with a message that names the variable', (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(EnvError);
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `));
  });

  test('takes record numbers as they are written', () => {
    const config = parseEnv({ SITE_ICP: '京ICP备12345678号-1', SITE_PSB: '京公网安备11010502000001号' });
    expect([config.SITE_ICP, config.SITE_PSB]).toEqual(['京ICP备12345678号-1', '京公网安备11010502000001号']);
  });

  test('reads a bucket and its folder from STORAGE_URL, with the S3 settings', () => {
    const config = parseEnv({
      STORAGE_URL: 's3://fonts-1250000000/site',
      S3_ENDPOINT: 'https://cos.ap-guangzhou.myqcloud.com',
      S3_REGION: 'ap-guangzhou',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    });
    expect(config).toMatchObject({ STORAGE_URL: 's3://fonts-1250000000/site', S3_FORCE_PATH_STYLE: false });
  });

  test('refuses half an S3 key pair, and S3 settings without STORAGE_URL, never printing the secret', () => {
    expect(() => parseEnv({ STORAGE_URL: 's3://fonts', S3_ACCESS_KEY_ID: 'id' })).toThrow(
      /S3_SECRET_ACCESS_KEY: must be set together with S3_ACCESS_KEY_ID/,
    );
    const stray = () =>
      parseEnv({ S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'k3y' });
    expect(stray).toThrow(/S3_ENDPOINT: is only read with STORAGE_URL=s3:\/\/bucket/);
    expect(stray).toThrow(/S3_SECRET_ACCESS_KEY: is only read with STORAGE_URL=s3:\/\/bucket \(got \(hidden\)\)/);
    expect(stray).not.toThrow(/k3y/);
  });

  test('with MULTI_NODE=true refuses to start without the database, bucket and secret every node must share', () => {
    const refusal = () => parseEnv({ MULTI_NODE: 'true', STORAGE_URL: 's3://fonts' });
    expect(refusal).toThrow(EnvError);
    expect(refusal).toThrow(/DATABASE_URL: must be set with MULTI_NODE=true: every node must use the same PostgreSQL/);
    expect(refusal).toThrow(
      /DOWNLOAD_URL_SECRET: must be set with MULTI_NODE=true: every node must sign download links/,
    );
    expect(refusal).not.toThrow(/STORAGE_URL/);
    expect(() => parseEnv({ MULTI_NODE: 'true' })).toThrow(/STORAGE_URL: must be set with MULTI_NODE=true/);
    const shared = {
      MULTI_NODE: 'true',
      DATABASE_URL: 'postgres://db.internal/site',
      STORAGE_URL: 's3://fonts',
      DOWNLOAD_URL_SECRET: 'x'.repeat(32),
    };
    expect(parseEnv(shared).MULTI_NODE).toBe(true);
    // One process on its own needs none of them.
    expect(parseEnv({}).MULTI_NODE).toBe(false);
  });

  test('treats an empty DATABASE_URL as unset, so .env.example works as it is', () => {
    expect(parseEnv({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });

  test('takes the npm registry npm itself uses when NPM_REGISTRY is not set', () => {
    expect(parseEnv({ npm_config_registry: 'https://registry.example.com/' }).NPM_REGISTRY).toBe(
      'https://registry.example.com/',
    );
  });
});

describe('the documentation of the configuration', () => {
  test('.env.example and docs/configuration.md name every variable the site reads', () => {
    const example = [...fs.readFileSync('.env.example', 'utf8').matchAll(/^([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    const table = fs.readFileSync('docs/configuration.md', 'utf8');
    const documented = [...table.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]);
    for (const name of ENV_VARIABLES) {
      expect(example, name).toContain(name);
      expect(documented, name).toContain(name);
    }
    // Beyond the server's variables, only PUBLIC_ ones, which the browser build reads.
    for (const name of example) {
      if (!ENV_VARIABLES.includes(name ?? '')) expect(name).toMatch(/^PUBLIC_/);
      expect(documented, name).toContain(name);
    }
  });
});
