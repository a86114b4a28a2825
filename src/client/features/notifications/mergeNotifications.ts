import type { NotificationDto } from '../../../contract/notifications';

/**
 * What the bell lists: the fetched page and the live buffer together, one entry per id (the copy
 * with the later occurrence wins; on a tie the fetched one, which reflects the last change made),
 * latest first. Live entries of other workspaces are left out; account-level ones (no workspace)
 * belong everywhere.
 */
export function mergeNotifications(
  fetched: readonly NotificationDto[],
  live: readonly NotificationDto[],
  workspaceId: string | null,
  limit: number,
): NotificationDto[] {
  const byId = new Map<string, NotificationDto>();
  for (const n of fetched) byId.set(n.id, n);
  for (const n of live) {
    if (n.isArchived) continue;
    if (workspaceId && n.workspaceId !== null && n.workspaceId !== workspaceId) continue;
    const known = byId.get(n.id);
    if (!known || Date.parse(n.updatedAt) > Date.parse(known.updatedAt)) byId.set(n.id, n);
  }
  return [...byId.values()].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt)).slice(0, limit);
}

/** SPEC §2/§9: the badge caps at '99+'; nothing shows at 0. */
export function formatUnreadBadge(count: number, cap: number): string | null {
  if (count <= 0) return null;
  return count > cap ? `${cap}+` : String(count);
}
