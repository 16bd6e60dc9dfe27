import { createHash } from 'node:crypto';

/** One section of the agreement. */
export interface AgreementSection {
  heading: string;
  paragraphs: string[];
}

/**
 * The contributor agreement (投稿协议) designers sign before their final font upload. A change of
 * wording is a new version: those who signed an older one are asked to sign again, and each
 * signature keeps the SHA-256 of the exact text it agreed to.
 */
export const AGREEMENT = {
  version: '2026.1',
  title: '造字联盟字体投稿协议',
  sections: [
    {
      heading: '一、协议双方',
      paragraphs: [
        '甲方（投稿人）：在本站在线签署本协议的字体设计师或设计工作室。',
        '乙方：造字联盟（以下简称“联盟”），本站的运营方。',
      ],
    },
    {
      heading: '二、投稿作品',
      paragraphs: [
        '本协议所称“作品”，是指投稿人通过本站“投稿”提交的字体文件、样张图片及说明文字。作品在审核通过并上架之前，投稿人可以随时撤回。',
      ],
    },
    {
      heading: '三、原创与权利保证',
      paragraphs: [
        '投稿人保证作品系本人（或本工作室）原创，或已取得全部必要授权；作品的字形与名称不侵犯他人的著作权、商标权或其他合法权益。',
        '作品如基于开源字体修改，投稿人应遵守原字体的许可（例如 SIL 开放字体许可证 1.1 版），并在作品说明中注明来源。',
      ],
    },
    {
      heading: '四、授权方式',
      paragraphs: [
        '投稿人可为每件作品选择以下授权方式之一：（一）免费商用，按 SIL 开放字体许可证 1.1 版或投稿时选定的同等许可发布；（二）个人免费、商用需授权，联盟展示并分发个人使用版本，商用授权由投稿人自行洽谈。',
        '投稿人授予联盟非独占、免费的权利：在本站及联盟的宣传渠道展示、预览和分发作品，并为网页字体服务制作子集与格式转换文件。',
      ],
    },
    {
      heading: '五、署名',
      paragraphs: ['联盟在作品页面以投稿人填写的署名标明作者；未经投稿人同意，联盟不修改署名。'],
    },
    {
      heading: '六、审核与上架',
      paragraphs: [
        '联盟依据投稿须知审核作品的完整性、字符覆盖和技术质量，可以要求投稿人修改；审核进度和结果通过站内消息通知投稿人。',
        '联盟可以拒绝不符合要求的作品，并说明理由。',
      ],
    },
    {
      heading: '七、下架与撤回',
      paragraphs: [
        '投稿人可随时通过站内留言要求下架作品，联盟在收到要求后 15 个工作日内完成下架。已按开源许可分发的副本，其许可依法继续有效。',
      ],
    },
    {
      heading: '八、报酬',
      paragraphs: ['本协议不约定稿酬或分成。双方就某件作品另有商业合作的，另行签订书面协议。'],
    },
    {
      heading: '九、个人信息',
      paragraphs: [
        '联盟仅为履行本协议保存投稿人填写的姓名、署名、联系方式和地址，以及签署时间与 IP 地址，不向第三方提供，法律另有规定的除外。',
      ],
    },
    {
      heading: '十、生效与变更',
      paragraphs: [
        '本协议自投稿人在线签署之时生效。联盟修订本协议时发布新版本并通知投稿人；新版本自投稿人重新签署后适用于其此后的投稿。',
        '本协议适用中华人民共和国法律。',
      ],
    },
  ] satisfies AgreementSection[],
} as const;

/** The agreement as plain text, the form its fingerprint is taken of. */
export function agreementText(): string {
  return [AGREEMENT.title, ...AGREEMENT.sections.flatMap((section) => [section.heading, ...section.paragraphs])].join(
    '\n',
  );
}

/** The SHA-256 (hex) of the current agreement's text. */
export const AGREEMENT_SHA256 = createHash('sha256').update(agreementText()).digest('hex');
