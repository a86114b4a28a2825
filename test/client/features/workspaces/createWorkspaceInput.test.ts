import { toCreateWorkspaceRequest } from '../../../../src/client/features/workspaces/createWorkspaceInput';

describe('toCreateWorkspaceRequest', () => {
  it('turns a plain name into a personal workspace with an empty description', () => {
    expect(toCreateWorkspaceRequest('Research')).toEqual({
      name: 'Research',
      description: '',
      workspaceType: 'personal',
    });
  });

  it('keeps the given description and type', () => {
    expect(toCreateWorkspaceRequest({ name: 'Ops', description: 'On-call agents', workspaceType: 'team' })).toEqual({
      name: 'Ops',
      description: 'On-call agents',
      workspaceType: 'team',
    });
  });

  it('defaults the missing description and type of an object', () => {
    expect(toCreateWorkspaceRequest({ name: 'Ops' })).toEqual({
      name: 'Ops',
      description: '',
      workspaceType: 'personal',
    });
  });

  it('trims the name and the description', () => {
    expect(toCreateWorkspaceRequest({ name: '  Ops ', description: ' x ' })).toEqual({
      name: 'Ops',
      description: 'x',
      workspaceType: 'personal',
    });
  });
});
