/**
 * The route table: every API route the server registers from it and the web client calls through
 * it (`defineRoute` in ./define.ts). Converted modules so far — one file each here:
 *
 * - things (devices, device types, vehicles): ./things.ts
 * - mapping (DBC files, signal strategies, channel bindings): ./mapping.ts
 * - data (frame history, exports, log uploads, quick-delete tasks): ./data.ts
 * - recall (file recall from a device's SD card, recalled files): ./recall.ts
 * - firmware (firmware files, upgrade notify, upgrades, the device download): ./firmware.ts
 * - workorder (work orders and their images, tenant and system side): ./workorder.ts
 * - dashboard (dashboards and their panels): ./dashboard.ts
 * - ecu (ECUs and their files): ./ecu.ts
 * - uds (UDS requests and ECU flashing through a device): ./uds.ts
 * - fence (e-fences): ./fence.ts
 * - command (device commands (messages) and their responses): ./command.ts
 * - config (device configuration: read, write, last known, export, import): ./config.ts
 * - gps (a device's track and latest fixes): ./gps.ts
 * - message (the signed-in user's own inbox): ./message.ts
 * - notice (announcements: written by system managers, read and hidden by each user): ./notice.ts
 * - notification (the notification push log): ./notification.ts
 * - signals (decoded signals of a device: series, curves, table, CSV, period, bus statistics): ./signals.ts
 * - alert (trigger rules) and alertEvents (the alert events they raise): ./alert.ts
 * - forward (things-forward rules, their destinations and dead letters): ./forward.ts
 * - statistics (statistics methods, tasks, results and history): ./statistics.ts
 * - apiKeys (tenant API keys for machines): ./api-keys.ts
 * - plugins (data transform and export plugins, JSONata): ./plugins.ts
 * - dataService (download templates and clean tasks): ./data-service.ts
 * - traffic (tenant flow and device ranking of the data service): ./traffic.ts
 * - oplog (the operation log of a tenant): ./oplog.ts
 * - deviceTypeSchema (the data groups and fields of a device type): ./device-type-schema.ts
 * - health (the health check): ./health.ts
 * - hmi (HMI screens, their HMI users, the screens a user opens and presses): ./hmi.ts
 * - jobs (scheduled jobs and their logs): ./jobs.ts
 * - broker (HTTP authentication and authorization of devices for an external broker such as EMQX): ./broker.ts
 * - userConfig (the signed-in user's own settings): ./user-config.ts
 * - webConfig (what the console loads before login: global config, deploy info): ./web-config.ts
 * - billing (packages, capacity usage, capacity requests, the TPS estimator): ./billing.ts
 * - catalogue (packages for sale, content items, stage discounts, coupons) and orders: ./orders.ts
 * - testmgmt (test management: analysis scripts, routines, runs and reports): ./testmgmt.ts
 * - live (the console's WebSockets: devices' live data, the message bell, a device's remote operations): ./live.ts
 * - functionBlocks, modelCategories, infoModels, mappingRules (device models: function blocks, categories, info models,
 *   mapping rules of raw uplinks onto their properties) and mappingEntities (the raw shapes rules map from): ./models.ts
 * - twin (a device's digital twin and model events) and twinRules (twin rules and their fires): ./twin.ts
 * - edgeRules (edge-computing rules and their issuance history): ./edge.ts
 * - labels (the tenant's label registry) and groups (device groups, bind/unbind, group commands): ./org.ts
 * - projects (devices, groups, vehicles and sub-users of a project): ./project.ts
 * - behaviour (the console's header clicks and their summary for the system manager): ./behaviour.ts
 * - tenant: self (the caller's own account and tenant), registration (calls before login: codes,
 *   registration, forgotten password), subUsers, tenantAdmin (tenants, system side) and
 *   customization: ./tenant.ts
 * - roles (a tenant's roles and its sub-users' roles), commonRoles (the system manager's roles for every
 *   tenant) and globalMenu (the header's global menu configuration): ./roles.ts
 * - session (login, logout, the caller's permission map, re-entering the password) and oidc
 *   (third-party login and the caller's link to it): ./control.ts
 *
 * The server registers no API route beside this table (its security test checks that).
 */

import { AlertEventRoutes, AlertRoutes } from './alert.ts';
import { ApiKeyRoutes } from './api-keys.ts';
import { BehaviourRoutes } from './behaviour.ts';
import { BillingRoutes } from './billing.ts';
import { BrokerRoutes } from './broker.ts';
import { CommandRoutes } from './command.ts';
import { ConfigRoutes } from './config.ts';
import { OidcRoutes, SessionRoutes, SuperSessionRoutes } from './control.ts';
import { DashboardRoutes } from './dashboard.ts';
import { DataRoutes } from './data.ts';
import { DataServiceRoutes } from './data-service.ts';
import { DeviceTypeSchemaRoutes } from './device-type-schema.ts';
import { EcuRoutes } from './ecu.ts';
import { EdgeRuleRoutes } from './edge.ts';
import { FenceRoutes } from './fence.ts';
import { FirmwareRoutes } from './firmware.ts';
import { ForwardRoutes } from './forward.ts';
import { GpsRoutes } from './gps.ts';
import { HealthRoutes } from './health.ts';
import { HmiRoutes } from './hmi.ts';
import { JobRoutes } from './jobs.ts';
import { LiveRoutes } from './live.ts';
import { MappingRoutes } from './mapping.ts';
import { MessageRoutes } from './message.ts';
import { FunctionBlockRoutes, InfoModelRoutes, MappingEntityRoutes, MappingRuleRoutes, ModelCategoryRoutes } from './models.ts';
import { NoticeRoutes } from './notice.ts';
import { NotificationRoutes } from './notification.ts';
import { OpLogRoutes } from './oplog.ts';
import { CatalogueRoutes, OrderRoutes } from './orders.ts';
import { GroupRoutes, LabelRoutes } from './org.ts';
import { PluginRoutes } from './plugins.ts';
import { ProjectRoutes } from './project.ts';
import { RecallRoutes } from './recall.ts';
import { CommonRoleRoutes, GlobalMenuRoutes, RoleRoutes } from './roles.ts';
import { SignalsRoutes } from './signals.ts';
import { StatisticsRoutes } from './statistics.ts';
import { CustomizationRoutes, RegistrationRoutes, SelfRoutes, SubUserRoutes, TenantAdminRoutes } from './tenant.ts';
import { TestMgmtRoutes } from './testmgmt.ts';
import { ThingsRoutes } from './things.ts';
import { TrafficRoutes } from './traffic.ts';
import { TwinRoutes, TwinRuleRoutes } from './twin.ts';
import { UdsRoutes } from './uds.ts';
import { UserConfigRoutes } from './user-config.ts';
import { WebConfigRoutes } from './web-config.ts';
import { WorkOrderRoutes } from './workorder.ts';

export { AlertEventRoutes, AlertRoutes } from './alert.ts';
export { ApiKeyRoutes } from './api-keys.ts';
export { BillingRoutes } from './billing.ts';
export { BrokerAclRequestSchema, BrokerAuthRequestSchema, BrokerRoutes, type BrokerVerdict, BrokerVerdictSchema } from './broker.ts';
export { CommandRoutes } from './command.ts';
export { ConfigRoutes } from './config.ts';
export { type OidcLink, OidcLinkSchema, OidcRoutes, SessionRoutes, SuperSessionRoutes } from './control.ts';
export { DashboardRoutes } from './dashboard.ts';
export { DataRoutes } from './data.ts';
export { DataServiceRoutes } from './data-service.ts';
export * from './define.ts';
export { DeviceTypeSchemaRoutes } from './device-type-schema.ts';
export { EcuRoutes } from './ecu.ts';
export { EdgeRuleRoutes } from './edge.ts';
export { FenceRoutes } from './fence.ts';
export { FirmwareRoutes } from './firmware.ts';
export { ForwardRoutes } from './forward.ts';
export { GpsRoutes } from './gps.ts';
export { HealthRoutes } from './health.ts';
export { HmiRoutes } from './hmi.ts';
export { JobRoutes } from './jobs.ts';
export { LIVE_KIND_PERMISSION, LiveRoutes } from './live.ts';
export { MappingRoutes } from './mapping.ts';
export { MessageRoutes } from './message.ts';
export { FunctionBlockRoutes, InfoModelRoutes, MappingEntityRoutes, MappingRuleRoutes, ModelCategoryRoutes } from './models.ts';
export { NoticeRoutes } from './notice.ts';
export { NotificationRoutes } from './notification.ts';
export { OpLogRoutes } from './oplog.ts';
export { CatalogueRoutes, OrderRoutes } from './orders.ts';
export { GroupRoutes, LabelRoutes } from './org.ts';
export { PluginRoutes } from './plugins.ts';
export { RecallRoutes } from './recall.ts';
export { CommonRoleRoutes, GlobalMenuRoutes, RoleRoutes } from './roles.ts';
export { SignalsRoutes } from './signals.ts';
export { StatisticsRoutes } from './statistics.ts';
export { AvatarParams, CustomizationRoutes, RegistrationRoutes, SelfRoutes, SubUserRoutes, TenantAdminRoutes } from './tenant.ts';
export { TestMgmtRoutes } from './testmgmt.ts';
export { ThingsRoutes } from './things.ts';
export { TrafficRoutes } from './traffic.ts';
export { TwinRoutes, TwinRuleRoutes } from './twin.ts';
export { UdsRoutes } from './uds.ts';
export { UserConfigRoutes } from './user-config.ts';
export {
  DeployConfigSchema,
  ServerConfigSchema,
  WEB_DEPLOY_TOKEN_PREFIX,
  WebConfigRoutes,
  WebDeployLogSchema,
  WebDeployUserSchema,
  WebVersionSchema,
} from './web-config.ts';
export { WorkOrderRoutes } from './workorder.ts';

export const Routes = {
  roles: RoleRoutes,
  commonRoles: CommonRoleRoutes,
  globalMenu: GlobalMenuRoutes,
  things: ThingsRoutes,
  mapping: MappingRoutes,
  data: DataRoutes,
  recall: RecallRoutes,
  firmware: FirmwareRoutes,
  workorder: WorkOrderRoutes,
  dashboard: DashboardRoutes,
  ecu: EcuRoutes,
  uds: UdsRoutes,
  fence: FenceRoutes,
  command: CommandRoutes,
  config: ConfigRoutes,
  gps: GpsRoutes,
  message: MessageRoutes,
  notice: NoticeRoutes,
  notification: NotificationRoutes,
  signals: SignalsRoutes,
  alert: AlertRoutes,
  alertEvents: AlertEventRoutes,
  oplog: OpLogRoutes,
  deviceTypeSchema: DeviceTypeSchemaRoutes,
  health: HealthRoutes,
  broker: BrokerRoutes,
  jobs: JobRoutes,
  statistics: StatisticsRoutes,
  plugins: PluginRoutes,
  dataService: DataServiceRoutes,
  traffic: TrafficRoutes,
  apiKeys: ApiKeyRoutes,
  userConfig: UserConfigRoutes,
  webConfig: WebConfigRoutes,
  billing: BillingRoutes,
  catalogue: CatalogueRoutes,
  orders: OrderRoutes,
  testmgmt: TestMgmtRoutes,
  live: LiveRoutes,
  self: SelfRoutes,
  registration: RegistrationRoutes,
  subUsers: SubUserRoutes,
  tenantAdmin: TenantAdminRoutes,
  customization: CustomizationRoutes,
  session: SessionRoutes,
  superSession: SuperSessionRoutes,
  oidc: OidcRoutes,
  labels: LabelRoutes,
  groups: GroupRoutes,
  projects: ProjectRoutes,
  behaviour: BehaviourRoutes,
  functionBlocks: FunctionBlockRoutes,
  modelCategories: ModelCategoryRoutes,
  infoModels: InfoModelRoutes,
  forward: ForwardRoutes,
  twin: TwinRoutes,
  twinRules: TwinRuleRoutes,
  edgeRules: EdgeRuleRoutes,
  hmi: HmiRoutes,
  mappingRules: MappingRuleRoutes,
  mappingEntities: MappingEntityRoutes,
} as const;
