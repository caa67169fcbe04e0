import { ErrorCodes, isErrorCode } from '@loggerhead/contract/errors.ts';
import { defineCatalogue } from '../i18n/catalogue.ts';

/**
 * What an ECU's negative response code means (ISO 14229-1 Annex A), by the NRC's name
 * (`Nrc` of the CAN package): the console shows it with `uds.negative-response`.
 */
const nrcText: Record<string, { zh: string; en: string }> = {
  generalReject: { zh: '一般拒绝', en: 'General reject' },
  serviceNotSupported: { zh: '不支持该服务', en: 'Service not supported' },
  subFunctionNotSupported: { zh: '不支持该子功能', en: 'Sub-function not supported' },
  incorrectMessageLengthOrInvalidFormat: { zh: '报文长度错误或格式无效', en: 'Incorrect message length or invalid format' },
  responseTooLong: { zh: '响应过长', en: 'Response too long' },
  busyRepeatRequest: { zh: 'ECU 忙，请重试', en: 'Busy, repeat the request' },
  conditionsNotCorrect: { zh: '条件不满足', en: 'Conditions not correct' },
  requestSequenceError: { zh: '请求顺序错误', en: 'Request sequence error' },
  noResponseFromSubnetComponent: { zh: '子网组件无响应', en: 'No response from a sub-net component' },
  failurePreventsExecutionOfRequestedAction: { zh: '故障导致无法执行请求', en: 'A failure prevents the requested action' },
  requestOutOfRange: { zh: '请求超出范围', en: 'Request out of range' },
  securityAccessDenied: { zh: '安全访问被拒绝', en: 'Security access denied' },
  invalidKey: { zh: '密钥无效', en: 'Invalid key' },
  exceededNumberOfAttempts: { zh: '超过尝试次数', en: 'Exceeded number of attempts' },
  requiredTimeDelayNotExpired: { zh: '所需延时未到', en: 'Required time delay not expired' },
  uploadDownloadNotAccepted: { zh: '不接受上传/下载', en: 'Upload or download not accepted' },
  transferDataSuspended: { zh: '数据传输已暂停', en: 'Transfer data suspended' },
  generalProgrammingFailure: { zh: '一般编程失败', en: 'General programming failure' },
  wrongBlockSequenceCounter: { zh: '块序号错误', en: 'Wrong block sequence counter' },
  requestCorrectlyReceivedResponsePending: { zh: '请求已正确接收，响应等待中', en: 'Request received, response pending' },
  subFunctionNotSupportedInActiveSession: { zh: '当前会话不支持该子功能', en: 'Sub-function not supported in the active session' },
  serviceNotSupportedInActiveSession: { zh: '当前会话不支持该服务', en: 'Service not supported in the active session' },
};

/**
 * Text for error codes (spec §8) and for the negative answers of an ECU. The codes are those of
 * the contract's registry (`ErrorCodes`): Chinese is written here, English is the registry's
 * default text, so the wording lives in one place. A feature may keep the `errors.*` keys of its
 * own codes in its own catalogue instead (both languages there); a test checks that every code of
 * the registry has both.
 */
const zh: Record<string, string> = {
  'errors.unknown': '未知错误',
  'errors.NO_RESPONSE': '服务器无响应，请检查网络后重试',
  'errors.SETUP_ERROR': '请求发送失败',
  'errors.001': '请输入用户名或区号和手机号',
  'errors.002': '请输入手机号',
  'errors.003': '登录名须为 2-65 位字母、数字、下划线或 @',
  'errors.004': '手机号位数不正确',
  'errors.005': '密码须为 8-16 位，不能包含中文和空格',
  'errors.006': '请输入密码',
  'errors.007': '该手机号已注册',
  'errors.008': '用户名须为 2-20 位字母、数字或下划线，且不能以数字开头',
  'errors.009': '该用户名已存在',
  'errors.010': '密码至少包含大写字母、小写字母、数字、特殊字符中的两种',
  'errors.011': '两次输入的密码不一致',
  'errors.012': '请确认密码',
  'errors.013': '请输入用户名',
  'errors.014': '请输入 6 位验证码',
  'errors.015': '邮箱格式不正确',
  'errors.016': '该邮箱已注册',
  'errors.017': '请输入邮箱',
  'errors.018': '手机验证码无效或已过期，请重新获取',
  'errors.019': '邮箱验证码无效或已过期，请重新获取',
  'errors.020': '商户 ID 无效',
  'errors.021': '请输入 6 位验证码',
  'errors.022': '请输入登录密码',
  'errors.iot-http.409': '账号冲突，请联系管理员',
  'errors.iot-tenant.10016': '该账号尚未审核',
  'errors.can-dtu.10005': '故障码文件不存在',
  'errors.connection.10000': '连接名称已存在',
  'errors.iot-things.999991': '统计设备类型下的设备失败',
  'errors.can-dtu-10011': '故障码文件正在使用中',
  'errors.can-dtu-10012': '名称已被使用',
  'errors.auth.bad-credentials': '用户名或密码错误',
  'errors.auth.bad-code': '验证码错误',
  'errors.auth.phone-not-registered': '手机号未注册',
  'errors.auth.locked': '该登录名失败次数过多，请几分钟后再试',
  'errors.auth.session-expired': '登录已失效，请重新登录',
  'errors.auth.access-withdrawn': '访问权限已收回：账号、其权限或设备、或所属租户已变更',
  'errors.quota.limit-reached': '已达上限，请前往用户中心升级',
  'errors.things.duplicate-id': '已存在相同 ID 的设备',
  'errors.things.invalid-id': '设备 ID 须为 20 位大写十六进制字符',
  'errors.things.offline': '设备离线，无法升级',
  'errors.things.busy': '重复操作：请等待当前升级完成',
  'errors.data.over-10000': '数据超过 10000 条，请缩小查询范围',
  'errors.uds.canfd-not-supported': '该设备的 UDS 不支持 CAN FD',
  'errors.rate.limited': '请求过于频繁，请稍后再试',
  'errors.code.too-soon': '验证码发送不足 60 秒，请稍后再试',
  'errors.auth.password-error': '密码错误',
  'errors.register.merchant-closed': '商户注册已关闭，请通过邮件联系我们',
  'errors.notify.failed': '消息发送失败，请稍后再试',
  'errors.oidc.disabled': '未配置第三方登录',
  'errors.oidc.not-linked': '该第三方账号未绑定任何账号：请先用密码登录，在个人中心绑定后再使用',
  'errors.oidc.already-linked': '该第三方账号已绑定其他账号',
  'errors.oidc.expired': '第三方登录超时或已使用，请重试',
  'errors.oidc.failed': '第三方登录失败，请重试',
  'errors.saveMax': '最多可选择 30 列',
  'errors.things.invalid-vin': 'VIN 须为 17 位数字和字母（不含 I、O、Q）',
  'errors.things.duplicate-vin': '已存在相同 VIN 的车辆',
  'errors.things.unknown-type': '未知的设备类型',
  'errors.things.bad-channel': '设备没有该 CAN 通道',
  'errors.data.bad-range': '结束时间须晚于开始时间',
  'errors.data.bad-format': '文件不是支持的日志格式（candump -L、Vector ASC、BLF、PEAK TRC 或 ASAM MF4，也可为 gzip 压缩）',
  'errors.data.not-ready': '导出尚未完成',
  'errors.job.interrupted': '因服务器重启而中断',
  'errors.data.export-limit': '体验账号每次最多导出一小时的数据，请缩短时间范围',
  'errors.data.export-busy': '您还有导出正在进行，请等待完成或取消后再试',
  'errors.http.400': '请求参数错误',
  'errors.http.401': '未登录或登录已过期',
  'errors.http.403': '无权访问',
  'errors.http.404': '请求的资源不存在',
  'errors.http.409': '数据冲突',
  'errors.http.413': '上传内容过大',
  'errors.http.415': '不支持的文件类型',
  'errors.http.422': '无法处理的请求',
  'errors.http.423': '暂时锁定',
  'errors.http.429': '请求过于频繁',
  'errors.http.500': '服务器内部错误',
  'errors.http.502': '网关错误',
  'errors.http.503': '服务暂不可用',
  'errors.http.504': '网关超时',
  'errors.mapping.backfill-running': '该通道已存储的帧正在解析中',
  'errors.mapping.backfill-range': '回填时间范围的开始须早于结束，且早于当前时间',
  'errors.mapping.backfill-none': '该通道没有正在进行的回填',
  'errors.firmware.wrong-model': '设备属于其他设备类型',
  'errors.notice.bad-range': '结束时间须晚于开始时间',
  'errors.notice.upgrade-needs-window': '升级公告须填写版本、开始时间和结束时间',
  'errors.uds.negative-response': 'ECU 拒绝了该请求',
  ...Object.fromEntries(Object.entries(nrcText).map(([name, text]) => [`errors.nrc.${name}`, text.zh])),
};

/** English: the registry's text for every code written above, and the few keys that are no code. */
const en: Record<string, string> = {
  'errors.unknown': 'Error unknown',
  'errors.NO_RESPONSE': 'The server did not answer; check the network and try again',
  'errors.SETUP_ERROR': 'The request could not be sent',
  'errors.http.423': 'Locked for a while',
  'errors.http.502': 'Bad gateway',
  'errors.http.504': 'Gateway time-out',
  ...Object.fromEntries(
    Object.keys(zh)
      .map((key) => key.slice('errors.'.length))
      .filter(isErrorCode)
      .map((code) => [`errors.${code}`, ErrorCodes[code].message]),
  ),
  ...Object.fromEntries(Object.entries(nrcText).map(([name, text]) => [`errors.nrc.${name}`, text.en])),
};

export default defineCatalogue({ zh, en });
