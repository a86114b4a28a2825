import { createActor, fromPromise, waitFor } from 'xstate';
import type { CanCreateWorkspaceResult } from '../../../../src/contract/billing';
import type { WorkspaceType } from '../../../../src/contract/workspaces';
import type { CreateWorkspaceRequest } from '../../../../src/client/features/workspaces/createWorkspaceInput';
import {
  createWorkspaceMachine,
  type CreateWorkspaceEmitted,
  type CreatedWorkspace,
} from '../../../../src/client/features/workspaces/createWorkspaceMachine';

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const ALLOWED: CanCreateWorkspaceResult = { canCreate: true, error: null };
const REFUSED: CanCreateWorkspaceResult = {
  canCreate: false,
  error: 'Your Starter plan allows 1 workspace. Upgrade to create more.',
};

/** Starts the machine with controllable fakes for the two effects and records what it emits. */
function startDialog(
  options: {
    limit?: (type: WorkspaceType) => Promise<CanCreateWorkspaceResult>;
    create?: (request: CreateWorkspaceRequest) => Promise<CreatedWorkspace>;
  } = {},
) {
  const limitChecks: WorkspaceType[] = [];
  const createCalls: CreateWorkspaceRequest[] = [];
  const emitted: CreateWorkspaceEmitted[] = [];
  const machine = createWorkspaceMachine.provide({
    actors: {
      checkLimit: fromPromise<CanCreateWorkspaceResult, { type: WorkspaceType }>(async ({ input }) => {
        limitChecks.push(input.type);
        return options.limit ? options.limit(input.type) : ALLOWED;
      }),
      createWorkspace: fromPromise<CreatedWorkspace, CreateWorkspaceRequest>(async ({ input }) => {
        createCalls.push(input);
        return options.create ? options.create(input) : { id: 'ws-new', name: input.name };
      }),
    },
  });
  const actor = createActor(machine);
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  return { actor, limitChecks, createCalls, emitted };
}

describe('createWorkspaceMachine', () => {
  it('checks the limit for a personal workspace as soon as the dialog opens', async () => {
    const { actor, limitChecks } = startDialog();
    expect(actor.getSnapshot().value).toBe('checkingLimit');
    expect(limitChecks).toEqual(['personal']);
    await waitFor(actor, (s) => s.matches('editing'));
    expect(actor.getSnapshot().context.limitError).toBeNull();
  });

  it('refuses with the server text when the plan does not allow another workspace', async () => {
    const { actor } = startDialog({ limit: () => Promise.resolve(REFUSED) });
    await waitFor(actor, (s) => s.matches('limitReached'));
    expect(actor.getSnapshot().context.limitError).toBe(REFUSED.error);
  });

  it('assumes creation is allowed when the limit check itself fails', async () => {
    const { actor } = startDialog({
      limit: () => Promise.reject(new Error('API Error 500: Internal Server Error')),
    });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(actor.getSnapshot().context.limitError).toBeNull();
  });

  it('re-checks the limit for the chosen type when the type changes', async () => {
    const { actor, limitChecks } = startDialog({
      limit: (type) => Promise.resolve(type === 'team' ? REFUSED : ALLOWED),
    });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'TYPE_CHANGED', workspaceType: 'team' });
    expect(actor.getSnapshot().value).toBe('checkingLimit');
    await waitFor(actor, (s) => s.matches('limitReached'));
    expect(limitChecks).toEqual(['personal', 'team']);
    expect(actor.getSnapshot().context.form.workspaceType).toBe('team');
  });

  it('keeps only the answer for the latest type when the type changes during a check', async () => {
    const personal = deferred<CanCreateWorkspaceResult>();
    const { actor, limitChecks } = startDialog({
      limit: (type) => (type === 'personal' ? personal.promise : Promise.resolve(ALLOWED)),
    });
    actor.send({ type: 'TYPE_CHANGED', workspaceType: 'team' });
    await waitFor(actor, (s) => s.matches('editing'));
    personal.resolve(REFUSED);
    await personal.promise;
    expect(limitChecks).toEqual(['personal', 'team']);
    expect(actor.getSnapshot().value).toBe('editing');
  });

  it('keeps what is typed while the limit is being checked', async () => {
    const check = deferred<CanCreateWorkspaceResult>();
    const { actor } = startDialog({ limit: () => check.promise });
    actor.send({ type: 'NAME_CHANGED', name: 'Research' });
    actor.send({ type: 'DESCRIPTION_CHANGED', description: 'Agents of the research team' });
    check.resolve(ALLOWED);
    await waitFor(actor, (s) => s.matches('editing'));
    expect(actor.getSnapshot().context.form).toEqual({
      name: 'Research',
      description: 'Agents of the research team',
      workspaceType: 'personal',
    });
  });

  it('does not submit while the name is blank after trimming', async () => {
    const { actor, createCalls } = startDialog();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'SUBMIT' });
    actor.send({ type: 'NAME_CHANGED', name: '   ' });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(createCalls).toEqual([]);
  });

  it('lets the type change after a refusal, since the refusal can depend on the type', async () => {
    const { actor, limitChecks } = startDialog({
      limit: (type) => Promise.resolve(type === 'team' ? REFUSED : ALLOWED),
    });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'TYPE_CHANGED', workspaceType: 'team' });
    await waitFor(actor, (s) => s.matches('limitReached'));
    actor.send({ type: 'TYPE_CHANGED', workspaceType: 'personal' });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(limitChecks).toEqual(['personal', 'team', 'personal']);
    expect(actor.getSnapshot().context.limitError).toBeNull();
  });

  it('asks for an upgrade instead of creating when the limit is reached', async () => {
    const { actor, createCalls, emitted } = startDialog({ limit: () => Promise.resolve(REFUSED) });
    await waitFor(actor, (s) => s.matches('limitReached'));
    actor.send({ type: 'NAME_CHANGED', name: 'Ignored while disabled' });
    actor.send({ type: 'SUBMIT' });
    expect(emitted).toEqual([{ type: 'upgradeRequested' }]);
    expect(createCalls).toEqual([]);
    expect(actor.getSnapshot().context.form.name).toBe('');
  });

  it('creates the workspace with trimmed fields, announces it and resets the form', async () => {
    const { actor, createCalls, emitted } = startDialog();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'NAME_CHANGED', name: '  Research  ' });
    actor.send({ type: 'DESCRIPTION_CHANGED', description: ' Agents ' });
    actor.send({ type: 'TYPE_CHANGED', workspaceType: 'team' });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('creating');
    await waitFor(actor, (s) => s.status === 'done');

    expect(createCalls).toEqual([{ name: 'Research', description: 'Agents', workspaceType: 'team' }]);
    expect(emitted).toEqual([
      { type: 'workspaceCreated', workspace: { id: 'ws-new', name: 'Research' } },
      { type: 'toast', title: 'Workspace Created', description: 'Switched to Research.', variant: 'default' },
      { type: 'closed' },
    ]);
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.form).toEqual({ name: '', description: '', workspaceType: 'personal' });
  });

  it('shows the error message of a failed creation and keeps the form', async () => {
    const { actor, emitted } = startDialog({
      create: () =>
        Promise.reject(
          Object.assign(new Error('API Error 409: A workspace named Research already exists'), {
            status: 409,
            serverMessage: 'A workspace named Research already exists',
            code: 'conflict',
          }),
        ),
    });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'NAME_CHANGED', name: 'Research' });
    actor.send({ type: 'DESCRIPTION_CHANGED', description: 'Agents' });
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('editing'));

    const { context } = actor.getSnapshot();
    expect(context.createError).toBe('API Error 409: A workspace named Research already exists');
    expect(context.form).toEqual({ name: 'Research', description: 'Agents', workspaceType: 'personal' });
    expect(emitted).toEqual([]);
  });

  it("falls back to 'Failed to create workspace' when the failure carries no message", async () => {
    const { actor } = startDialog({
      create: () => Promise.reject(new Error('')),
    });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'NAME_CHANGED', name: 'Research' });
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.createError !== null);
    expect(actor.getSnapshot().context.createError).toBe('Failed to create workspace');
  });

  it('clears the previous failure when submitting again and succeeds', async () => {
    let attempts = 0;
    const { actor } = startDialog({
      create: (request) => {
        attempts += 1;
        return attempts === 1
          ? Promise.reject(new Error('Network down'))
          : Promise.resolve({ id: 'ws-2', name: request.name });
      },
    });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'NAME_CHANGED', name: 'Research' });
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.context.createError === 'Network down');
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().context.createError).toBeNull();
    await waitFor(actor, (s) => s.status === 'done');
  });

  it('resets and reports closing when the dialog is closed', async () => {
    const { actor, emitted } = startDialog();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'NAME_CHANGED', name: 'Draft' });
    actor.send({ type: 'CLOSE' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().context.form.name).toBe('');
    expect(emitted).toEqual([{ type: 'closed' }]);
  });
});
