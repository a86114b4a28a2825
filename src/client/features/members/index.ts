// The members feature's surface for other features: the members panel of a workspace, the
// invitee's own invitations, and leaving a workspace.
export { MembersPanel } from './components/MembersPanel';
export { MyInvitations } from './components/MyInvitations';
export { useLeaveWorkspaceMutation } from './memberRolesApi';
