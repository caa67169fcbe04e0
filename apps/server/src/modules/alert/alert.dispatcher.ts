import { randomUUID } from 'node:crypto';
import { encodeJson } from '@loggerhead/can/protocol/messages.ts';
import { downTopic } from '@loggerhead/can/protocol/topics.ts';
import { COMMAND_MIN_INTERVAL_S, NOTIFY_MIN_INTERVAL_S, type RuleActions, resolveTextRefs } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { EventBus } from '../../lib/events.ts';
import { formatLocalTime } from '../../lib/local-time.ts';
import type { Channel } from '../../notify/notifier.ts';
import type { DeviceInfo, EngineRepository } from '../../rules/engine.repository.ts';
import type { Dispatch, Edge, RuleMeta } from '../../rules/rules.engine.ts';
import { allow, type Clock } from '../../rules/throttle.ts';
import type { MessageService } from '../message/message.service.ts';
import type { Outbox } from './alert.outbox.ts';
import { dispatchRepository } from './dispatch.repository.ts';
import type { EventsRepository } from './events.repository.ts';
import { toAlertEvent } from './events.service.ts';
import type { RuleRow } from './rules.repository.ts';

export interface DispatcherDeps {
  raw: RawSql;
  events: EventBus;
  messages: MessageService;
  outbox: Outbox;
  broker: { publish(topic: string, payload: Uint8Array): Promise<void> };
  /**
   * Issues a command through the command service (tracked, queued for an offline device, matched with
   * its response); without it the envelope is published on the device's `down/cmd` topic directly.
   */
  sendCommand?: (
    device: DeviceInfo,
    body: { operation_name: string; operation_params: Record<string, unknown>; description: string; headers: Record<string, string> },
    createdBy: string,
  ) => Promise<{ correlation_id: string; state: string }>;
  clock: Clock;
  /** IANA zone of the times in e-mail, SMS and voice texts. */
  timeZone: string;
  engineRepo: EngineRepository;
  eventsRepo: EventsRepository;
  /** The package's `alert_sms` (SMS and voice alerts a month); null = unlimited. */
  smsAllowance?: (tenantId: string) => Promise<number | null>;
  log: { warn: (o: object, m: string) => void; error: (o: object, m: string) => void };
}

type ActionResult = Record<string, unknown>;

const NOTIFY_CHANNELS: Channel[] = ['email', 'sms', 'voice'];

function describe(
  rule: RuleRow,
  device: DeviceInfo,
  data: Record<string, unknown> | null,
  recovered: boolean,
  at: number,
  timeZone: string,
): string {
  const lines = [
    `${recovered ? 'Recovered' : 'Alarm'}: ${rule.name}`,
    `Device: ${device.name} (${device.deviceId})`,
    `Level: ${rule.level}`,
    `Time: ${formatLocalTime(typeof data?.ts === 'number' ? data.ts : at, timeZone)}`,
  ];
  if (rule.alert_description) lines.push(rule.alert_description);
  if (data && 'frame_id' in data) {
    lines.push(`Frame: CAN${data.channel} ${data.frame_id} [${data.len}] ${data.data}${data.value !== null ? ` value ${data.value}` : ''}`);
  } else if (data && 'lat' in data) {
    lines.push(`Position: ${data.lat}, ${data.lon} (${data.inside ? 'inside' : 'outside'} fence ${data.fence_name})`);
  }
  return lines.join('\n');
}

/** The text in Chinese: the in-app message's zh text, and the e-mail and SMS of a zh tenant. */
function describeZh(
  rule: RuleRow,
  device: DeviceInfo,
  data: Record<string, unknown> | null,
  recovered: boolean,
  at: number,
  timeZone: string,
): string {
  const lines = [
    `${recovered ? '告警恢复' : '告警'}：${rule.name}`,
    `设备：${device.name}（${device.deviceId}）`,
    `级别：${rule.level === 'urgent' ? '紧急' : '普通'}`,
    `时间：${formatLocalTime(typeof data?.ts === 'number' ? data.ts : at, timeZone)}`,
  ];
  if (rule.alert_description) lines.push(rule.alert_description);
  if (data && 'frame_id' in data) {
    lines.push(`报文：CAN${data.channel} ${data.frame_id} [${data.len}] ${data.data}${data.value !== null ? ` 值 ${data.value}` : ''}`);
  } else if (data && 'lat' in data) {
    lines.push(`位置：${data.lat}, ${data.lon}（${data.inside ? '进入' : '离开'}围栏 ${data.fence_name}）`);
  }
  return lines.join('\n');
}

/** Console languages (spec: zh, the default, and en). */
type Lang = 'zh' | 'en';
type Texts = Record<Lang, string>;

function subjectOf(lang: Lang, kind: 'fire' | 'recover', rule: RuleRow, device: DeviceInfo): string {
  const what =
    lang === 'zh'
      ? kind === 'recover'
        ? '告警恢复'
        : rule.level === 'urgent'
          ? '紧急告警'
          : '告警'
      : kind === 'recover'
        ? 'Recovered'
        : rule.level === 'urgent'
          ? 'Urgent alarm'
          : 'Alarm';
  return `[Loggerhead] ${what}${lang === 'zh' ? '：' : ': '}${rule.name} - ${device.name}`;
}

/**
 * What happens at an edge: the event is stored, the owner (and the sub-users the rule is shared
 * with) get an in-app message, and the actions go out within their frequency (spec §9): e-mail,
 * SMS and voice through the outbox, the command as a downlink on the device's `down/cmd` topic.
 * A recovery closes the event and runs the recover action under the same limits. E-mail, SMS and
 * voice texts are in the tenant's language (see `languageOf`).
 */
export function alertDispatcher(deps: DispatcherDeps): Dispatch {
  const { raw, outbox, clock, log } = deps;
  const dispatchRepo = dispatchRepository(raw);

  /**
   * The language of a tenant's e-mail, SMS and voice alerts. Users have no language of their own:
   * the console's language is the tenant's (customisation systemLanguage, which the console saves
   * back when a user logs in with another one); zh when unset, the spec's default locale.
   */
  async function languageOf(tenantId: string): Promise<Lang> {
    return dispatchRepo.language(tenantId);
  }

  async function runActions(
    kind: 'fire' | 'recover',
    actions: RuleActions,
    rule: RuleRow,
    device: DeviceInfo,
    meta: RuleMeta,
    texts: Texts,
  ) {
    const now = clock.now();
    const prefix = kind === 'recover' ? 'recover:' : '';
    const notifyMs = (rule.frequency?.notify_interval_s ?? NOTIFY_MIN_INTERVAL_S) * 1000;
    const commandMs = (rule.frequency?.command_interval_s ?? COMMAND_MIN_INTERVAL_S) * 1000;
    const results: ActionResult[] = [];
    const notifies = NOTIFY_CHANNELS.some((c) => actions?.[c]?.length);
    const lang = notifies ? await languageOf(device.tenantId) : 'zh';
    // A seeded rule's or device's name is a catalogue reference (decision 0178): in the tenant's language.
    const subject = resolveTextRefs(lang, subjectOf(lang, kind, rule, device));
    const text = texts[lang];
    for (const channel of NOTIFY_CHANNELS) {
      const to = actions?.[channel] ?? [];
      if (!to.length) continue;
      if (!allow(meta.marks, prefix + channel, now, notifyMs)) {
        results.push({ type: channel, status: 'throttled' });
        continue;
      }
      const ids: string[] = [];
      const over = channel === 'email' ? null : await overAllowance(device.tenantId, to.length, now);
      if (over) {
        // Visible, not silent: each message not sent is in the push log as failed, with the reason.
        for (const destination of to) {
          ids.push(await outbox.refuse({ channel, destination, purpose: 'alert', subject, text, tenantId: device.tenantId }, over.reason));
        }
        results.push({ type: channel, status: 'quota', to, limit: over.limit, push_log_ids: ids });
        continue;
      }
      for (const destination of to) {
        ids.push(await outbox.enqueue({ channel, destination, purpose: 'alert', subject, text, tenantId: device.tenantId }));
      }
      results.push({ type: channel, status: 'queued', to, push_log_ids: ids });
    }
    const cmd = actions?.command;
    if (cmd) {
      if (!allow(meta.marks, `${prefix}command`, now, commandMs)) results.push({ type: 'command', status: 'throttled' });
      else if (deps.sendCommand) {
        const description = `${kind === 'recover' ? 'recover action' : 'alarm action'} of trigger rule ${rule.name}`;
        try {
          const c = await deps.sendCommand(
            device,
            {
              operation_name: cmd.operation_name,
              operation_params: cmd.operation_params ?? {},
              description: description.slice(0, 256),
              headers: { source: 'trigger-rule', rule_id: rule.id },
            },
            rule.owner_id,
          );
          results.push({ type: 'command', status: c.state, correlation_id: c.correlation_id, operation_name: cmd.operation_name });
        } catch (err) {
          log.error({ err, ruleId: rule.id }, 'alarm command not issued');
          results.push({ type: 'command', status: 'failed', error: String((err as Error)?.message ?? err).slice(0, 200) });
        }
      } else {
        const correlation_id = randomUUID();
        // Spec §3 device message envelope; message_type 0 is a command.
        const envelope = {
          correlation_id,
          description: `${kind === 'recover' ? 'recover action' : 'alarm action'} of trigger rule ${rule.name}`,
          headers: { source: 'trigger-rule', rule_id: rule.id },
          info_model_id: device.infoModelId,
          message_type: 0,
          payload: { operation_name: cmd.operation_name, operation_params: cmd.operation_params ?? {} },
          tenant_id: device.tenantId,
          things_id: device.thingsId,
          things_type: device.thingType,
          third_things_id: device.deviceId,
        };
        try {
          await deps.broker.publish(downTopic(device.deviceId, 'cmd'), encodeJson(envelope));
          results.push({ type: 'command', status: 'published', correlation_id, operation_name: cmd.operation_name });
        } catch (err) {
          log.error({ err, ruleId: rule.id }, 'alarm command not published');
          results.push({ type: 'command', status: 'failed', correlation_id, error: String((err as Error)?.message ?? err).slice(0, 200) });
        }
      }
    }
    return results;
  }

  /** SMS and voice alerts count against the package's `alert_sms` per calendar month (UTC). */
  async function overAllowance(tenantId: string, adding: number, now: number): Promise<{ limit: number; reason: string } | null> {
    const limit = await deps.smsAllowance?.(tenantId);
    if (limit === null || limit === undefined) return null;
    const d = new Date(now);
    const month = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
    const used = await dispatchRepo.alertSmsSince(tenantId, month);
    return used + adding > limit ? { limit, reason: `alert_sms allowance of the package reached (${limit} a month)` } : null;
  }

  async function recipients(rule: RuleRow): Promise<string[]> {
    if (!rule.share) return [rule.owner_id];
    // Shared: the owner and every active sub-user granted the device.
    const granted = await dispatchRepo.grantedSubUsers(rule.tenant_id, rule.things_id);
    return [...new Set([rule.owner_id, ...granted])];
  }

  async function recover(device: DeviceInfo, edge: Edge, meta: RuleMeta) {
    const rule = edge.rule;
    const now = clock.now();
    const texts = {
      en: resolveTextRefs('en', describe(rule, device, edge.recover, true, now, deps.timeZone)),
      zh: resolveTextRefs('zh', describeZh(rule, device, edge.recover, true, now, deps.timeZone)),
    };
    const actions = await runActions('recover', rule.recover_action, rule, device, meta, texts);
    if (meta.lastEventId) {
      await deps.eventsRepo.recovered(device.tenantId, meta.lastEventId, new Date(now), { ...(edge.recover ?? {}), actions });
    }
  }

  async function fire(device: DeviceInfo, edge: Edge, meta: RuleMeta) {
    const rule = edge.rule;
    const now = clock.now();
    const texts = {
      en: resolveTextRefs('en', describe(rule, device, edge.fire, false, now, deps.timeZone)),
      zh: resolveTextRefs('zh', describeZh(rule, device, edge.fire, false, now, deps.timeZone)),
    };
    const actions = await runActions('fire', rule.actions, rule, device, meta, texts);
    const row = await deps.eventsRepo.insert({
      tenantId: device.tenantId,
      ruleId: rule.id,
      ruleName: rule.name,
      ownerId: rule.owner_id,
      share: rule.share,
      thingsId: device.thingsId,
      level: rule.level,
      sourceType: edge.sourceType,
      eventData: { ...(edge.fire ?? {}), alert_description: rule.alert_description, actions },
      at: new Date(now),
    });
    meta.lastEventId = row.id;
    deps.events.emit('alert.event', { tenantId: device.tenantId, event: toAlertEvent(row) });
    for (const userId of await recipients(rule)) {
      await deps.messages
        .send(device.tenantId, userId, {
          title: resolveTextRefs('en', `${rule.level === 'urgent' ? 'Urgent alarm' : 'Alarm'}: ${rule.name}`),
          content: texts.en,
          texts: {
            zh: {
              title: resolveTextRefs('zh', `${rule.level === 'urgent' ? '紧急告警' : '告警'}：${rule.name}`),
              content: texts.zh,
            },
          },
          type: 'alert',
          reminderMode: rule.level === 'urgent' ? 2 : 1,
        })
        .catch((err) => log.warn({ err, userId }, 'alarm message not stored'));
    }
  }

  return async (device, edge, meta) => {
    if (edge.wasActive && edge.recoveries > 0) await recover(device, edge, meta);
    if (edge.fires > 0) {
      await fire(device, edge, meta);
      if (!edge.active) await recover(device, edge, meta);
    }
    await deps.engineRepo
      .saveState(edge.rule.id, device.thingsId, edge.active, meta.lastEventId, meta.marks)
      // The rule was deleted meanwhile: nothing to keep.
      .catch((err) => log.warn({ err, ruleId: edge.rule.id }, 'rule state not saved'));
  };
}
