import { assign, emit, fromPromise, setup } from 'xstate';
import type { CanCreateWorkspaceResult } from '../../../contract/billing';
import type { WorkspaceType } from '../../../contract/workspaces';
import { errorMessage } from '../../api/apiError';
import { toCreateWorkspaceRequest, type CreateWorkspaceRequest } from './createWorkspaceInput';
import { CreateWorkspaceText } from './createWorkspaceText';

// The Create Workspace dialog (SPEC §4 "Create workspace", §5, §6). One run of the machine is one
// opening of the dialog: it starts by checking the plan limit and ends in `closed` (created or
// dismissed). Effects are the named actors `checkLimit` and `createWorkspace`; the dialog
// provides them (RTK Query), tests provide fakes. Diagram: docs/dialogs.md.

export interface WorkspaceForm {
  name: string;
  description: string;
  workspaceType: WorkspaceType;
}

export interface CreatedWorkspace {
  id: string;
  name: string;
}

export interface CreateWorkspaceContext {
  form: WorkspaceForm;
  /** The server's refusal text while the plan does not allow another workspace. */
  limitError: string | null;
  /** Why the last create call failed; cleared on the next submit. */
  createError: string | null;
}

export type CreateWorkspaceEvent =
  | { type: 'NAME_CHANGED'; name: string }
  | { type: 'DESCRIPTION_CHANGED'; description: string }
  | { type: 'TYPE_CHANGED'; workspaceType: WorkspaceType }
  | { type: 'SUBMIT' }
  | { type: 'CLOSE' };

export type CreateWorkspaceEmitted =
  | { type: 'toast'; title: string; description?: string; variant: 'default' | 'destructive' }
  | { type: 'workspaceCreated'; workspace: CreatedWorkspace }
  | { type: 'upgradeRequested' }
  | { type: 'closed' };

export const EMPTY_WORKSPACE_FORM: WorkspaceForm = { name: '', description: '', workspaceType: 'personal' };

export function isNameFilled(form: WorkspaceForm): boolean {
  return form.name.trim() !== '';
}

export const createWorkspaceMachine = setup({
  types: {
    context: {} as CreateWorkspaceContext,
    events: {} as CreateWorkspaceEvent,
    emitted: {} as CreateWorkspaceEmitted,
  },
  actors: {
    checkLimit: fromPromise<CanCreateWorkspaceResult, { type: WorkspaceType }>(() =>
      Promise.reject(new Error('checkLimit is provided by the dialog')),
    ),
    createWorkspace: fromPromise<CreatedWorkspace, CreateWorkspaceRequest>(() =>
      Promise.reject(new Error('createWorkspace is provided by the dialog')),
    ),
  },
  guards: {
    nameFilled: ({ context }) => isNameFilled(context.form),
  },
  actions: {
    resetForm: assign({ form: EMPTY_WORKSPACE_FORM, limitError: null, createError: null }),
    setName: assign({
      form: ({ context, event }) =>
        event.type === 'NAME_CHANGED' ? { ...context.form, name: event.name } : context.form,
    }),
    setDescription: assign({
      form: ({ context, event }) =>
        event.type === 'DESCRIPTION_CHANGED' ? { ...context.form, description: event.description } : context.form,
    }),
    setType: assign({
      form: ({ context, event }) =>
        event.type === 'TYPE_CHANGED' ? { ...context.form, workspaceType: event.workspaceType } : context.form,
    }),
    requestUpgrade: emit({ type: 'upgradeRequested' } as const),
  },
}).createMachine({
  id: 'createWorkspace',
  context: { form: EMPTY_WORKSPACE_FORM, limitError: null, createError: null },
  initial: 'checkingLimit',
  on: {
    CLOSE: '.closed',
  },
  states: {
    checkingLimit: {
      invoke: {
        src: 'checkLimit',
        input: ({ context }) => ({ type: context.form.workspaceType }),
        onDone: [
          {
            guard: ({ event }) => !event.output.canCreate,
            target: 'limitReached',
            actions: assign({
              limitError: ({ event }) => event.output.error || CreateWorkspaceText.limitReachedFallback,
            }),
          },
          { target: 'editing', actions: assign({ limitError: null }) },
        ],
        // SPEC §6: if the check itself fails, creation is assumed allowed (the server still enforces it).
        onError: { target: 'editing', actions: assign({ limitError: null }) },
      },
      on: {
        NAME_CHANGED: { actions: 'setName' },
        DESCRIPTION_CHANGED: { actions: 'setDescription' },
        TYPE_CHANGED: { target: 'checkingLimit', reenter: true, actions: 'setType' },
      },
    },
    editing: {
      on: {
        NAME_CHANGED: { actions: 'setName' },
        DESCRIPTION_CHANGED: { actions: 'setDescription' },
        TYPE_CHANGED: { target: 'checkingLimit', actions: 'setType' },
        SUBMIT: { guard: 'nameFilled', target: 'creating', actions: assign({ createError: null }) },
      },
    },
    limitReached: {
      on: {
        // The refusal can depend on the type (team workspaces need a paid plan), so the type stays
        // changeable while name and description are locked.
        TYPE_CHANGED: { target: 'checkingLimit', actions: 'setType' },
        SUBMIT: { actions: 'requestUpgrade' },
      },
    },
    creating: {
      invoke: {
        src: 'createWorkspace',
        input: ({ context }) => toCreateWorkspaceRequest(context.form),
        onDone: {
          target: 'closed',
          actions: [
            emit(({ event }) => ({ type: 'workspaceCreated', workspace: event.output }) as const),
            emit(
              ({ event }) =>
                ({
                  type: 'toast',
                  title: CreateWorkspaceText.created,
                  description: CreateWorkspaceText.createdDescription(event.output.name),
                  variant: 'default',
                }) as const,
            ),
          ],
        },
        onError: {
          target: 'editing',
          actions: assign({ createError: ({ event }) => errorMessage(event.error, CreateWorkspaceText.failed) }),
        },
      },
    },
    closed: {
      type: 'final',
      entry: ['resetForm', emit({ type: 'closed' } as const)],
    },
  },
});
