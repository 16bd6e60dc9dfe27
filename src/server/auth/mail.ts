import nodemailer from 'nodemailer';
import type { MessageSender } from './messages.ts';

/**
 * A sender that delivers e-mail through the SMTP server of `smtpUrl` (smtp:// or smtps://, with
 * user and password in the URL when the server needs them).
 */
export function createSmtpSender(options: { smtpUrl: string; from: string }): MessageSender {
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    name: 'smtp',
    async send(message) {
      await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
    },
  };
}

/** The default sender address: no-reply at the site's host name. */
export function defaultMailFrom(siteTitle: string, siteUrl: string): string {
  return `"${siteTitle.replace(/"/g, '')}" <no-reply@${new URL(siteUrl).hostname}>`;
}
