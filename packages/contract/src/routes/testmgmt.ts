import { OkSchema } from '../schemas/common.ts';
import {
  ReportCompareQuerySchema,
  ReportComparisonSchema,
  ReportExportQuerySchema,
  ScriptValidationSchema,
  ScriptVersionParams,
  TestReportSchema,
  TestRoutineInputSchema,
  TestRoutinePageSchema,
  TestRoutineQuerySchema,
  TestRoutineSchema,
  TestRunListSchema,
  TestRunPageSchema,
  TestRunQuerySchema,
  TestRunSchema,
  TestRunStartSchema,
  TestRuntimeSchema,
  TestScriptInputSchema,
  TestScriptPageSchema,
  TestScriptQuerySchema,
  TestScriptSchema,
  TestScriptValidateSchema,
  TestScriptVersionListSchema,
  TestScriptVersionSchema,
} from '../schemas/testmgmt.ts';
import { defineRoute, TenantIdParams, TenantParams } from './define.ts';

const base = '/test-mgmt/tenants/:tenant_id';

/**
 * Test management (TestManager, spec §1-§5): analysis scripts (Groovy) with versions, routines of
 * steps, runs on devices and their reports. Live run states: a `test-runs` subscription on the
 * console's live channel `/live?token=…` (docs/test-management.md).
 */
export const TestMgmtRoutes = {
  /** Whether the Groovy runtime is installed and its workers are up; how to enable it when not. */
  runtime: defineRoute({
    method: 'GET',
    path: '/test-mgmt/runtime',
    response: TestRuntimeSchema,
    signedIn: true,
  }),

  // Analysis scripts
  scripts: defineRoute({
    method: 'GET',
    path: `${base}/scripts`,
    params: TenantParams,
    query: TestScriptQuerySchema,
    response: TestScriptPageSchema,
    permission: 'test-mgmt:script:query',
  }),
  createScript: defineRoute({
    method: 'POST',
    path: `${base}/scripts`,
    params: TenantParams,
    body: TestScriptInputSchema,
    response: TestScriptSchema,
    permission: 'test-mgmt:script:create',
  }),
  /** Compiles a script without saving it: compile errors with line and column (also sandbox refusals). */
  validateScript: defineRoute({
    method: 'POST',
    path: `${base}/scripts/validate`,
    params: TenantParams,
    body: TestScriptValidateSchema,
    response: ScriptValidationSchema,
    permission: 'test-mgmt:script:validate',
  }),
  /** A `.groovy` file (named after the file) or a script's export file, as multipart `file`. */
  importScript: defineRoute({
    method: 'POST',
    path: `${base}/scripts/import`,
    params: TenantParams,
    response: TestScriptSchema,
    permission: 'test-mgmt:script:import',
  }),
  script: defineRoute({
    method: 'GET',
    path: `${base}/scripts/:id`,
    params: TenantIdParams,
    response: TestScriptSchema,
    permission: 'test-mgmt:script:query',
  }),
  /** Saves; a changed content becomes the next version. */
  updateScript: defineRoute({
    method: 'PUT',
    path: `${base}/scripts/:id`,
    params: TenantIdParams,
    body: TestScriptInputSchema,
    response: TestScriptSchema,
    permission: 'test-mgmt:script:update',
  }),
  /** Refused (409 test.script-in-use) while a routine uses the script. */
  deleteScript: defineRoute({
    method: 'DELETE',
    path: `${base}/scripts/:id`,
    params: TenantIdParams,
    response: OkSchema,
    permission: 'test-mgmt:script:delete',
  }),
  scriptVersions: defineRoute({
    method: 'GET',
    path: `${base}/scripts/:id/versions`,
    params: TenantIdParams,
    response: TestScriptVersionListSchema,
    permission: 'test-mgmt:script:query',
  }),
  scriptVersion: defineRoute({
    method: 'GET',
    path: `${base}/scripts/:id/versions/:version`,
    params: ScriptVersionParams,
    response: TestScriptVersionSchema,
    permission: 'test-mgmt:script:query',
  }),
  /** The script as a JSON file (`loggerhead-test-script/1`: name, notes, content, version). */
  exportScript: defineRoute({
    method: 'GET',
    path: `${base}/scripts/:id/export`,
    params: TenantIdParams,
    permission: 'test-mgmt:script:export',
  }),

  // Routines
  routines: defineRoute({
    method: 'GET',
    path: `${base}/routines`,
    params: TenantParams,
    query: TestRoutineQuerySchema,
    response: TestRoutinePageSchema,
    permission: 'test-mgmt:routine:query',
  }),
  createRoutine: defineRoute({
    method: 'POST',
    path: `${base}/routines`,
    params: TenantParams,
    body: TestRoutineInputSchema,
    response: TestRoutineSchema,
    permission: 'test-mgmt:routine:create',
  }),
  routine: defineRoute({
    method: 'GET',
    path: `${base}/routines/:id`,
    params: TenantIdParams,
    response: TestRoutineSchema,
    permission: 'test-mgmt:routine:query',
  }),
  updateRoutine: defineRoute({
    method: 'PUT',
    path: `${base}/routines/:id`,
    params: TenantIdParams,
    body: TestRoutineInputSchema,
    response: TestRoutineSchema,
    permission: 'test-mgmt:routine:update',
  }),
  deleteRoutine: defineRoute({
    method: 'DELETE',
    path: `${base}/routines/:id`,
    params: TenantIdParams,
    response: OkSchema,
    permission: 'test-mgmt:routine:delete',
  }),

  // Runs and reports
  /** Starts a routine on each device (queued behind the device's running test), or a dry run over history. */
  startRuns: defineRoute({
    method: 'POST',
    path: `${base}/runs`,
    params: TenantParams,
    body: TestRunStartSchema,
    response: TestRunListSchema,
    permission: 'test-mgmt:run:execute',
  }),
  /** Runs of the devices the caller may read; filter by routine, device, batch, state, verdict, start time. */
  runs: defineRoute({
    method: 'GET',
    path: `${base}/runs`,
    params: TenantParams,
    query: TestRunQuerySchema,
    response: TestRunPageSchema,
    permission: 'test-mgmt:run:query',
  }),
  run: defineRoute({
    method: 'GET',
    path: `${base}/runs/:id`,
    params: TenantIdParams,
    response: TestRunSchema,
    permission: 'test-mgmt:run:query',
  }),
  cancelRun: defineRoute({
    method: 'POST',
    path: `${base}/runs/:id/cancel`,
    params: TenantIdParams,
    response: TestRunSchema,
    permission: 'test-mgmt:run:cancel',
  }),
  /** A finished run and its report (409 test.run-active while it runs). */
  deleteRun: defineRoute({
    method: 'DELETE',
    path: `${base}/runs/:id`,
    params: TenantIdParams,
    response: OkSchema,
    permission: 'test-mgmt:run:delete',
  }),
  /** The report of an analysed run (404 before the analysis ends). */
  report: defineRoute({
    method: 'GET',
    path: `${base}/runs/:id/report`,
    params: TenantIdParams,
    response: TestReportSchema,
    permission: 'test-mgmt:run:query',
  }),
  /** Two runs' reports side by side: metrics (with B − A), checks, parameters and verdicts by name. */
  compareReports: defineRoute({
    method: 'GET',
    path: `${base}/reports/compare`,
    params: TenantParams,
    query: ReportCompareQuerySchema,
    response: ReportComparisonSchema,
    permission: 'test-mgmt:run:query',
  }),
  /** The report as an HTML page or a CSV file (metrics, checks, tables). */
  exportReport: defineRoute({
    method: 'GET',
    path: `${base}/runs/:id/report/export`,
    params: TenantIdParams,
    query: ReportExportQuerySchema,
    permission: 'test-mgmt:run:export',
  }),
};
