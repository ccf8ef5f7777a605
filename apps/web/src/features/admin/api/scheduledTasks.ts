import { useMutation, useQueryClient } from '@tanstack/react-query';
import { polledRead } from '../../../api/cachedRead';
import { api, type Schemas, unwrap } from '../../../api/client';

export type ScheduledTask = Schemas['ScheduledTask'];
/** Identifies a task in its URLs; the client refuses a null or undefined part (spec section 5). */
export type TaskRef = { api?: string | null; container?: string | null; method?: string | null };

export const TASKS_REFRESH_MS = 1000;
export const scheduledTasksKey = ['admin', 'scheduled-tasks'] as const;

export const { query: scheduledTasksQuery, useRead: useScheduledTasks } = polledRead(
  scheduledTasksKey,
  () => unwrap(api.GET('/api/admin/scheduled-tasks/get_tasks')),
  TASKS_REFRESH_MS,
);

const pathOf = (task: TaskRef) =>
  ({ api: task.api, container: task.container, taskName: task.method }) as {
    api: string;
    container: string;
    taskName: string;
  };

export const toggleTask = (task: TaskRef) =>
  unwrap(
    api.POST('/api/admin/scheduled-tasks/toggle/{api}/{container}/{taskName}', {
      params: { path: pathOf(task) },
    }),
  );

export const runTask = (task: TaskRef) =>
  unwrap(
    api.POST('/api/admin/scheduled-tasks/run/{api}/{container}/{taskName}', {
      params: { path: pathOf(task) },
    }),
  );

/** Puts the task the server answered into the list at once, then refetches. */
function useTaskMutation(call: (task: TaskRef) => Promise<ScheduledTask>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (task) =>
      queryClient.setQueryData<{ tasks: ScheduledTask[] }>(scheduledTasksKey, (old) =>
        old
          ? {
              tasks: old.tasks.map((t) =>
                t.api === task.api && t.container === task.container && t.method === task.method ? task : t,
              ),
            }
          : old,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: scheduledTasksKey }),
  });
}

export const useToggleTask = () => useTaskMutation(toggleTask);
export const useRunTask = () => useTaskMutation(runTask);
