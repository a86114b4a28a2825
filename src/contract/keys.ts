import { z } from 'zod';

// Platform keys (agents present them at the proxy) and workspace keys (named upstream secrets),
// SPEC §7 "Platform keys" and "Workspace keys". docs/access.md explains both.

/** Every platform key starts with this, so secret scanners (and people) recognise one. */
export const PLATFORM_KEY_PREFIX = 'tsk_';
/** The header for agents whose Authorization header is taken by their upstream. */
export const PLATFORM_KEY_HEADER = 'X-Toolscope-Key';
/** SPEC §3: revoking sends a reason, defaulting to this. */
export const DEFAULT_REVOKE_REASON = 'Revoked by user';

export const PLATFORM_KEY_STATUSES = ['active', 'expired', 'revoked'] as const;
export type PlatformKeyStatus = (typeof PLATFORM_KEY_STATUSES)[number];
/** Why the proxy refused a presented key. */
export const KEY_REFUSAL_REASONS = ['unknown', 'revoked', 'expired', 'out_of_scope'] as const;
export type KeyRefusalReason = (typeof KEY_REFUSAL_REASONS)[number];

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'Must be a server id');

export const PlatformKeyScopes = z.object({
  /** true: every server of the workspace, now and later. */
  allServers: z.boolean(),
  /** The servers the key may call when allServers is false. */
  serverIds: z.array(uuid).max(200, 'At most 200 servers'),
});
export type PlatformKeyScopes = z.infer<typeof PlatformKeyScopes>;

export const KeyRefusalDto = z.object({
  reason: z.enum(KEY_REFUSAL_REASONS),
  serverId: z.string().nullable(),
  /** Refusals of the same reason and server within one second are counted together. */
  count: z.number().int(),
  at: z.string(),
});
export type KeyRefusalDto = z.infer<typeof KeyRefusalDto>;

export const PlatformKeyDto = z.object({
  id: z.string(),
  name: z.string(),
  /** 'tsk_' + the secret's first 8 characters. */
  prefix: z.string(),
  scopes: PlatformKeyScopes,
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  createdByName: z.string().nullable(),
  updatedAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokeReason: z.string().nullable(),
  status: z.enum(PLATFORM_KEY_STATUSES),
  /** Refused uses, newest first (at most 20). */
  refusals: z.array(KeyRefusalDto),
});
export type PlatformKeyDto = z.infer<typeof PlatformKeyDto>;

export const PlatformKeyListResult = z.object({
  keys: z.array(PlatformKeyDto),
  /** Recent refusals of keys this workspace never issued (a typo, or someone guessing), newest first. */
  unknownKeyRefusals: z.array(KeyRefusalDto.extend({ presentedPrefix: z.string().nullable() })),
});
export type PlatformKeyListResult = z.infer<typeof PlatformKeyListResult>;

const KeyName = z.string().trim().min(1, 'Name is required').max(100, 'At most 100 characters');
const ExpiresAt = z
  .string()
  .check(z.iso.datetime({ offset: true, error: 'Must be an ISO date and time' }))
  .refine((value) => Date.parse(value) > Date.now(), 'Must be in the future')
  .nullable();

export const CreatePlatformKeyBody = z.object({
  name: KeyName,
  scopes: PlatformKeyScopes.optional().default({ allServers: true, serverIds: [] }),
  expiresAt: ExpiresAt.optional().default(null),
});
export type CreatePlatformKeyBody = z.input<typeof CreatePlatformKeyBody>;

/** The created key and, this once, its secret. */
export const CreatedPlatformKeyDto = PlatformKeyDto.extend({ secret: z.string() });
export type CreatedPlatformKeyDto = z.infer<typeof CreatedPlatformKeyDto>;

export const UpdatePlatformKeyBody = z.object({
  name: KeyName.optional(),
  scopes: PlatformKeyScopes.optional(),
  /** null: never expires. */
  expiresAt: ExpiresAt.optional(),
});
export type UpdatePlatformKeyBody = z.input<typeof UpdatePlatformKeyBody>;

export const RevokePlatformKeyBody = z
  .object({ reason: z.string().trim().max(500, 'At most 500 characters').optional() })
  // DELETE may come without a body at all.
  .nullish();
export type RevokePlatformKeyBody = z.input<typeof RevokePlatformKeyBody>;

// Workspace keys -----------------------------------------------------------------------------

/** `{{key:NAME}}` in a server's upstream header values names a workspace key. */
export const WORKSPACE_KEY_REFERENCE = /\{\{key:([A-Za-z_][A-Za-z0-9_]{0,63})\}\}/g;
export const WORKSPACE_KEY_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** The names a header value references. */
export function referencedKeyNames(value: string): string[] {
  return [...value.matchAll(WORKSPACE_KEY_REFERENCE)].map((match) => match[1]);
}

/**
 * Where a workspace key may be sent: a host name or address (any port) or `host:port` (that port
 * only); IPv6 in brackets. Compared with the destination URL's host, lower case.
 */
export const KeyHost = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/,
    'A host name or address, optionally with :port',
  )
  .max(260);
export const KeyHosts = z.array(KeyHost).max(50, 'At most 50 hosts');

export const WorkspaceKeyDto = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** The hosts the key may be sent to; a server elsewhere cannot use it. */
  allowedHosts: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** Servers whose upstream headers reference this key. */
  usedBy: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type WorkspaceKeyDto = z.infer<typeof WorkspaceKeyDto>;
export const WorkspaceKeyListResult = z.object({ keys: z.array(WorkspaceKeyDto) });

const KeyValue = z
  .string()
  .min(1, 'Value is required')
  .max(8192, 'At most 8192 characters')
  .refine((v) => !/[\r\n\0]/.test(v), 'Must be one line (it is sent in a header)');

export const CreateWorkspaceKeyBody = z.object({
  name: z.string().trim().regex(WORKSPACE_KEY_NAME, 'Letters, digits and _, not starting with a digit (at most 64)'),
  value: KeyValue,
  description: z.string().trim().max(500, 'At most 500 characters').optional().default(''),
  /** Set by whoever creates the key; only an owner changes them later (PUT …/keys/{id}/hosts). */
  allowedHosts: KeyHosts.optional().default([]),
});
export type CreateWorkspaceKeyBody = z.input<typeof CreateWorkspaceKeyBody>;

/** `value` rotates the key; `description` edits it. */
export const UpdateWorkspaceKeyBody = z
  .object({ value: KeyValue.optional(), description: z.string().trim().max(500, 'At most 500 characters').optional() })
  .refine((b) => b.value !== undefined || b.description !== undefined, 'Give a value or a description');
export type UpdateWorkspaceKeyBody = z.input<typeof UpdateWorkspaceKeyBody>;

export const WorkspaceKeyHostsBody = z.object({ allowedHosts: KeyHosts });
export type WorkspaceKeyHostsBody = z.input<typeof WorkspaceKeyHostsBody>;

export const PlatformKeyParams = z.object({ workspaceId: z.string(), keyId: z.string() });
