import { describe, expect, it, test } from 'vitest';
import {
  isNonPagePath,
  isValidRouteId,
  loginRedirectUrl,
  NON_PAGE_PREFIXES,
  normalizeLeadingSlashes,
  requiresLogin,
  safeRedirectPath,
  stripHtmlSuffix,
} from '../../src/lib/routes.ts';

describe('stripHtmlSuffix', () => {
  it.each([
    ['/help.html', '/help'],
    ['/agreement/font.html', '/agreement/font'],
    ['/news/12.html', '/news/12'],
    ['/index.html', '/'],
    ['/news/index.html', '/news'],
    ['//evil.com.html', '/evil.com'],
    ['/\\evil.com.html', '/evil.com'],
    ['/help', null],
    ['/', null],
    ['/.html', null],
    ['/help.htm', null],
  ])('maps %j to %j', (path, expected) => {
    expect(stripHtmlSuffix(path)).toBe(expected);
  });
});

describe('requiresLogin', () => {
  it.each([
    ['/user/overview', true],
    ['/user/message/3', true],
    ['/user/overview.html', true],
    ['/user', true],
    ['/user/compare', false], // the compare list lives in the browser
    ['/user/compare.html', false],
    ['/font', false],
    ['/', false],
    ['/web/api/account/user-info', false], // API prefix
    ['/api/v1/web/notify', false],
    ['/_astro/user.B1.js', false], // an asset
    ['/user/avatar.png', false],
  ])('returns %j → %j', (path, expected) => {
    expect(requiresLogin(path)).toBe(expected);
  });
});

describe('safeRedirectPath', () => {
  it.each([
    ['/user/overview', '/user/overview'],
    ['/user/message/3?tab=all#top', '/user/message/3?tab=all#top'],
    ['/', '/'],
    ['//evil.com', null],
    ['//evil.com/user', null],
    ['/\\evil.com', null],
    ['https://evil.com', null],
    ['javascript:alert(1)', null],
    ['user/overview', null],
    ['/\t/evil.com', null],
    [' /user', null],
    ['', null],
    [null, null],
    // Judged after normalisation: dot segments and backslashes that resolve to another host.
    ['/.//evil.example/phish', null],
    ['/..//evil.example', null],
    ['/%2e//evil.example', null],
    ['/%2E%2E//evil.example', null],
    ['/a/..//evil.example', null],
    ['/./\\evil.example', null],
    ['/.\\/evil.example', null],
    ['\\\\evil.example', null],
    ['\\evil.example', null],
    ['/\\evil.example/x', null],
    ['/\t/evil.example', null],
    ['/\n/evil.example', null],
    ['/user\n', null],
    ['/\r\n//evil.example', null],
    ['//evil.example', null],
    ['///evil.example', null],
    ['http://evil.example/', null],
    ['https:evil.example', null],
    ['HTTP://evil.example', null],
    ['data:text/html,x', null],
    // Paths on this site come back normalised.
    ['/./user/overview', '/user/overview'],
    ['/news/../font', '/font'],
    ['/%2e/font', '/font'],
    ['/font?q=//evil.example', '/font?q=//evil.example'],
  ])('returns %j → %j', (value, expected) => {
    expect(safeRedirectPath(value)).toBe(expected);
  });
});

describe('loginRedirectUrl', () => {
  test('puts the requested path and query into the redirect parameter', () => {
    expect(loginRedirectUrl('/user/overview?tab=1')).toBe('/?redirect=%2Fuser%2Foverview%3Ftab%3D1');
  });

  test('collapses leading slashes so the target stays on this site', () => {
    const url = loginRedirectUrl('//evil.com/user');
    expect(url).toBe('/?redirect=%2Fevil.com%2Fuser');
    expect(new URL(url, 'http://site.test').origin).toBe('http://site.test');
  });

  test('sends the home page itself without a redirect', () => {
    expect(loginRedirectUrl('/')).toBe('/');
  });
});

describe('normalizeLeadingSlashes', () => {
  test('keeps one leading slash', () => {
    expect(normalizeLeadingSlashes('///a//b')).toBe('/a//b');
    expect(normalizeLeadingSlashes('/a')).toBe('/a');
  });
});

describe('isNonPagePath', () => {
  test('covers every API prefix the server mounts', async () => {
    const { API_PREFIXES } = await import('../../src/server/app.ts');
    for (const prefix of API_PREFIXES) {
      expect(NON_PAGE_PREFIXES).toContain(prefix);
      expect(isNonPagePath(`${prefix}/anything`)).toBe(true);
    }
  });

  test('matches whole path segments only', () => {
    expect(isNonPagePath('/files/a.ttf')).toBe(true);
    expect(isNonPagePath('/filesystem')).toBe(false);
    expect(isNonPagePath('/tools/converter')).toBe(false);
  });
});

describe('isValidRouteId', () => {
  it.each([
    ['12', 'numeric', true],
    ['0', 'numeric', false],
    ['012', 'numeric', false],
    ['12a', 'numeric', false],
    ['', 'numeric', false],
    ['noto-sans-sc', 'slug', true],
    ['noto_sans_sc-400', 'slug', true],
    ['-leading', 'slug', false],
    ['has space', 'slug', false],
    ['a'.repeat(101), 'slug', false],
  ] as const)('returns %j (%s) → %j', (id, kind, expected) => {
    expect(isValidRouteId(id, kind)).toBe(expected);
  });
});
