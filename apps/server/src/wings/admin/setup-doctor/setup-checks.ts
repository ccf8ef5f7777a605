/** One thing the setup doctor looked at; `problem` and `fix` are sentences, null when `ok`. */
export interface SetupCheck {
  id: string;
  area: 'discord' | 'vrchat';
  /** What was checked, e.g. 'Manage Roles'. */
  title: string;
  ok: boolean;
  problem: string | null;
  fix: string | null;
}

export const passed = (area: SetupCheck['area'], id: string, title: string): SetupCheck => ({
  id,
  area,
  title,
  ok: true,
  problem: null,
  fix: null,
});

export const failed = (
  area: SetupCheck['area'],
  id: string,
  title: string,
  problem: string,
  fix: string,
): SetupCheck => ({ id, area, title, ok: false, problem, fix });

/** A check whose platform did not answer in time (or failed): it is not passed, and says so. */
export const unknown = (area: SetupCheck['area'], id: string, title: string): SetupCheck =>
  failed(
    area,
    id,
    title,
    `${area === 'discord' ? 'Discord' : 'VRChat'} did not answer in time, so this could not be checked.`,
    'Check again in a minute.',
  );

/** Rejects when `promise` takes longer than `ms` (the call itself is left to finish on its own). */
export async function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
