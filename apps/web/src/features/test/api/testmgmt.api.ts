import { type RouteBody, type RouteQuery, type RouteResponse, Routes, routePath } from '@loggerhead/contract/routes/index.ts';
import { call } from '../../../api/client.ts';
import { fetchFile } from '../../../components/data-view/file-download.ts';

const R = Routes.testmgmt;

export type ScriptInput = RouteBody<typeof R.createScript>;
export type RoutineInput = RouteBody<typeof R.createRoutine>;
export type RunStart = RouteBody<typeof R.startRuns>;
export type RunQuery = NonNullable<RouteQuery<typeof R.runs>>;
export type ScriptPage = RouteResponse<typeof R.scripts>;

/** Test management (docs/test-management.md): scripts, routines, runs and reports of one tenant. */
export const testApi = {
  runtime: (signal?: AbortSignal) => call(R.runtime, { signal }),

  scripts: (tenantId: string, query: NonNullable<RouteQuery<typeof R.scripts>>, signal?: AbortSignal) =>
    call(R.scripts, { params: { tenant_id: tenantId }, query, signal }),
  script: (tenantId: string, id: string, signal?: AbortSignal) => call(R.script, { params: { tenant_id: tenantId, id }, signal }),
  createScript: (tenantId: string, body: ScriptInput) => call(R.createScript, { params: { tenant_id: tenantId }, body }),
  updateScript: (tenantId: string, id: string, body: ScriptInput) => call(R.updateScript, { params: { tenant_id: tenantId, id }, body }),
  deleteScript: (tenantId: string, id: string) => call(R.deleteScript, { params: { tenant_id: tenantId, id } }),
  validateScript: (tenantId: string, content: string) => call(R.validateScript, { params: { tenant_id: tenantId }, body: { content } }),
  scriptVersions: (tenantId: string, id: string, signal?: AbortSignal) =>
    call(R.scriptVersions, { params: { tenant_id: tenantId, id }, signal }),
  scriptVersion: (tenantId: string, id: string, version: number) => call(R.scriptVersion, { params: { tenant_id: tenantId, id, version } }),
  importScript: (tenantId: string, file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return call(R.importScript, { params: { tenant_id: tenantId }, body: form });
  },
  exportScript: (tenantId: string, id: string) =>
    fetchFile(routePath(R.exportScript, { tenant_id: tenantId, id }), {
      permission: R.exportScript.permission,
      fallbackName: 'script.json',
    }),

  routines: (tenantId: string, query: NonNullable<RouteQuery<typeof R.routines>>, signal?: AbortSignal) =>
    call(R.routines, { params: { tenant_id: tenantId }, query, signal }),
  createRoutine: (tenantId: string, body: RoutineInput) => call(R.createRoutine, { params: { tenant_id: tenantId }, body }),
  updateRoutine: (tenantId: string, id: string, body: RoutineInput) => call(R.updateRoutine, { params: { tenant_id: tenantId, id }, body }),
  deleteRoutine: (tenantId: string, id: string) => call(R.deleteRoutine, { params: { tenant_id: tenantId, id } }),

  startRuns: (tenantId: string, body: RunStart) => call(R.startRuns, { params: { tenant_id: tenantId }, body }),
  /** The tenant's device groups a run may start on (the device groups' own list route). */
  groups: (tenantId: string, keyword: string | undefined, signal?: AbortSignal) =>
    call(Routes.groups.list, { params: { tenant_id: tenantId }, query: { current_page: 1, page_size: 100, keyword }, signal }),
  runs: (tenantId: string, query: RunQuery, signal?: AbortSignal) => call(R.runs, { params: { tenant_id: tenantId }, query, signal }),
  cancelRun: (tenantId: string, id: string) => call(R.cancelRun, { params: { tenant_id: tenantId, id } }),
  deleteRun: (tenantId: string, id: string) => call(R.deleteRun, { params: { tenant_id: tenantId, id } }),
  report: (tenantId: string, id: string, signal?: AbortSignal) => call(R.report, { params: { tenant_id: tenantId, id }, signal }),
  compareReports: (tenantId: string, a: string, b: string, signal?: AbortSignal) =>
    call(R.compareReports, { params: { tenant_id: tenantId }, query: { a, b }, signal }),
  exportReport: (tenantId: string, id: string, format: 'html' | 'csv') =>
    fetchFile(routePath(R.exportReport, { tenant_id: tenantId, id }), {
      query: { format },
      permission: R.exportReport.permission,
      fallbackName: `report.${format}`,
    }),
};
