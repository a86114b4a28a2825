import type { Queryable } from '../../db/database';
import { teamWorkspaceText, workspaceLimitText, type CanCreateWorkspaceResult } from '../../../contract/billing';
import { planById } from '../../../contract/plans';
import type { WorkspaceType } from '../../../contract/workspaces';
import { countOwnedWorkspaces } from '../workspaces/store';
import { readSubscription } from './store';

/**
 * Whether the user may create one more workspace of `type` on their plan. The same answer
 * backs GET /billing/can-create-workspace and the refusal of POST /workspaces. Inside a
 * transaction pass `forUpdate` so two concurrent creations cannot both pass the check.
 */
export async function checkWorkspaceCreation(
  db: Queryable,
  userId: string,
  type: WorkspaceType,
  options: { forUpdate?: boolean } = {},
): Promise<CanCreateWorkspaceResult> {
  const subscription = await readSubscription(db, userId, { forUpdate: options.forUpdate });
  const plan = planById(subscription.plan);
  if (type === 'team' && !plan.features.some((f) => f.name === 'Team workspaces' && f.included)) {
    return { canCreate: false, error: teamWorkspaceText(plan.name) };
  }
  if (plan.workspaces !== null && (await countOwnedWorkspaces(db, userId)) >= plan.workspaces) {
    return { canCreate: false, error: workspaceLimitText(plan.name, plan.workspaces) };
  }
  return { canCreate: true, error: null };
}
