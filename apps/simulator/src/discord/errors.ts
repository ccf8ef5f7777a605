/** A Discord API error with Discord's envelope `{code, message, errors?}`; the plugin's error handler sends it. */
export class DiscordApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: FieldErrors,
  ) {
    super(message);
  }

  get body(): { code: number; message: string; errors?: FieldErrors } {
    return { message: this.message, code: this.code, ...(this.errors ? { errors: this.errors } : {}) };
  }
}

/** Discord's nested field-error tree: `{name: {_errors: [{code, message}]}, options: {"0": {...}}}`. */
export interface FieldErrors {
  [key: string]: FieldErrors | { code: string; message: string }[];
}

export const unauthorized = () => new DiscordApiError(401, 0, '401: Unauthorized');
export const notFound = () => new DiscordApiError(404, 0, '404: Not Found');
export const unknownGuild = () => new DiscordApiError(404, 10004, 'Unknown Guild');
export const unknownChannel = () => new DiscordApiError(404, 10003, 'Unknown Channel');
export const unknownMember = () => new DiscordApiError(404, 10007, 'Unknown Member');
export const unknownMessage = () => new DiscordApiError(404, 10008, 'Unknown Message');
export const unknownRole = () => new DiscordApiError(404, 10011, 'Unknown Role');
export const unknownUser = () => new DiscordApiError(404, 10013, 'Unknown User');
export const unknownWebhook = () => new DiscordApiError(404, 10015, 'Unknown Webhook');
export const unknownCommand = () => new DiscordApiError(404, 10063, 'Unknown application command');
export const unknownInteraction = () => new DiscordApiError(404, 10062, 'Unknown interaction');
export const userBanned = () => new DiscordApiError(403, 40007, 'The user is banned from this guild.');
export const missingAccess = () => new DiscordApiError(403, 50001, 'Missing Access');
export const missingPermissions = () => new DiscordApiError(403, 50013, 'Missing Permissions');
export const notAuthorizedForApp = () =>
  new DiscordApiError(403, 20012, 'You are not authorized to perform this action on this application');
export const alreadyAcknowledged = () =>
  new DiscordApiError(400, 40060, 'Interaction has already been acknowledged.');
export const emptyMessage = () => new DiscordApiError(400, 50006, 'Cannot send an empty message');
export const invalidJson = () => new DiscordApiError(400, 50109, 'The request body contains invalid JSON.');

/** 50035 with one error per dotted path, e.g. `invalidForm({ 'options.0.name': ['BASE_TYPE_REQUIRED', 'This field is required'] })`. */
export function invalidForm(fields: Record<string, [code: string, message: string]>): DiscordApiError {
  const errors: FieldErrors = {};
  for (const [path, [code, message]] of Object.entries(fields)) {
    let node = errors;
    for (const part of path.split('.')) {
      node[part] ??= {};
      node = node[part] as FieldErrors;
    }
    node._errors ??= [];
    (node._errors as { code: string; message: string }[]).push({ code, message });
  }
  return new DiscordApiError(400, 50035, 'Invalid Form Body', errors);
}

/** An error of the simulator's own control API (plain `{message}` bodies, not Discord's envelope). */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
