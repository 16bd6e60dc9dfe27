import { siteSecret } from '../auth/secrets.ts';
import { env } from '../env.ts';
import type { SigningCredentials } from './presign.ts';

/** The key pair the site's own storage signs and checks its presigned uploads with. */
export function localUploadCredentials(): SigningCredentials {
  return {
    accessKeyId: 'site',
    secretAccessKey: siteSecret('upload-url', env().UPLOAD_URL_SECRET).toString('base64url'),
    region: 'local',
  };
}
