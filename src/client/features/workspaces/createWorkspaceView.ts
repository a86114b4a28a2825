import type { SnapshotFrom } from 'xstate';
import { isNameFilled, type createWorkspaceMachine } from './createWorkspaceMachine';
import { CreateWorkspaceText } from './createWorkspaceText';

export interface CreateWorkspaceView {
  /** A request runs (limit check or creation): the submit button shows a spinner. */
  busy: boolean;
  /** Name and description. */
  fieldsDisabled: boolean;
  typeDisabled: boolean;
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
      busy: false,
      fieldsDisabled: true,
      typeDisabled: false,
      submitLabel: CreateWorkspaceText.upgradeToCreate,
      submitDisabled: false,
      error: limitError,
    };
  }
  if (snapshot.matches('checkingLimit')) {
    return {
      busy: true,
      fieldsDisabled: false,
      typeDisabled: false,
      submitLabel: CreateWorkspaceText.checkingLimits,
      submitDisabled: true,
      error: createError,
    };
  }
  if (snapshot.matches('creating')) {
    return {
      busy: true,
      fieldsDisabled: true,
      typeDisabled: true,
      submitLabel: CreateWorkspaceText.submitting,
      submitDisabled: true,
      error: null,
    };
  }
  return {
    busy: false,
    fieldsDisabled: snapshot.matches('closed'),
    typeDisabled: snapshot.matches('closed'),
    submitLabel: CreateWorkspaceText.submit,
    submitDisabled: !snapshot.matches('editing') || !isNameFilled(form),
    error: createError,
  };
}
