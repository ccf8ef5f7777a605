import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { currentUserKey, rememberLogout } from '../../../lib/auth';

/** Asks for the export and saves it as a JSON file (the browser's download, named by the day). */
export function useDownloadMyData() {
  return useMutation({
    mutationFn: async () => {
      const data = await unwrap(api.GET('/api/users/profile/export'));
      const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `vrclink-my-data-${data.exportedAt.slice(0, 10)}.json`;
      document.body.append(link);
      link.click();
      link.remove();
      // Revoked after the click has handed the file to the browser.
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      return data;
    },
  });
}

/** Deletes the account (confirmed by the typed username); the session is gone, so every cached answer goes. */
export function useDeleteMyAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (username: string) => unwrap(api.DELETE('/api/users/profile', { body: { username } })),
    onSuccess: async () => {
      rememberLogout();
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== currentUserKey[0] });
      await queryClient.invalidateQueries({ queryKey: currentUserKey });
    },
  });
}
