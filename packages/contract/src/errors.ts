import { MAX_PANEL_SIGNALS, MAX_PANELS } from './schemas/dashboard.ts';

/**
 * The error contract of spec §8. Every error body the server sends is
 * `{code, message}` (or an array of them where several fields fail at once).
 * The web client maps `code` to translated text; `message` is a fallback in English.
 */
export interface ErrorBody {
  code: string;
  message: string;
  /** Optional: the field a validation error belongs to (form-level display). */
  field?: string;
  /** Optional machine-readable extras, e.g. seconds left on a lock-out. */
  details?: Record<string, unknown>;
}

export type ErrorResponse = ErrorBody | ErrorBody[];

/** What the registry knows of a code: its default (English) text and, where it never varies, its HTTP status. */
export interface ErrorEntry {
  message: string;
  status?: number;
}

/**
 * The one registry of error codes (spec §8 and the console's own): every code the server sends,
 * with its default English text and, where fixed, its HTTP status. A throw site may pass a more
 * specific message; the web translates every code here into zh and en.
 */
export const ErrorCodes = {
  // Login and registration (spec §8)
  '001': { message: 'Please enter the username or the area code and phone number', status: 400 },
  '002': { message: 'Please enter the mobile number', status: 400 },
  '003': { message: 'Login name must be 2-65 characters of letters, digits, underscore or @', status: 400 },
  '004': { message: 'Wrong number of mobile digits' },
  '005': { message: 'Password must be 8-16 characters, no Chinese characters and no spaces' },
  '006': { message: 'Please enter the password' },
  '007': { message: 'This mobile number is already registered' },
  '008': { message: 'Username must be 2-20 letters, digits or underscore and not start with a digit' },
  '009': { message: 'This username already exists', status: 409 },
  '010': { message: 'Password needs at least two of: upper-case, lower-case, digits, special characters' },
  '011': { message: 'The two passwords differ' },
  '012': { message: 'Please confirm the password' },
  '013': { message: 'Please enter the username' },
  '014': { message: 'Please enter the 6-digit code', status: 400 },
  '015': { message: 'Wrong e-mail format' },
  '016': { message: 'This e-mail is already registered' },
  '017': { message: 'Please enter the e-mail' },
  '018': { message: 'Phone verification code invalid or expired, please get a new one', status: 400 },
  '019': { message: 'E-mail verification code invalid or expired, please get a new one', status: 400 },
  '020': { message: 'Invalid merchant ID' },
  '021': { message: 'Please enter the 6-digit code' },
  '022': { message: 'Please enter the login password', status: 400 },
  'iot-http.409': { message: 'Account conflict, please contact the administrator', status: 409 },
  // Other codes named by the spec, and sign-in, devices, data
  'iot-tenant.10016': { message: 'This account has not been reviewed yet', status: 403 },
  'can-dtu.10005': { message: 'Fault code file does not exist', status: 404 },
  'connection.10000': { message: 'Connection name already exists' },
  'iot-things.999991': { message: 'Failed to count devices under the device type' },
  'can-dtu-10011': { message: 'Fault code file is in use', status: 409 },
  'can-dtu-10012': { message: 'Name already used', status: 409 },
  'auth.bad-credentials': { message: 'Username or password incorrect', status: 401 },
  'auth.bad-code': { message: 'Code incorrect', status: 401 },
  'auth.phone-not-registered': { message: 'Phone number not registered' },
  'auth.locked': { message: 'Too many failed logins with this name: try again in a few minutes', status: 423 },
  'auth.session-expired': { message: 'The session has ended, please log in again' },
  'auth.access-withdrawn': { message: 'Access withdrawn: the account, its rights or devices, or its tenant changed' },
  'quota.limit-reached': { message: 'Limit reached, go to the user centre to upgrade', status: 403 },
  'things.duplicate-id': { message: 'A device with this ID already exists', status: 409 },
  'things.invalid-id': { message: 'Device ID must be 20 upper-case hexadecimal characters', status: 400 },
  'things.offline': { message: 'Device offline, cannot upgrade' },
  'things.busy': { message: 'Repeated operation: wait until the running upgrade finishes' },
  'data.over-10000': { message: 'Data over 10000 entries needs a more precise query', status: 400 },
  'uds.canfd-not-supported': { message: 'CAN FD is not supported in UDS on this device', status: 400 },
  'rate.limited': { message: 'Too many requests, try again later', status: 429 },
  'code.too-soon': { message: 'A code was sent less than 60 seconds ago', status: 429 },
  'auth.password-error': { message: 'Password error', status: 400 },
  'oidc.disabled': { message: 'Third-party login is not configured', status: 404 },
  'oidc.not-linked': {
    message: 'This third-party account is not linked to any account: log in with your password and link it in the user centre first',
  },
  'oidc.already-linked': { message: 'This third-party account is already linked to another account' },
  'oidc.expired': { message: 'The third-party login took too long or was already used, please try again' },
  'oidc.failed': { message: 'The third-party login failed, please try again', status: 502 },
  'oidc.bad-state': { message: 'This third-party login was not started in this browser, please start it again', status: 400 },
  'register.merchant-closed': { message: 'Merchant registration is closed, please contact us by e-mail', status: 403 },
  'notify.failed': { message: 'The message could not be sent, please try again later', status: 503 },
  saveMax: { message: 'At most 30 columns can be chosen', status: 400 },
  'things.invalid-vin': { message: 'VIN must be 17 characters of digits and letters except I, O and Q', status: 400 },
  'things.duplicate-vin': { message: 'A vehicle with this VIN already exists', status: 409 },
  'things.unknown-type': { message: 'Unknown device type', status: 400 },
  'things.bad-channel': { message: 'The device has no such CAN channel', status: 400 },
  'things.unknown-label': { message: "A device label must be a label of the tenant's label registry", status: 400 },
  'things.duplicate-label': { message: 'A device carries each label once', status: 400 },
  'things.parent-cycle': { message: 'A device cannot be a child of itself or of one of its own children', status: 400 },
  'label.not-found': { message: 'Label not found', status: 404 },
  'label.duplicate': { message: 'A label with this name already exists', status: 409 },
  'function-block.not-found': { message: 'Function block not found', status: 404 },
  'function-block.duplicate': { message: 'A function block with this name already exists', status: 409 },
  'function-block.in-use': { message: 'Info models use this function block: take it off them first', status: 409 },
  'info-model.not-found': { message: 'Info model not found', status: 404 },
  'info-model.duplicate': { message: 'An info model with this name already exists', status: 409 },
  'info-model.in-use': { message: 'Devices use this info model: move or delete them first', status: 409 },
  'info-model.not-empty': {
    message: 'The info model still has function blocks, display groups or firmware: delete with force to remove them too',
    status: 409,
  },
  'info-model.unknown-block': { message: 'The info model names a function block it may not use', status: 400 },
  'category.not-found': { message: 'Category not found', status: 404 },
  'category.duplicate': { message: 'A category with this name already exists', status: 409 },
  'twin.unknown-property': { message: "The device's info model has no such status property", status: 400 },
  'twin.read-only': { message: 'A read-only property cannot be given a desired value', status: 400 },
  'twin.bad-value': { message: "The value is not of the property's data type", status: 400 },
  'twin-rule.not-found': { message: 'Twin rule not found', status: 404 },
  'twin-rule.duplicate': { message: 'A twin rule with this name already exists', status: 409 },
  'entity.not-found': { message: 'Entity not found', status: 404 },
  'entity.duplicate': { message: 'An entity with this name already exists', status: 409 },
  'entity.duplicate-key': { message: 'A key is listed twice in the entity', status: 400 },
  'mapping-rule.unknown-key': { message: "A raw key is not one of the entity's, or the entity is of another source", status: 400 },
  'mapping-rule.not-found': { message: 'Mapping rule not found', status: 404 },
  'mapping-rule.duplicate': { message: 'A mapping rule with this name already exists', status: 409 },
  'mapping-rule.bad-target': {
    message: "A target is not a status property of the rule's info model, or is scaled without being a number",
    status: 400,
  },
  'mapping-rule.duplicate-key': { message: 'A raw key is mapped twice in the rule', status: 400 },
  'edge-rule.not-found': { message: 'Edge-computing rule not found', status: 404 },
  'edge-rule.duplicate': { message: 'An edge-computing rule with this name already exists', status: 409 },
  'edge-rule.bad-field': { message: "The field is not a numeric status property of the rule's info model", status: 400 },
  'edge-rule.model-mismatch': { message: "The device is not of the rule's info model", status: 400 },
  'edge-rule.no-devices': { message: "No device of the rule's info model to issue it to", status: 400 },
  'group.not-found': { message: 'Group not found', status: 404 },
  'job.not-found': { message: 'Job not found', status: 404 },
  'job.duplicate': { message: 'A job with this name already exists', status: 409 },
  'job.bad-cron': { message: 'The cron expression is not valid', status: 400 },
  'job.bad-param': { message: "The action's parameters are not valid", status: 400 },
  'job.bad-time': { message: 'The end time must be after the start time', status: 400 },
  'group.duplicate': { message: 'A group with this name already exists', status: 409 },
  'group.empty': { message: 'The group has no devices', status: 400 },
  'project.not-found': { message: 'Project not found', status: 404 },
  'project.duplicate': { message: 'A project with this name already exists', status: 409 },
  'project.unknown-member': { message: 'A device, group, vehicle or sub-user named is not one of the tenant', status: 400 },
  'role.not-found': { message: 'Role not found', status: 404 },
  'role.duplicate': { message: 'A role with this name already exists', status: 409 },
  'role.bad-key': { message: 'A role holds only permission keys a sub-user may be granted', status: 400 },
  'role.bad-menu': { message: 'A role holds only menu entries a sub-user may be bound to', status: 400 },
  'super-session.read-only': {
    message: 'This console was opened read-only by a system manager: changes are refused',
    status: 403,
  },
  'session.monitor-read-only': { message: "A monitor screen's session only reads: changes are refused", status: 403 },
  'super-session.bad-tenant': { message: "The platform's own tenant, or a tenant without a manager, cannot be opened", status: 400 },
  'role.common': { message: 'A common role is changed by the system manager only', status: 403 },
  'forward.not-found': { message: 'Forwarding rule not found', status: 404 },
  'forward.duplicate': { message: 'A forwarding rule with this name already exists', status: 409 },
  'forward.unknown-group': { message: 'The group is not a group of the tenant', status: 400 },
  'forward.unknown-label': { message: "A label must be a label of the tenant's label registry", status: 400 },
  'destination.address-refused': {
    message:
      "The address is in a network the server does not reach for tenants (loopback, link-local, private, unique-local, unspecified or the server's own)",
    status: 400,
  },
  'destination.secret-address-changed': {
    message: 'The address changed: enter the password, token and secret values again (stored ones go to the stored address only)',
    status: 400,
  },
  'statistics.not-found': { message: 'Statistics task not found', status: 404 },
  'statistics.duplicate': { message: 'A statistics task with this name already exists', status: 409 },
  'statistics.no-signal': { message: 'This method needs at least one signal', status: 400 },
  'statistics.bad-param': { message: 'The percentile method needs its percentile (0 to 100)', status: 400 },
  'statistics.range-too-long': { message: 'One run computes at most 400 windows: choose a shorter range', status: 400 },
  'plugin.not-found': { message: 'Plugin not found', status: 404 },
  'plugin.duplicate': { message: 'A plugin with this name already exists', status: 409 },
  'plugin.bad-expression': { message: 'The expression is not valid JSONata', status: 400 },
  'plugin.eval-failed': { message: 'The expression failed on this input', status: 400 },
  'plugin.timeout': { message: 'The expression ran too long or too deep and was stopped', status: 400 },
  'plugin.output-too-large': { message: 'The expression produced too large a result', status: 400 },
  'plugin.wrong-type': { message: 'The plugin is not of the type this use needs', status: 400 },
  'plugin.in-use': { message: 'The plugin is used by a forwarding rule', status: 409 },
  'download-template.not-found': { message: 'Download template not found', status: 404 },
  'download-template.duplicate': { message: 'A download template with this name already exists', status: 409 },
  'clean-task.not-found': { message: 'Clean task not found', status: 404 },
  'clean-task.duplicate': { message: 'A clean task with this name already exists', status: 409 },
  'api-key.not-found': { message: 'API key not found', status: 404 },
  'api-key.bad-permission': { message: 'A key holds only permission keys its creator holds and a sub-user may be granted', status: 400 },
  'api-key.bad-expiry': { message: 'The expiry must be in the future', status: 400 },
  'api-key.refused': { message: 'The API key is unknown, revoked or expired', status: 401 },
  'data.bad-range': { message: 'The end time must be after the begin time', status: 400 },
  'data.range-too-long': { message: 'The range is at most one year: choose a shorter range', status: 400 },
  'data.bad-format': {
    message: 'The file is not a supported log (candump -L, Vector ASC, BLF, PEAK TRC or ASAM MF4, also gzip-compressed)',
    status: 400,
  },
  'data.not-ready': { message: 'The export is not finished yet', status: 409 },
  'data.export-limit': {
    message: 'The experience account exports at most one hour of data at a time: choose a shorter range',
    status: 400,
  },
  'data.export-busy': { message: 'An export of yours is still running: wait for it or cancel it', status: 409 },
  'data.jobs-busy': {
    message: "The tenant's package runs this many exports and log uploads at once: try again when one has finished",
    status: 429,
  },
  /** A compressed upload (gzip log, console bundle) inflating past its limit: refused as soon as it does. */
  'upload.too-large': { message: 'The file is larger than allowed once inflated', status: 413 },
  /** A long-running job (export, recall, upgrade, ECU flash…) whose server stopped while it ran. */
  'job.interrupted': { message: 'Interrupted by a server restart' },
  // HTTP statuses
  'http.400': { message: 'Bad request', status: 400 },
  'http.401': { message: 'Not signed in or the session has expired', status: 401 },
  'http.403': { message: 'Not allowed to access', status: 403 },
  'http.404': { message: 'Not found', status: 404 },
  'http.409': { message: 'Conflict', status: 409 },
  'http.413': { message: 'Payload too large', status: 413 },
  'http.415': { message: 'Unsupported media type', status: 415 },
  'http.422': { message: 'Unprocessable entity', status: 422 },
  'http.429': { message: 'Too many requests', status: 429 },
  'http.500': { message: 'Internal server error', status: 500 },
  'http.503': { message: 'Service unavailable', status: 503 },
  // The server's own stores out of reach (docs/operations.md, faults)
  'db.unavailable': { message: 'The database cannot be reached at the moment, please try again shortly', status: 503 },
  // Commands and configuration files
  'command.invalid-params': { message: 'Invalid command parameters', status: 400 },
  'command.not-cancellable': { message: 'Only a queued command can be cancelled', status: 409 },
  'command.no-response': { message: 'The device did not answer in time', status: 504 },
  'config.device-refused': { message: 'The device refused the configuration', status: 400 },
  'config.file-too-large': { message: 'A configuration file is at most 10 MB', status: 413 },
  'config.bad-file': { message: 'The configuration file is not valid JSON', status: 400 },
  'config.none': { message: 'No configuration known for this device yet' },
  // File recall
  'recall.001': { message: 'File information is empty' },
  'recall.002': { message: 'No URL and no part information for this file yet', status: 404 },
  'recall.timeout.002': { message: 'The recall command could not be sent' },
  'recall.timeout.003': { message: 'The device did not answer in time' },
  'recall.timeout.004': { message: 'Polling the recall failed' },
  'recall.empty-file': { message: 'A file of size 0 cannot be recalled or deleted', status: 400 },
  'recall.batch-too-large': { message: 'Too many files in one batch recall for the package', status: 400 },
  'recall.bad-upload': { message: 'Upload part out of order', status: 409 },
  // One-time links of commands (recalled-file upload, firmware download): the device proves itself
  'device-link.no-proof': { message: "The link needs the device's proof (header X-Device-Proof)", status: 401 },
  'device-link.bad-proof': { message: 'The proof is not that of the device this link was issued for', status: 403 },
  // DBC files, signal strategies, bindings
  'mapping.dbc-invalid': { message: 'The DBC file could not be parsed', status: 400 },
  'mapping.dbc-type': { message: 'Only .dbc files are accepted', status: 400 },
  'mapping.dbc-too-large': { message: 'The DBC file is larger than 10 MB', status: 413 },
  'mapping.dbc-too-many-messages': { message: 'The DBC file has more messages than one file may have', status: 413 },
  'mapping.dbc-too-many-signals': { message: 'The DBC file has more signals than one file may have', status: 413 },
  'mapping.dbc-timeout': { message: 'Reading the DBC file took longer than allowed', status: 422 },
  'mapping.dbc-name-used': { message: 'A DBC file with this name already exists', status: 409 },
  'mapping.dbc-in-use': { message: 'The DBC file is bound to a device channel', status: 409 },
  'mapping.strategy-name-used': { message: 'A signal strategy with this name already exists', status: 409 },
  'mapping.strategy-in-use': { message: 'The signal strategy is bound to a device channel', status: 409 },
  'mapping.unknown-signal': { message: 'The DBC file has no such message or signal' },
  'mapping.not-bound': { message: 'The channel is not bound to a DBC file', status: 404 },
  'mapping.backfill-running': { message: 'Stored frames of this channel are already being decoded', status: 409 },
  'mapping.backfill-range': { message: 'The back-fill range must start before it ends, and before now', status: 400 },
  'mapping.backfill-none': { message: 'No back-fill of this channel is running', status: 404 },
  // Packages, capacity, quick delete
  'capacity.below-current': { message: 'A requested value may not be below the current package' },
  'capacity.unchanged': { message: 'The request asks for nothing beyond the current package', status: 400 },
  'package.quick-delete-list-too-long': { message: 'More quick-delete devices than the package allows', status: 400 },
  'quota.bytes-not-whole-gb': { message: 'The storage quota is a whole number of GB', status: 400 },
  'quota.too-large': { message: 'The quota is larger than the package allows', status: 400 },
  'quota.reserves-out-of-range': { message: 'The days kept must be at least 1 and within the package retention', status: 400 },
  // Billing: catalogue and orders (docs/billing.md)
  'billing.not-found': { message: 'Not found in the billing catalogue', status: 404 },
  'billing.duplicate': { message: 'The catalogue already has an entry with this name, field, stage or code', status: 409 },
  'billing.in-use': { message: 'Orders name this package: withdraw it (status 0) instead of deleting it', status: 409 },
  'web.bad-bundle': {
    message: 'A console bundle is a .tar.gz of the built console with index.html at its top, without paths leaving it',
    status: 400,
  },
  'web.version-exists': { message: 'This console version already exists', status: 409 },
  'web.version-not-found': { message: 'Console version not found', status: 404 },
  'web.no-previous': { message: 'Nothing is released: the console built with the server is served', status: 409 },
  'web.manager-only': {
    message: 'Only a system manager releases a console version, rolls back, serves the built console or removes the served version',
    status: 403,
  },
  'web.bad-signature': {
    message: 'The bundle needs an Ed25519 signature (field signature, base64) matching WEB_BUNDLE_PUBLIC_KEY',
    status: 400,
  },
  'web.user-exists': { message: 'A web-deploy user with this name already exists', status: 409 },
  'web.user-not-found': { message: 'Web-deploy user not found', status: 404 },
  'web.login-failed': { message: 'Wrong user name or password', status: 401 },
  'web.user-locked': { message: 'Too many wrong passwords: try again in 15 minutes', status: 423 },
  'web.wrong-password': { message: 'The current password is wrong', status: 400 },
  'web.deploy-only': { message: 'A web-deploy session reaches only the web deployment (/out-web)', status: 403 },
  'order.not-found': { message: 'Order not found', status: 404 },
  'order.bad-state': { message: 'This action is not possible in the order’s current state', status: 409 },
  'order.not-for-sale': { message: 'This package or content is not for sale', status: 400 },
  'order.bad-input': { message: 'A package order names a package; a capacity order names the values wanted', status: 400 },
  'order.receipt-invalid': { message: 'A receipt is a PNG, JPEG or WebP image or a PDF', status: 415 },
  'order.receipt-too-large': { message: 'A receipt is at most 5 MB', status: 413 },
  'order.no-receipt': { message: 'No receipt has been uploaded for this order', status: 404 },
  'coupon.invalid': { message: 'The coupon does not exist, has expired, is used up or needs a larger order', status: 400 },
  'quick-delete.not-listed': {
    message: "Quick delete is only for the devices of the package's quick-delete list; go to the user centre to change it",
    status: 403,
  },
  'quick-delete.bad-range': { message: 'The start of the time range must be before its end', status: 400 },
  // Work orders
  'workorder.bad-transition': { message: 'This status change is not possible from the current status', status: 409 },
  'workorder.not-allowed': { message: 'This status change is made by the other side of the work order', status: 403 },
  'workorder.too-many-images': { message: 'At most 5 images per work order' },
  'workorder.image-invalid': { message: 'Only PNG, JPEG, GIF or WebP images are accepted', status: 415 },
  'workorder.image-too-large': { message: 'An image may be at most 2 MB', status: 413 },
  'workorder.image-unknown': { message: 'Image not found or already attached to another work order', status: 400 },
  'workorder.not-capacity': { message: 'Only a capacity request can be applied to the package', status: 400 },
  'workorder.already-applied': { message: 'This capacity request has already been applied', status: 409 },
  'workorder.not-open': { message: 'Replies are possible only while the work order is being handled', status: 409 },
  // Trigger rules and e-fences
  'alert.name-used': { message: 'Repeated rule name: a trigger rule with this name already exists', status: 409 },
  'alert.user-limit': { message: 'User limit: at most 20 trigger rules per user' },
  'alert.system-limit': { message: 'System limit: the package allows no more trigger rules' },
  'alert.rule-enabled': { message: 'Disable the trigger rule before deleting it', status: 409 },
  'alert.not-bound': { message: 'The CAN channel must be bound to a DBC file for a DBC signal rule', status: 400 },
  'alert.unknown-signal': { message: 'The bound DBC file has no such message or signal', status: 400 },
  'alert.unknown-fence': { message: 'E-fence not found', status: 404 },
  'alert.fence-not-bound': { message: 'The e-fence is not bound to this device', status: 400 },
  'alert.bad-rule': { message: 'The trigger rule is not valid' },
  'fence.name-used': { message: 'An e-fence with this name already exists', status: 409 },
  'fence.in-use': { message: 'The e-fence is used by trigger rules', status: 409 },
  // HMI screens
  'hmi.not-found': { message: 'HMI screen not found', status: 404 },
  'hmi.duplicate': { message: 'An HMI screen with this name already exists', status: 409 },
  'hmi.no-button': { message: 'The screen has no such button', status: 404 },
  'hmi.unknown-user': { message: 'Sub-user not found', status: 404 },
  'hmi.unknown-screen': { message: 'The list names a screen this tenant does not have', status: 400 },
  'hmi.unknown-signal': { message: 'The DBC bound to the channel has no such signal', status: 400 },
  'hmi.unknown-property': { message: "The device's model has no such property", status: 400 },
  // Dashboards
  'dashboard.not-found': { message: 'Dashboard not found', status: 404 },
  'dashboard.panel-limit': { message: `A dashboard holds at most ${MAX_PANELS} panels`, status: 409 },
  'dashboard.signal-count': {
    message: `A line panel shows 1 to ${MAX_PANEL_SIGNALS} signals, a number or gauge panel exactly 1`,
    status: 400,
  },
  'dashboard.duplicate-signal': { message: 'A signal is listed twice', status: 400 },
  'dashboard.not-bound': { message: 'The channel is not bound to a DBC file', status: 400 },
  'dashboard.unknown-signal': { message: 'The DBC bound to the channel has no such signal', status: 400 },
  'dashboard.bad-order': { message: 'The order must list panels of this dashboard, each once', status: 400 },
  // ECUs
  'ecu.bad-file': { message: 'The file could not be read', status: 400 },
  'ecu.no-firmware': { message: 'The ECU has no firmware package', status: 400 },
  'ecu.no-unlock': { message: 'The ECU has no unlock file', status: 400 },
  // Device-type data groups
  'device-type.group-name-taken': { message: 'A data group of this name already exists in the device type', status: 409 },
  'device-type.field-name-taken': { message: 'A field of this name already exists in the data group', status: 409 },
  'device-type.too-many': { message: 'Too many data groups or fields', status: 400 },
  // Firmware
  'firmware.bad-version': { message: 'Firmware version must be xx.xx.xx (1-2 digits each)' },
  'firmware.exists': { message: 'This firmware version already exists', status: 409 },
  'firmware.no-file': { message: 'Choose a firmware file', status: 400 },
  'firmware.wrong-model': { message: 'The device is of another type', status: 400 },
  'firmware.in-use': { message: 'The firmware is being installed on a device', status: 409 },
  'firmware.too-many-devices': { message: 'The group has more devices than one upgrade may name', status: 400 },
  // UDS diagnostics
  'uds.no-response': { message: 'The ECU did not answer', status: 504 },
  'uds.busy': { message: 'An ECU upgrade is already running on this channel', status: 409 },
  /** The ECU answered with a negative response; `details` holds `{ nrc, name }` (ISO 14229-1 NRC). */
  'uds.negative-response': { message: 'The ECU refused the request', status: 422 },
  // Notices
  'notice.bad-range': { message: 'The end time must be after the start time', status: 400 },
  'notice.upgrade-needs-window': { message: 'An upgrade notice needs a version, a start time and an end time', status: 400 },
  // Test management: scripts, routines, runs (docs/test-management.md)
  'test.runtime-unavailable': {
    message: 'The Groovy runtime is not installed on the server; enable it with: apt-get install -y groovy',
    status: 503,
  },
  'test.isolation-unavailable': {
    message:
      'Analysis scripts are not run: the server cannot contain them (install bubblewrap and allow its namespaces, see docs/security.md)',
    status: 503,
  },
  'test.script-name-used': { message: 'An analysis script with this name already exists', status: 409 },
  'test.script-in-use': { message: 'The analysis script is used by a routine: change or delete the routine first', status: 409 },
  'test.routine-name-used': { message: 'A test routine with this name already exists', status: 409 },
  'test.bad-import': { message: 'The file is not an analysis script (a .groovy file or an exported .json)', status: 400 },
  'test.not-cancellable': { message: 'Only a queued or running test can be cancelled', status: 409 },
  'test.too-many-devices': { message: 'The group has more devices than one start may run on', status: 400 },
  'test.run-active': { message: 'A running test cannot be deleted: cancel it first', status: 409 },
  /** Reasons a run ends with (stored as its reason_code; the console translates them). */
  'test.cancelled': { message: 'Cancelled by the user' },
  'test.step-failed': { message: 'The device did not carry out a step of the routine' },
  'test.too-much-data': { message: 'Too many frames to analyse: collect fewer channels or IDs, or a shorter time' },
  'test.limit-cpu': { message: 'The script used more CPU time than allowed' },
  'test.limit-wall': { message: 'The script ran longer than allowed' },
  'test.limit-memory': { message: 'The script used more memory than allowed' },
  'test.limit-output': { message: 'The script produced more output than allowed' },
  'test.script-rejected': { message: 'The script does not compile or uses something the sandbox forbids' },
  'test.script-error': { message: 'The script stopped with an error' },
  'test.worker-lost': { message: 'The analysis worker stopped unexpectedly' },
} as const satisfies Record<string, ErrorEntry>;

/** A code of the registry: the server's throw helpers take only these. */
export type ErrorCode = keyof typeof ErrorCodes;

/** The codes of one area, e.g. `CodesOf<'mapping'>`. */
export type CodesOf<Area extends string> = Extract<ErrorCode, `${Area}.${string}`>;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ErrorCodes, code);
}

/** The HTTP status a code is always sent with, if it has one. */
export function errorStatus(code: ErrorCode): number | undefined {
  return (ErrorCodes[code] as ErrorEntry).status;
}

/**
 * Close codes of the console's WebSockets when the server ends them: `sessionEnded` — logged out,
 * expired or password changed, sign in again (`auth.session-expired`, or `http.401` at connect);
 * `accessWithdrawn` — the account, its rights or devices, or its tenant changed: no longer allowed
 * (`auth.access-withdrawn`, or the refusal's own code). The socket sends `{t: "error", code, message}`
 * first. A client reconnects after any other close, never after these.
 */
export const SocketClose = { sessionEnded: 4401, accessWithdrawn: 4403 } as const;
export type SocketCloseCode = (typeof SocketClose)[keyof typeof SocketClose];

/** Default code for an HTTP status: `http.{status}` (spec §8). */
export function httpCode(status: number): string {
  return `http.${status}`;
}

/** The registry's text for a code; `iot-http.{status}` reads as `http.{status}`. */
export function defaultMessage(code: string): string {
  if (isErrorCode(code)) return ErrorCodes[code].message;
  const m = /^(?:iot-)?http\.(\d{3})$/.exec(code);
  if (m) {
    const http = `http.${m[1]}`;
    return isErrorCode(http) ? ErrorCodes[http].message : 'Error';
  }
  return 'Error unknown';
}

/**
 * Normalises whatever an error response carried into a list of `{code, message}`
 * as spec §8 describes: code defaults to `http.{status}` and is prefixed `iot-`
 * when it has no service prefix of its own.
 */
export function normaliseErrorBody(status: number, body: unknown): ErrorBody[] {
  const items = Array.isArray(body) ? body : body && typeof body === 'object' ? [body] : [];
  const out: ErrorBody[] = [];
  for (const raw of items) {
    const item = raw as Partial<ErrorBody>;
    const code = typeof item.code === 'string' && item.code ? item.code : httpCode(status);
    const message = typeof item.message === 'string' ? item.message : defaultMessage(code);
    out.push({ ...item, code, message } as ErrorBody);
  }
  if (out.length === 0) out.push({ code: httpCode(status), message: defaultMessage(httpCode(status)) });
  return out;
}
