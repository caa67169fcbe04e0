import { z } from 'zod';
import { OkSchema } from '../schemas/common.ts';
import {
  StatisticsHistoryPageSchema,
  StatisticsHistoryQuerySchema,
  StatisticsMethodInfoSchema,
  StatisticsResultCsvQuerySchema,
  StatisticsResultPageSchema,
  StatisticsResultQuerySchema,
  StatisticsRunResultSchema,
  StatisticsRunSchema,
  StatisticsTaskInputSchema,
  StatisticsTaskPageSchema,
  StatisticsTaskQuerySchema,
  StatisticsTaskSchema,
} from '../schemas/statistics.ts';
import { defineRoute, TenantIdParams, TenantParams } from './define.ts';

const base = '/data-mgmt/tenants/:tenant_id';
const tasks = `${base}/statistics-tasks`;

/** Statistics (spec §7 /data-mgmt): methods, tasks, results (list and CSV) and the history of runs. */
export const StatisticsRoutes = {
  methods: defineRoute({
    method: 'GET',
    path: '/data-mgmt/statistics-methods',
    response: z.array(StatisticsMethodInfoSchema),
    permission: 'data-mgmt:statistics-task:query',
  }),
  list: defineRoute({
    method: 'GET',
    path: tasks,
    params: TenantParams,
    query: StatisticsTaskQuerySchema,
    response: StatisticsTaskPageSchema,
    permission: 'data-mgmt:statistics-task:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: tasks,
    params: TenantParams,
    body: StatisticsTaskInputSchema,
    response: StatisticsTaskSchema,
    permission: 'data-mgmt:statistics-task:create',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${tasks}/:id`,
    params: TenantIdParams,
    response: StatisticsTaskSchema,
    permission: 'data-mgmt:statistics-task:query',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${tasks}/:id`,
    params: TenantIdParams,
    body: StatisticsTaskInputSchema,
    response: StatisticsTaskSchema,
    permission: 'data-mgmt:statistics-task:update',
  }),
  /** Status by value in the path (spec §4 status changes): 1 enabled, 0 disabled. */
  setStatus: defineRoute({
    method: 'PUT',
    path: `${tasks}/:id/status/:status`,
    params: TenantIdParams.extend({ status: z.coerce.number().int().min(0).max(1) }),
    response: StatisticsTaskSchema,
    permission: 'data-mgmt:statistics-task:updateStatus',
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${tasks}/:id`,
    params: TenantIdParams,
    response: OkSchema,
    permission: 'data-mgmt:statistics-task:delete',
  }),
  /** Computes (again) the task's windows within a range now: for past data, or after a correction. */
  run: defineRoute({
    method: 'POST',
    path: `${tasks}/:id/run`,
    params: TenantIdParams,
    body: StatisticsRunSchema,
    response: StatisticsRunResultSchema,
    permission: 'data-mgmt:statistics-task:execute',
  }),
  results: defineRoute({
    method: 'GET',
    path: `${base}/statistics-results`,
    params: TenantParams,
    query: StatisticsResultQuerySchema,
    response: StatisticsResultPageSchema,
    permission: 'data-mgmt:statistics-result:query',
  }),
  /** Answers the results as a CSV file (text/csv). */
  resultsCsv: defineRoute({
    method: 'GET',
    path: `${base}/statistics-results-csv-file`,
    params: TenantParams,
    query: StatisticsResultCsvQuerySchema,
    permission: 'data-mgmt:statistics-result:export',
  }),
  history: defineRoute({
    method: 'GET',
    path: `${base}/statistics-history`,
    params: TenantParams,
    query: StatisticsHistoryQuerySchema,
    response: StatisticsHistoryPageSchema,
    permission: 'data-mgmt:statistics-task:query',
  }),
};
