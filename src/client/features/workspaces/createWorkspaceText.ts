import { ErrorText } from '../../../contract/errors';

// The texts of the Create Workspace dialog (SPEC §4, §8), written once for the machine and the view.
export const CreateWorkspaceText = {
  title: 'Create Workspace',
  checkingLimits: 'Checking limits...',
  submit: 'Create Workspace',
  submitting: 'Creating...',
  upgradeToCreate: 'Upgrade to Create',
  cancel: 'Cancel',
  nameLabel: 'Name',
  descriptionLabel: 'Description (optional)',
  typeLabel: 'Type',
  personal: 'Personal',
  team: 'Team',
  created: 'Workspace Created',
  createdDescription: (name: string) => `Switched to ${name}.`,
  failed: ErrorText.failedToCreateWorkspace,
  /** Only used when the server refuses without saying why. */
  limitReachedFallback: 'Your plan does not allow another workspace. Upgrade to create more.',
} as const;
