import AES from 'crypto-js/aes';
import Utf8 from 'crypto-js/enc-utf8';
import ECB from 'crypto-js/mode-ecb';
import Pkcs7 from 'crypto-js/pad-pkcs7';

/**
 * Encrypts a captcha answer the way AJ-Captcha's clients do: AES-ECB with PKCS#7 padding under the
 * puzzle's 16-character key, base64 out. The protocol fixes this; it only obscures the point.
 */
export function encryptCaptchaPoint(plain: string, secretKey: string): string {
  return AES.encrypt(Utf8.parse(plain), Utf8.parse(secretKey), { mode: ECB, padding: Pkcs7 }).toString();
}
