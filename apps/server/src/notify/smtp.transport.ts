import nodemailer from 'nodemailer';
import type { Transport } from './notifier.ts';

/** E-mail over SMTP (`SMTP_URL`, e.g. smtp://user:pass@host:587 or smtps://…:465). */
export function smtpTransport(smtpUrl: string, from: string): Transport {
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    async send(msg) {
      await transporter.sendMail({ from, to: msg.destination, subject: msg.subject ?? 'Loggerhead', text: msg.text });
    },
    close() {
      transporter.close();
    },
  };
}
