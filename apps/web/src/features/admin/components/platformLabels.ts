import type { VrchatState } from '../api/adminStatus';

/** VRChat session state as an operator reads it. */
export function vrchatLabel(state: VrchatState | null | undefined): { text: string; color: string } {
  switch (state?.status) {
    case 'ok':
      return { text: 'Logged in', color: 'green' };
    case 'needs_2fa':
      return { text: 'Needs 2FA', color: 'orange' };
    case 'rate_limited':
      return {
        text: state.rateLimitedUntil
          ? `Rate-limited until ${new Date(state.rateLimitedUntil).toLocaleTimeString()}`
          : 'Rate-limited',
        color: 'orange',
      };
    case 'unreachable':
      return { text: 'Unreachable', color: 'red' };
    case 'login_failed':
      return { text: 'Login failed', color: 'red' };
    case 'logged_out':
      return { text: 'Logged out', color: 'gray' };
    default:
      return { text: 'Unknown', color: 'gray' };
  }
}

const gatewayLabels: Record<string, { text: string; color: string }> = {
  ready: { text: 'Connected', color: 'green' },
  connecting: { text: 'Connecting', color: 'blue' },
  disconnected: { text: 'Disconnected', color: 'red' },
  standby: { text: 'Standby', color: 'gray' },
  off: { text: 'Off', color: 'gray' },
};

/** Discord gateway state; 'Off' for processes without the bot role. */
export const gatewayLabel = (state: string) => gatewayLabels[state] ?? { text: state, color: 'gray' };
