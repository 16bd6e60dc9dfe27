import type { SiteContact } from '../../contract/site.ts';
import { env } from '../env.ts';

/** The record numbers and contact channels the operator configured (docs/configuration.md). */
export function siteContact(): SiteContact {
  const config = env();
  const contact: SiteContact = {};
  if (config.SITE_ICP) contact.icp = config.SITE_ICP;
  if (config.SITE_PSB) {
    contact.psb = config.SITE_PSB;
    // The record page is found by the number's digits.
    const code = config.SITE_PSB.replace(/\D/g, '');
    contact.psbUrl = `https://beian.mps.gov.cn/#/query/webSearch?code=${code}`;
  }
  if (config.CONTACT_EMAIL) contact.email = config.CONTACT_EMAIL;
  if (config.CONTACT_PHONE) contact.phone = config.CONTACT_PHONE;
  if (config.CONTACT_WECHAT) contact.wechat = config.CONTACT_WECHAT;
  if (config.CONTACT_ADDRESS) contact.address = config.CONTACT_ADDRESS;
  return contact;
}
