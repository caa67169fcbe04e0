/**
 * Texts the server writes for a person — verification codes, account approvals, work-order
 * messages — in both console languages. The recipient's language decides which one is sent
 * (a tenant's `systemLanguage`, zh by default; a visitor's `Accept-Language`); in-app messages
 * keep both and the inbox answers in the reader's. Placeholders are `{{name}}`, as in the
 * console's catalogues; a test checks that every key has both languages with the same ones.
 */
export const TEXT_LANGS = ['zh', 'en'] as const;
export type TextLang = (typeof TEXT_LANGS)[number];

export const SERVER_TEXTS = {
  'code.purpose.register': { zh: '注册', en: 'registration' },
  'code.purpose.modify': { zh: '账号变更', en: 'account change' },
  'code.purpose.login': { zh: '登录', en: 'login' },
  'code.subject': { zh: '{{brand}} {{purpose}}验证码', en: '{{brand}} {{purpose}} code' },
  'code.text': {
    zh: '您的{{brand}}{{purpose}}验证码为 {{code}}，{{minutes}} 分钟内有效，请勿泄露给他人。',
    en: 'Your {{brand}} {{purpose}} code is {{code}}. It is valid for {{minutes}} minutes. Do not share it.',
  },
  'audit.pass.subject': { zh: '{{brand}} 账号已通过审核', en: '{{brand}} account approved' },
  'audit.pass.text': {
    zh: '您的{{brand}}账号 {{name}} 已通过审核，现在可以登录。',
    en: 'Your {{brand}} account {{name}} has been approved. You can log in now.',
  },
  'audit.reject.subject': { zh: '{{brand}} 账号未通过审核', en: '{{brand}} account not approved' },
  'audit.reject.text': {
    zh: '您的{{brand}}账号 {{name}} 未通过审核。{{reason}}详情请联系我们。',
    en: 'Your {{brand}} account {{name}} was not approved. {{reason}}Please contact us for details.',
  },
  'audit.reject.reason': { zh: '原因：{{remark}}。', en: 'Reason: {{remark}}. ' },
  'workorder.status.pending': { zh: '待处理', en: 'pending' },
  'workorder.status.process': { zh: '处理中', en: 'in process' },
  'workorder.status.wait': { zh: '待您确认', en: 'waiting for your confirmation' },
  'workorder.status.done': { zh: '已完成', en: 'done' },
  'workorder.status.abandon': { zh: '已放弃', en: 'abandoned' },
  'workorder.status.refuse': { zh: '已拒绝', en: 'refused' },
  'workorder.changed.title': { zh: '工单 {{identifier}} {{status}}', en: 'Work order {{identifier}} is {{status}}' },
  'workorder.new.title': { zh: '新工单 {{identifier}}', en: 'New work order {{identifier}}' },
  'workorder.replied.title': { zh: '工单 {{identifier}}：{{by}} 回复', en: 'Work order {{identifier}}: reply from {{by}}' },
} as const satisfies Record<string, Record<TextLang, string>>;

export type TextKey = keyof typeof SERVER_TEXTS;
export type TextParams = Record<string, string | number>;

/** The console language a preference or an `Accept-Language` header asks for first ("zh-CN,en;q=0.8" → zh); null when neither. */
export function askedLang(v: string | null | undefined): TextLang | null {
  for (const part of (v ?? '').split(',')) {
    const tag = part.trim().split(';')[0].toLowerCase();
    if (tag.startsWith('zh')) return 'zh';
    if (tag.startsWith('en')) return 'en';
  }
  return null;
}

/** The language to write in for a preference or header: the one asked for, else zh (the spec's default). */
export function textLang(v: string | null | undefined): TextLang {
  return askedLang(v) ?? 'zh';
}

/** One text in one language, its placeholders filled (an unknown placeholder stays visible). */
export function serverText(lang: TextLang, key: TextKey, params: TextParams = {}): string {
  return SERVER_TEXTS[key][lang].replace(/\{\{(\w+)\}\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

/** The same text in both languages (for in-app messages, which answer in the reader's). */
export function serverTexts(key: TextKey, params: TextParams = {}): Record<TextLang, string> {
  return { zh: serverText('zh', key, params), en: serverText('en', key, params) };
}
