// The site's sections and pages: labels for the navigation, titles and the one-line purpose each
// page states under its heading. Route folders keep SPEC's pinyin names: baike 百科 (encyclopedia),
// heji 合集 (collections), zixun 咨询 (consulting), tougao 投稿 (submissions).

/** A link in the header, the drawer or a sub-navigation. */
export interface NavItem {
  href: string;
  label: string;
  /** One sentence saying what the page is for. */
  description: string;
  children?: NavItem[];
}

/** The five tools (SPEC §1), in the order the menu lists them. */
export const TOOLS: NavItem[] = [
  {
    href: '/tools/converter',
    label: '字体格式转换',
    description: '在 TTF、OTF、WOFF、WOFF2、EOT 等格式之间转换字体文件。',
  },
  {
    href: '/tools/subset',
    label: '网页字体子集',
    description: '只保留网页用到的文字，生成体积小巧的网页字体和 @font-face 代码。',
  },
  {
    href: '/tools/pixel',
    label: '像素字体制作',
    description: '把任意一款字体变成 12、16、24 像素的中文点阵字体，可以逐格修字，导出 TTF、WOFF 和 WOFF2。',
  },
  {
    href: '/tools/wordcloud',
    label: '词云图生成',
    description: '粘贴一段中文，按词频排进心形、祥云或任意一个字的形状里，用字体库的字体导出 PNG 和可编辑的 SVG。',
  },
  {
    href: '/tools/unidentifiedBody',
    label: '字体识别',
    description: '上传一张带文字的图片，在字体库里查找字形相近的字体。',
  },
];

/** The header navigation, in order. */
export const MAIN_NAV: NavItem[] = [
  { href: '/', label: '首页', description: '造字联盟官网首页。' },
  { href: '/font', label: '字体库', description: '浏览联盟收录的中日文字体，按风格、字重和授权筛选，在线预览与下载。' },
  { href: '/album', label: '专辑', description: '按风格和主题整理的字体专辑：读一篇导语，认识一组气质相近的字体。' },
  {
    href: '/heji',
    label: '合集',
    description: '为一种用途配好的字体组合：标题、正文、点缀各有分工，可以整包下载，直接用进项目。',
  },
  { href: '/news', label: '资讯', description: '字体行业动态、新字体发布与联盟活动的报道。' },
  { href: '/baike', label: '书法百科', description: '按书体和碑帖整理的书法知识：楷、行、草、隶、篆与历代书家。' },
  { href: '/zixun', label: '字体咨询', description: '选字、授权、排版与字体制作中的常见问题，由设计师和编辑解答。' },
  { href: '/case', label: '案例', description: '联盟字体在品牌、出版、影视和界面设计中的真实使用案例。' },
  {
    href: '/tools',
    label: '工具',
    description: '字体格式转换、网页字体子集、像素字体、词云图和字体识别工具。',
    children: TOOLS,
  },
  { href: '/tougao', label: '投稿', description: '设计师投稿字体作品，经审核后收录进字体库。' },
];

/** Videos (视频): a reading section beside news and consulting, not in the header. */
export const VIDEO_NAV: NavItem = {
  href: '/video',
  label: '视频',
  description: '联盟自制的字体与书写短片：一笔一画看字怎样写成，配有中文字幕。',
};

/**
 * The font-creation service (字体定制; dingzhi 定制 "made to order"): brand, handwriting and
 * ancient-book fonts made for a client. Linked from the home page, the footer and the contact page.
 */
export const CUSTOM_FONT_SERVICE: NavItem = {
  href: '/dingzhi',
  label: '字体定制',
  description: '为品牌、个人手迹和古籍整理定制字体：从需求沟通、报价、设计稿到全字库交付。',
};

/** The user centre's pages (all behind the login guard). */
export const USER_NAV: NavItem[] = [
  { href: '/user/overview', label: '账户概览', description: '你的收藏、下载、投稿和消息一览。' },
  { href: '/user/profile', label: '个人资料', description: '修改头像、昵称，绑定或更换手机号、邮箱和微信，修改密码。' },
  { href: '/user/favorite', label: '我的收藏', description: '收藏的字体、专辑和文章，以及你建立的字体收藏夹。' },
  { href: '/user/download', label: '下载记录', description: '下载过的字体文件，可随时再次下载。' },
  { href: '/user/compare', label: '字体对比', description: '把几款字体放在一起，用同一段文字、字号和字重对比。' },
  { href: '/user/message', label: '消息通知', description: '系统通知、审核进度、留言回复和站内公告。' },
  { href: '/user/submission', label: '我的投稿', description: '投稿作品的审核进度、审核意见和修改记录。' },
  { href: '/user/submit', label: '提交作品', description: '填写字体信息、上传字体文件和样张，提交审核。' },
  {
    href: '/user/dingzhi',
    label: '我的定制',
    description: '你提交的字体定制需求，每一步的进展、报价和联盟的说明。',
  },
  {
    href: '/user/signing',
    label: '设计师签约',
    description: '阅读并在线签署投稿协议，签署的 PDF 可随时下载。上传最终字体文件前需要签约。',
  },
  {
    href: '/user/contact',
    label: '联系客服',
    description: '你给联盟的留言和我们的回复；有新回复时，消息通知里会提醒你。',
  },
];

/** Links in the footer's help column. */
export const FOOTER_LINKS: NavItem[] = [
  CUSTOM_FONT_SERVICE,
  { href: '/help', label: '帮助中心', description: '' },
  { href: '/license', label: '字体授权说明', description: '' },
  { href: '/freetype', label: '免费商用字体', description: '' },
  { href: '/agreement/font', label: '字体使用协议', description: '' },
  { href: '/agreement/register', label: '用户注册协议', description: '' },
  { href: '/Agent', label: '代理合作', description: '' },
  { href: '/contact', label: '联系我们', description: '' },
  { href: '/api', label: 'API 参考', description: '' },
];

/** The navigation entry for a path, searched through the main, tool and user lists. */
export function findNavItem(href: string): NavItem | undefined {
  return [...MAIN_NAV, VIDEO_NAV, ...TOOLS, ...USER_NAV, CUSTOM_FONT_SERVICE].find((item) => item.href === href);
}

/** True when the header item `href` is the current section for `pathname`. */
export function isCurrentSection(href: string, pathname: string): boolean {
  if (href === '/') return pathname === '/';
  return pathname === href || pathname.startsWith(`${href}/`);
}

/** The navigation entry for a path; a missing entry is a programming error. */
export function navItem(href: string): NavItem {
  const item = findNavItem(href);
  if (!item) throw new Error(`No navigation entry for ${href}`);
  return item;
}

/** The font pages shown side by side in their sub-navigation. */
export const FONT_SECTIONS: NavItem[] = ['/font', '/album', '/heji'].map(navItem);

/** The reading pages shown side by side in their sub-navigation. */
export const READING_SECTIONS: NavItem[] = ['/news', '/zixun', '/baike', '/video', '/case'].map(navItem);

/**
 * The font library filtered to fonts that are free for commercial use (its `commercialFree`
 * filter); /freetype and the licence page link here.
 */
export const FREE_COMMERCIAL_FONTS_HREF = '/font?commercialFree=true';
