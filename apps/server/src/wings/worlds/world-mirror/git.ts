import { execFile } from 'node:child_process';
import { join } from 'node:path';

/** The git CLI; every call gives up after this long (a network push that hangs must not hold the lock). */
const GIT = '/usr/bin/git';
const GIT_TIMEOUT_MS = 120_000;

/** Removes credentials from a URL or a message quoting one (`https://user:token@host` → `https://***@host`). */
export function redact(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, '$1***@');
}

export interface GitRemote {
  url: string;
  sshKeyFile: string | null;
  /** Where a known_hosts file for SSH remotes is kept. */
  stateDir: string;
}

/**
 * The environment git runs in: the remote is `origin`, given through GIT_CONFIG_* variables so a token in
 * its URL is neither written to .git/config nor visible in the process list; never prompting for a password.
 */
export function gitEnv(remote: GitRemote): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'remote.origin.url',
    GIT_CONFIG_VALUE_0: remote.url,
  };
  if (remote.sshKeyFile) {
    const knownHosts = join(remote.stateDir, 'known_hosts');
    env.GIT_SSH_COMMAND = `ssh -i '${remote.sshKeyFile}' -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=accept-new -o UserKnownHostsFile='${knownHosts}'`;
  }
  return env;
}

/** The environment for a repository on this machine (the demo's bare repository). */
export const localGitEnv = (path: string) => gitEnv({ url: path, sshKeyFile: null, stateDir: path });

export class GitError extends Error {}

/** Runs git in `cwd`; answers stdout. A failure throws a GitError with git's own words, credentials removed. */
export function git(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      GIT,
      args,
      { cwd, env, timeout: GIT_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const said = stderr.trim() || err.message;
        const timedOut = err.killed ? ` (no answer within ${GIT_TIMEOUT_MS / 1000} s)` : '';
        reject(new GitError(redact(`git ${args[0]} failed${timedOut}: ${said}`)));
      },
    );
  });
}
