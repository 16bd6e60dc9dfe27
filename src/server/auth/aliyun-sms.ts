import { createHmac, randomUUID } from 'node:crypto';
import type { MessageSender } from './messages.ts';

/** What the Aliyun SMS adapter needs (docs/accounts.md). */
export interface AliyunSmsConfig {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  /** A verification-code template whose only variable is `${code}`. */
  templateCode: string;
  /** https://dysmsapi.aliyuncs.com, or a test server. */
  endpoint: string;
}

/** Thrown when Aliyun refuses a message; the code is Aliyun's (e.g. 'isv.BUSINESS_LIMIT_CONTROL'). */
export class SmsProviderError extends Error {
  override name = 'SmsProviderError';
  readonly providerCode: string;

  constructor(providerCode: string, message: string) {
    super(message);
    this.providerCode = providerCode;
  }
}

/** Percent-encoding of Aliyun's RPC signature: RFC 3986, so also `!'()*`, and spaces as %20. */
export function aliyunPercentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The RPC (signature version 1.0) signature of a request: the parameters sorted by name,
 * encoded as a query string, prefixed with the method and '/', signed with HMAC-SHA1 under
 * `secret&`, in base64.
 */
export function aliyunSignature(params: Record<string, string>, secret: string, method = 'GET'): string {
  const canonical = Object.keys(params)
    .filter((key) => key !== 'Signature')
    .sort()
    .map((key) => `${aliyunPercentEncode(key)}=${aliyunPercentEncode(params[key] ?? '')}`)
    .join('&');
  const stringToSign = `${method}&${aliyunPercentEncode('/')}&${aliyunPercentEncode(canonical)}`;
  return createHmac('sha1', `${secret}&`).update(stringToSign, 'utf8').digest('base64');
}

/** The signed SendSms parameters for one verification code. */
export function sendSmsParams(
  config: AliyunSmsConfig,
  phone: string,
  code: string,
  now = new Date(),
  nonce: string = randomUUID(),
): Record<string, string> {
  const params: Record<string, string> = {
    AccessKeyId: config.accessKeyId,
    Action: 'SendSms',
    Format: 'JSON',
    PhoneNumbers: phone,
    RegionId: 'cn-hangzhou',
    SignName: config.signName,
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: nonce,
    SignatureVersion: '1.0',
    TemplateCode: config.templateCode,
    TemplateParam: JSON.stringify({ code }),
    Timestamp: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    Version: '2017-05-25',
  };
  params['Signature'] = aliyunSignature(params, config.accessKeySecret);
  return params;
}

/**
 * A sender that delivers SMS through Aliyun's SendSms API (dysmsapi, version 2017-05-25). The
 * template carries the code; the text of the message is the template's, approved at Aliyun.
 */
export function createAliyunSmsSender(config: AliyunSmsConfig, fetchImpl: typeof fetch = fetch): MessageSender {
  return {
    name: 'aliyun',
    async send(message) {
      // An SMS template carries a code and nothing else; site messages go by e-mail only.
      if (message.purpose === 'notice') throw new SmsProviderError('NOTICE', 'SMS carries one-time codes only');
      const params = sendSmsParams(config, message.to, message.code);
      const url = new URL(config.endpoint);
      for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
      const response = await fetchImpl(url, { signal: AbortSignal.timeout(10_000) });
      const body = (await response.json().catch(() => ({}))) as { Code?: string; Message?: string };
      if (!response.ok || body.Code !== 'OK') {
        throw new SmsProviderError(body.Code ?? `HTTP ${response.status}`, body.Message ?? 'SendSms failed');
      }
    },
  };
}
