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
  // Seeded rows (decision 0178): stored as `{{text:KEY}}` (textRef) and read in the reader's language.
  // The platform's device types and categories (migration 0290).
  'seed.category.can-logger.name': { zh: 'CAN 记录仪', en: 'CAN logger' },
  'seed.category.can-logger.description': { zh: 'CAN / CAN FD 数据记录仪', en: 'CAN / CAN FD data loggers' },
  'seed.category.iot.name': { zh: '物联网设备', en: 'IoT device' },
  'seed.category.iot.description': { zh: '发送 JSON 遥测数据的普通物联网设备', en: 'Plain IoT devices sending JSON telemetry' },
  'seed.type.candtu-100.description': { zh: 'CAN 记录仪，1 路通道', en: 'CAN logger, 1 channel' },
  'seed.type.candtu-200.description': { zh: 'CAN/CAN FD 记录仪，2 路通道', en: 'CAN/CAN FD logger, 2 channels' },
  'seed.type.candtu-400.description': { zh: 'CAN/CAN FD 记录仪，4 路通道', en: 'CAN/CAN FD logger, 4 channels' },
  'seed.type.candtu-800.description': { zh: 'CAN/CAN FD 记录仪，8 路通道', en: 'CAN/CAN FD logger, 8 channels' },
  'seed.type.iot.display': { zh: '物联网设备', en: 'IoT device' },
  'seed.type.iot.description': { zh: '发送 JSON 遥测数据的普通物联网设备', en: 'Plain IoT device sending JSON telemetry' },
  // The experience tenant's demo (experience/demo-seed.ts).
  'seed.demo.type.name': { zh: '演示 CAN 记录仪', en: 'Demo CAN logger' },
  'seed.demo.type.display': { zh: '演示 CAN 记录仪（2 路 CAN）', en: 'Demo CAN logger (2 CAN channels)' },
  'seed.demo.type.description': { zh: '带 GPS 的双通道 CAN 记录仪', en: 'A two-channel CAN logger with GPS' },
  'seed.demo.truck-1': { zh: '演示卡车 1', en: 'Demo truck 1' },
  'seed.demo.truck-2': { zh: '演示卡车 2', en: 'Demo truck 2' },
  'seed.demo.van-3': { zh: '演示货车 3', en: 'Demo van 3' },
  'seed.demo.device.description': { zh: '体验账号的演示车辆', en: 'Demo vehicle of the experience account' },
  'seed.demo.vehicle.description': { zh: '在浦东环线上行驶的混合动力卡车', en: 'Hybrid truck on the Pudong loop' },
  'seed.demo.label.shanghai': { zh: '上海', en: 'Shanghai' },
  'seed.demo.label.hybrid-truck': { zh: '混合动力卡车', en: 'Hybrid truck' },
  'seed.demo.label.delivery-van': { zh: '厢式货车', en: 'Delivery van' },
  'seed.demo.ch.powertrain': { zh: '动力总成 CAN', en: 'Powertrain CAN' },
  'seed.demo.ch.body': { zh: '车身 CAN', en: 'Body CAN' },
  'seed.demo.fence.name': { zh: '世纪公园', en: 'Century Park' },
  'seed.demo.fence.description': { zh: '演示车辆每圈都会经过这里', en: 'The demo vehicles pass through it on every lap' },
  'seed.demo.sig.speed': { zh: '车速', en: 'Vehicle speed' },
  'seed.demo.sig.rpm': { zh: '发动机转速', en: 'Engine speed' },
  'seed.demo.sig.current': { zh: '电池电流', en: 'Battery current' },
  'seed.demo.sig.soc': { zh: '电池 SOC', en: 'Battery SOC' },
  'seed.demo.sig.throttle': { zh: '油门', en: 'Throttle' },
  'seed.demo.sig.coolant': { zh: '冷却液温度', en: 'Coolant temperature' },
  'seed.demo.sig.drive': { zh: '车速与油门', en: 'Speed and throttle' },
  'seed.demo.rule.speed.name': { zh: '超速 > 100 km/h', en: 'Overspeed > 100 km/h' },
  'seed.demo.rule.speed.description': { zh: '车速超过 100 km/h', en: 'Vehicle speed above 100 km/h' },
  'seed.demo.rule.speed.alert': { zh: '中环上车速超过 100 km/h', en: 'Speed over 100 km/h on the Middle Ring' },
  'seed.demo.rule.soc.name': { zh: '电池 SOC < 25 %', en: 'Battery SOC < 25 %' },
  'seed.demo.rule.soc.description': { zh: '动力电池荷电状态低于 25 %', en: 'Traction battery state of charge below 25 %' },
  'seed.demo.rule.soc.alert': { zh: '电池 SOC 过低', en: 'Battery SOC low' },
  'seed.demo.rule.fence.name': { zh: '进入世纪公园', en: 'Entering Century Park' },
  'seed.demo.rule.fence.description': { zh: '货车进入世纪公园围栏', en: 'The van enters the Century Park fence' },
  'seed.demo.rule.fence.alert': { zh: '已进入世纪公园', en: 'Entered Century Park' },
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

/** A stored text that stands for a catalogue entry: seeded rows hold it instead of words (decision 0178). */
export function textRef(key: TextKey): string {
  return `{{text:${key}}}`;
}

/** `{{text:KEY}}` anywhere in a string (a stored value, or a JSON body that holds some). */
export const TEXT_REF_RE: RegExp = /\{\{text:([a-z0-9.-]+)\}\}/g;

/** Every text reference in `s` replaced by its text in `lang` (an unknown key stays as it is). */
export function resolveTextRefs(lang: TextLang, s: string): string {
  if (!s.includes('{{text:')) return s;
  return s.replace(TEXT_REF_RE, (m, key: string) => (key in SERVER_TEXTS ? serverText(lang, key as TextKey) : m));
}

/**
 * Units the server writes as they appear in DBC files (ASCII), and how a reader of each language
 * is shown them. A unit not listed here is shown as written (V, A, %, kPa, km/h…).
 */
export const UNIT_TEXTS = {
  degC: { zh: '℃', en: '°C' },
  degF: { zh: '℉', en: '°F' },
  deg: { zh: '度', en: '°' },
  rpm: { zh: '转/分', en: 'rpm' },
  'm/s2': { zh: 'm/s²', en: 'm/s²' },
  'L/h': { zh: '升/时', en: 'L/h' },
  'L/100km': { zh: '升/百公里', en: 'L/100 km' },
} as const satisfies Record<string, Record<TextLang, string>>;

/** A unit as a reader of `lang` is shown it. */
export function unitText(lang: TextLang, unit: string): string {
  return Object.hasOwn(UNIT_TEXTS, unit) ? UNIT_TEXTS[unit as keyof typeof UNIT_TEXTS][lang] : unit;
}
