import { Hono } from 'hono';
import { z } from 'zod';
import { type AccountResolver, clientIp, requireAccount, sessionAccount, signedIn } from '../auth/current-account.ts';
import { contentDisposition } from '../fonts/download-routes.ts';
import { badRequest, ok } from '../http/envelope.ts';
import { contactAddress, validate } from '../http/validate.ts';
import { signAgreement, signedPdf, signingState } from './service.ts';

const PNG_DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/;

const signBody = z.object({
  version: z.string().trim().min(1).max(20).meta({ label: '协议版本' }),
  legalName: z.string().trim().min(2, '请填写真实姓名或工作室名称').max(40).meta({ label: '姓名或名称' }),
  creditName: z.string().trim().min(1, '请填写署名').max(40).meta({ label: '署名' }),
  contact: contactAddress,
  address: z.string().trim().max(120, '地址最多 120 个字').default('').meta({ label: '地址' }),
  signature: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('typed') }),
      z.object({ kind: z.literal('drawn'), image: z.string().max(700_000, '签名图片过大，请重新书写') }),
    ])
    .meta({ label: '签名' }),
  agree: z.literal(true, '请先阅读并勾选同意协议').meta({ label: '同意协议' }),
});
const pdfQuery = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647).meta({ label: '签约编号' }) });

/**
 * The contributor agreement (签约), mounted at /web/api: GET signing (the text and the account's
 * signature), POST signing (sign: details, a drawn or typed signature, consent) and
 * GET signing/pdf?id (the signed PDF, to its owner only). Every call needs a login.
 */
export function signingRoutes(options: { account?: AccountResolver } = {}): Hono {
  const resolve = options.account ?? sessionAccount;
  const routes = new Hono();
  routes.get('/signing', async (c) => c.json(ok(await signingState(await requireAccount(resolve, c)))));
  routes.post('/signing', signedIn(resolve), validate('json', signBody), async (c) => {
    const accountId = await requireAccount(resolve, c);
    const { signature, agree: _agree, ...fields } = c.req.valid('json');
    let drawn: Uint8Array | undefined;
    if (signature.kind === 'drawn') {
      const match = PNG_DATA_URL.exec(signature.image);
      if (!match?.[1]) throw badRequest('签名图片格式不正确，请重新书写签名');
      drawn = new Uint8Array(Buffer.from(match[1], 'base64'));
    }
    const signed = await signAgreement(
      accountId,
      { ...fields, signature: drawn ? { kind: 'drawn', png: drawn } : { kind: 'typed' } },
      { ip: clientIp(c), userAgent: c.req.header('user-agent') ?? null },
    );
    return c.json(ok(signed, '签署成功，协议 PDF 已生成'));
  });
  routes.get('/signing/pdf', validate('query', pdfQuery), async (c) => {
    const { bytes, fileName } = await signedPdf(await requireAccount(resolve, c), c.req.valid('query').id);
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': 'application/pdf',
      'Content-Length': String(bytes.byteLength),
      'Content-Disposition': contentDisposition(fileName, 'agreement.pdf'),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    });
  });
  return routes;
}
