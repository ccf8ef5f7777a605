/** OAuth2 scopes Discord knows (the spec's securitySchemes list); anything else is "Invalid scope". */
export const KNOWN_SCOPES = new Set([
  'activities.invites.write',
  'activities.read',
  'activities.write',
  'applications.builds.read',
  'applications.builds.upload',
  'applications.commands',
  'applications.commands.permissions.update',
  'applications.commands.update',
  'applications.entitlements',
  'applications.store.update',
  'bot',
  'connections',
  'dm_channels.read',
  'email',
  'gdm.join',
  'guilds',
  'guilds.join',
  'guilds.members.read',
  'identify',
  'messages.read',
  'openid',
  'relationships.read',
  'role_connections.write',
  'rpc',
  'rpc.activities.write',
  'rpc.notifications.read',
  'rpc.voice.read',
  'rpc.voice.write',
  'voice',
  'webhook.incoming',
]);

/** Scopes a client_credentials token may carry (it acts as the app owner). */
export const CLIENT_CREDENTIAL_SCOPES = new Set([
  'identify',
  'email',
  'connections',
  'guilds',
  'guilds.members.read',
  'applications.commands.update',
  'applications.commands.permissions.update',
  'applications.entitlements',
  'role_connections.write',
]);

/** Scopes that only install things (no user token needed). */
export const INSTALL_ONLY_SCOPES = new Set(['bot', 'applications.commands']);

export const parseScopes = (raw: unknown): string[] =>
  typeof raw === 'string' ? [...new Set(raw.split(/[\s+]+/).filter(Boolean))] : [];
