import { z } from 'zod';
import { requireUser } from '../../../http/auth.js';
import { routeSchemas } from '../../../http/route-schema.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import {
  adminStatus,
  recentJobs,
  scheduledTask,
  taskList,
  taskParams,
  vrchatState,
} from './admin.schemas.js';
import { recentJobs as readRecentJobs } from './recent-jobs.service.js';
import { listScheduledTasks, runScheduledTask, toggleScheduledTask } from './scheduled-tasks.service.js';
import { adminStatus as readStatus, retryVrchatLogin } from './status.service.js';

const route = routeSchemas({ tag: 'admin' });

/** The platform admin's page (/admin): scheduled tasks of every live process, platform and queue status. */
export async function adminRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/admin/scheduled-tasks/get_tasks',
    route({
      operationId: 'getScheduledTasks',
      description:
        'Platform admins only. Scheduled tasks of the live processes (a heartbeat within 60 s), ordered by api, container and task.',
      response: { 200: taskList },
    }),
    async (req) => listScheduledTasks(ctx, requireUser(req).user.id),
  );

  app.post(
    '/admin/scheduled-tasks/toggle/:api/:container/:taskName',
    route({
      operationId: 'toggleScheduledTask',
      description: 'Platform admins only. Flips Enabled; the owning process follows at its next tick.',
      params: taskParams,
      response: { 200: scheduledTask },
    }),
    async (req) => toggleScheduledTask(ctx, requireUser(req).user.id, req.params),
  );

  app.post(
    '/admin/scheduled-tasks/run/:api/:container/:taskName',
    route({
      operationId: 'runScheduledTask',
      description:
        'Platform admins only. Runs the task once now (also when disabled): its owner queues the job within about a second.',
      params: taskParams,
      response: { 200: scheduledTask },
    }),
    async (req) => runScheduledTask(ctx, requireUser(req).user.id, req.params),
  );

  app.get(
    '/admin/status',
    route({
      operationId: 'getAdminStatus',
      description:
        'Platform admins only. Per live process: VRChat session and Discord gateway state; job queue depth and failures in the last 24 hours.',
      response: { 200: adminStatus },
    }),
    async (req) => readStatus(ctx, requireUser(req).user.id),
  );

  app.get(
    '/admin/jobs/recent',
    route({
      operationId: 'getRecentJobs',
      description:
        'Platform admins only. The 50 newest jobs of every queue (waiting, running, finished and archived), newest first, with their outcome.',
      response: { 200: recentJobs },
    }),
    async (req) => readRecentJobs(ctx, requireUser(req).user.id),
  );

  app.post(
    '/admin/vrchat/retry-login',
    route({
      operationId: 'retryVrchatLogin',
      description:
        'Platform admins only. The answering process logs VRChat in again and answers its state; other processes report theirs in their heartbeat.',
      response: {
        200: z.object({ container: z.string(), vrchat: vrchatState }),
      },
    }),
    async (req) => retryVrchatLogin(ctx, requireUser(req).user.id),
  );
}
