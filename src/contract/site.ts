// The site's record numbers and contact channels (GET /web/api/site/contact), shared by the server
// (src/server/site) and the footer and contact page.

/** What the site's operator set; a channel left unset is absent. */
export interface SiteContact {
  /** ICP record number (ICP 备案号), shown in the footer and linked to the MIIT register. */
  icp?: string;
  /** Public-security record number (公安备案号), linked to its record page. */
  psb?: string;
  psbUrl?: string;
  email?: string;
  phone?: string;
  /** The WeChat official account's name. */
  wechat?: string;
  address?: string;
}

/** The MIIT register, where an ICP record number is looked up. */
export const ICP_REGISTER_URL = 'https://beian.miit.gov.cn/';
