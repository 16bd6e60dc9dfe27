import { describe, expect, test } from 'vitest';
import { aliyunPercentEncode, aliyunSignature, sendSmsParams } from '../../src/server/auth/aliyun-sms.ts';

describe('aliyunSignature', () => {
  test('matches the SendSms example of the Aliyun documentation', () => {
    const params = {
      AccessKeyId: 'testId',
      Action: 'SendSms',
      Format: 'XML',
      OutId: '123',
      PhoneNumbers: '15300000001',
      RegionId: 'cn-hangzhou',
      SignName: '阿里云短信测试专用',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: '45e25e9b-0a6f-4070-8c85-2956eda1b466',
      SignatureVersion: '1.0',
      TemplateCode: 'SMS_71390007',
      TemplateParam: '{"customer":"test"}',
      Timestamp: '2017-07-12T02:42:19Z',
      Version: '2017-05-25',
    };
    expect(aliyunSignature(params, 'testSecret')).toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=');
    // A Signature already present is not part of what is signed.
    expect(aliyunSignature({ ...params, Signature: 'old' }, 'testSecret')).toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=');
  });

  test('matches the RPC signature example (DescribeRegions)', () => {
    const params = {
      Format: 'XML',
      AccessKeyId: 'testid',
      Action: 'DescribeRegions',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf',
      SignatureVersion: '1.0',
      Version: '2014-05-26',
      Timestamp: '2016-02-23T12:46:24Z',
    };
    expect(aliyunSignature(params, 'testsecret')).toBe('OLeaidS1JvxuMvnyHOwuJ+uX5qY=');
  });
});

describe('aliyunPercentEncode', () => {
  test.each([
    ['a b', 'a%20b'],
    ['*', '%2A'],
    ['~-_.', '~-_.'],
    ['/=&+', '%2F%3D%26%2B'],
    ["!'()", '%21%27%28%29'],
    ['派', '%E6%B4%BE'],
  ])('encodes %j as %j', (input, output) => {
    expect(aliyunPercentEncode(input)).toBe(output);
  });
});

describe('sendSmsParams', () => {
  test('fills the SendSms parameters, the code as template parameter, and signs them', () => {
    const params = sendSmsParams(
      {
        accessKeyId: 'id',
        accessKeySecret: 'secret',
        signName: '造字联盟',
        templateCode: 'SMS_1',
        endpoint: 'https://dysmsapi.aliyuncs.com',
      },
      '13800138000',
      '042137',
      new Date('2026-03-01T08:09:10.123Z'),
      'nonce-1',
    );
    expect(params).toMatchObject({
      Action: 'SendSms',
      PhoneNumbers: '13800138000',
      TemplateParam: '{"code":"042137"}',
      Timestamp: '2026-03-01T08:09:10Z',
      SignatureNonce: 'nonce-1',
    });
    const { Signature, ...rest } = params;
    expect(Signature).toBe(aliyunSignature(rest, 'secret'));
  });
});
