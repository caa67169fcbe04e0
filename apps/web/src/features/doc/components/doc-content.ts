/**
 * The help pages as data: every text is a message key (zh and en in ../i18n.ts); code samples
 * and wire names are the same in every language and stay literal.
 */
export type Block =
  | { p: string }
  | { ul: string[] }
  | { ol: string[] }
  | { code: string }
  /** Cells starting with `doc.` are message keys, others are literal (topic names, sizes). */
  | { table: { head: string[]; rows: string[][] } };

export interface Section {
  id: string;
  title: string;
  blocks: Block[];
}

export const DOC_TYPES = ['help', 'protocol', 'quickDelete', 'updateLog'] as const;
export type DocType = (typeof DOC_TYPES)[number];

export function docTypeOf(q: string | null): DocType {
  return (DOC_TYPES as readonly string[]).includes(q ?? '') ? (q as DocType) : 'help';
}

export const HELP: Section[] = [
  { id: 'overview', title: 'doc.help.overview.title', blocks: [{ p: 'doc.help.overview.p1' }, { p: 'doc.help.overview.p2' }] },
  {
    id: 'devices',
    title: 'doc.help.devices.title',
    blocks: [
      { p: 'doc.help.devices.p1' },
      { ul: ['doc.help.devices.li1', 'doc.help.devices.li2', 'doc.help.devices.li3', 'doc.help.devices.li4'] },
    ],
  },
  {
    id: 'data',
    title: 'doc.help.data.title',
    blocks: [{ ul: ['doc.help.data.li1', 'doc.help.data.li2', 'doc.help.data.li3', 'doc.help.data.li4'] }, { p: 'doc.help.data.p1' }],
  },
  {
    id: 'dbc',
    title: 'doc.help.dbc.title',
    blocks: [{ p: 'doc.help.dbc.p1' }, { ul: ['doc.help.dbc.li1', 'doc.help.dbc.li2', 'doc.help.dbc.li3'] }],
  },
  {
    id: 'alarms',
    title: 'doc.help.alarms.title',
    blocks: [{ p: 'doc.help.alarms.p1' }, { ul: ['doc.help.alarms.li1', 'doc.help.alarms.li2'] }],
  },
  {
    id: 'service',
    title: 'doc.help.service.title',
    blocks: [{ ul: ['doc.help.service.li1', 'doc.help.service.li2', 'doc.help.service.li3', 'doc.help.service.li4'] }],
  },
  {
    id: 'accounts',
    title: 'doc.help.accounts.title',
    blocks: [{ ul: ['doc.help.accounts.li1', 'doc.help.accounts.li2', 'doc.help.accounts.li3'] }],
  },
];

export const PROTOCOL: Section[] = [
  { id: 'intro', title: 'doc.protocol.intro.title', blocks: [{ p: 'doc.protocol.intro.p1' }] },
  {
    id: 'connection',
    title: 'doc.protocol.connection.title',
    blocks: [
      {
        table: {
          head: ['doc.protocol.col.item', 'doc.protocol.col.value'],
          rows: [
            ['doc.protocol.connection.transport', 'MQTT 3.1.1 / MQTT 5, TCP (TLS)'],
            ['doc.protocol.connection.qos', '1'],
            ['doc.protocol.connection.username', 'doc.protocol.connection.usernameValue'],
            ['doc.protocol.connection.password', 'doc.protocol.connection.passwordValue'],
            ['doc.protocol.connection.session', 'doc.protocol.connection.sessionValue'],
            ['doc.protocol.connection.keepAlive', '30-120 s'],
            ['doc.protocol.connection.packet', '1 MiB'],
          ],
        },
      },
      { p: 'doc.protocol.connection.p1' },
    ],
  },
  {
    id: 'topics',
    title: 'doc.protocol.topics.title',
    blocks: [
      { p: 'doc.protocol.topics.p1' },
      {
        table: {
          head: ['doc.protocol.col.topic', 'doc.protocol.col.direction', 'doc.protocol.col.payload'],
          rows: [
            ['lh/v1/{id}/up/frames', 'doc.protocol.dir.up', 'doc.protocol.topics.frames'],
            ['lh/v1/{id}/up/status', 'doc.protocol.dir.up', 'doc.protocol.topics.status'],
            ['lh/v1/{id}/up/gps', 'doc.protocol.dir.up', 'doc.protocol.topics.gps'],
            ['lh/v1/{id}/up/resp', 'doc.protocol.dir.up', 'doc.protocol.topics.resp'],
            ['lh/v1/{id}/up/telemetry', 'doc.protocol.dir.up', 'doc.protocol.topics.telemetry'],
            ['lh/v1/{id}/down/#', 'doc.protocol.dir.down', 'doc.protocol.topics.down'],
          ],
        },
      },
    ],
  },
  {
    id: 'batch',
    title: 'doc.protocol.batch.title',
    blocks: [
      { p: 'doc.protocol.batch.p1' },
      { ul: ['doc.protocol.batch.li1', 'doc.protocol.batch.li2', 'doc.protocol.batch.li3', 'doc.protocol.batch.li4'] },
      { p: 'doc.protocol.batch.p2' },
    ],
  },
  { id: 'delivery', title: 'doc.protocol.delivery.title', blocks: [{ p: 'doc.protocol.delivery.p1' }, { p: 'doc.protocol.delivery.p2' }] },
  {
    id: 'json',
    title: 'doc.protocol.json.title',
    blocks: [
      { p: 'doc.protocol.json.status' },
      {
        code: '{"online": true, "firmware": "4.02.01", "sd": {"state": "ok", "total_mb": 30436, "free_mb": 20011},\n "channel_enable": 3, "server": "eu-1", "uptime": 5021}',
      },
      { p: 'doc.protocol.json.gps' },
      { code: '[{"ts": 1700000000000, "lat": 31.2304, "lon": 121.4737, "alt": 12.5, "speed": 42.1, "heading": 270, "sats": 9}]' },
      { p: 'doc.protocol.json.resp' },
      { code: '{"correlation_id": "…", "code": 0, "message": "ok", "payload": {}}' },
      { p: 'doc.protocol.json.telemetry' },
    ],
  },
  {
    id: 'broker',
    title: 'doc.protocol.broker.title',
    blocks: [{ p: 'doc.protocol.broker.p1' }, { code: 'pattern write lh/v1/%u/up/#\npattern read  lh/v1/%u/down/#' }],
  },
];

export const QUICK_DELETE: Section[] = [
  { id: 'what', title: 'doc.quickDelete.what.title', blocks: [{ p: 'doc.quickDelete.what.p1' }, { p: 'doc.quickDelete.what.p2' }] },
  {
    id: 'modes',
    title: 'doc.quickDelete.modes.title',
    blocks: [{ ul: ['doc.quickDelete.modes.general', 'doc.quickDelete.modes.exclusive', 'doc.quickDelete.modes.quick'] }],
  },
  {
    id: 'apply',
    title: 'doc.quickDelete.apply.title',
    blocks: [{ ol: ['doc.quickDelete.apply.s1', 'doc.quickDelete.apply.s2', 'doc.quickDelete.apply.s3', 'doc.quickDelete.apply.s4'] }],
  },
  {
    id: 'use',
    title: 'doc.quickDelete.use.title',
    blocks: [{ ol: ['doc.quickDelete.use.s1', 'doc.quickDelete.use.s2', 'doc.quickDelete.use.s3', 'doc.quickDelete.use.s4'] }],
  },
  {
    id: 'notes',
    title: 'doc.quickDelete.notes.title',
    blocks: [{ ul: ['doc.quickDelete.notes.li1', 'doc.quickDelete.notes.li2', 'doc.quickDelete.notes.li3'] }],
  },
];

export interface Release {
  version: string;
  date: string;
  changes: string[];
}

/** The update log, newest first. */
export const RELEASES: Release[] = [
  {
    version: '0.1.0',
    date: '2026-11-21',
    changes: [
      'doc.release.010.devices',
      'doc.release.010.data',
      'doc.release.010.dbc',
      'doc.release.010.alarms',
      'doc.release.010.gps',
      'doc.release.010.accounts',
      'doc.release.010.workorders',
      'doc.release.010.capacity',
      'doc.release.010.deviceTypes',
      'doc.release.010.monitor',
    ],
  },
];
