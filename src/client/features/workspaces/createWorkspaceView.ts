import type { SnapshotFrom } from 'xstate';
import { isNameFilled, type createWorkspaceMachine } from './createWorkspaceMachine';
import { CreateWorkspaceText } from './createWorkspaceText';

export interface CreateWorkspaceView {
  checking: boolean;
  fieldsDisabled: boolean;
  submitLabel: string;
  submitDisabled: boolean;
  /** The alert to show: the server's limit text, or why creating failed. */
  error: string | null;
}

/** What the dialog shows for a state of the machine (SPEC §4 "Create workspace", §5). */
export function createWorkspaceView(snapshot: SnapshotFrom<typeof createWorkspaceMachine>): CreateWorkspaceView {
  const { form, limitError, createError } = snapshot.context;
  if (snapshot.matches('limitReached')) {
    return {
      checking: false,
      fieldsDisabled: true,
      submitLabel: CreateWorkspaceText.upgradeToCreate,
      submitDisabled: false,
      error: limitError,
    };
  }
  if (snapshot.matches('checkingLimit')) {
    return {
      checking: true,
      fieldsDisabled: false,
      submitLabel: CreateWorkspaceText.checkingLimits,
      submitDisabled: true,
      error: createError,
    };
  }
  if (snapshot.matches('creating')) {
    return {
      checking: false,
      fieldsDisabled: true,
      submitLabel: CreateWorkspaceText.submitting,
      submitDisabled: true,
      error: null,
    };
  }
  return {
    checking: false,
    fieldsDisabled: snapshot.matches('closed'),
    submitLabel: CreateWorkspaceText.submit,
    submitDisabled: !snapshot.matches('editing') || !isNameFilled(form),
    error: createError,
  };
}
