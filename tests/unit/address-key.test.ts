import { describe, expect, it } from 'vitest';
import { addressKey } from '../../src/server/http/address-key.ts';

describe('addressKey', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:cb00:7107', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['[2001:db8:1:2::1]', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['64:ff9b::192.0.2.33', '64:ff9b:0:0::/64'],
    ['unknown', 'unknown'],
    ['', ''],
  ])('counts %j as %j', (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });

  it('puts every address of one /64 under one key and the next /64 under another', () => {
    const keys = new Set(['2001:db8:a:b::1', '2001:db8:a:b:ffff::2', '2001:db8:a:b:1:2:3:4'].map(addressKey));
    expect(keys).toEqual(new Set(['2001:db8:a:b::/64']));
    expect(addressKey('2001:db8:a:c::1')).not.toBe(addressKey('2001:db8:a:b::1'));
  });
});
