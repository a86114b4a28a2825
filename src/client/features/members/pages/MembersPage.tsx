import GroupOutlinedIcon from '@mui/icons-material/GroupOutlined';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

/** Members: the empty state shown until this feature's data exists. */
export default function MembersPage() {
  return (
    <>
      <PageHeader title="Members" subtitle="The people who share this workspace" />
      <EmptyState
        icon={<GroupOutlinedIcon />}
        title="Just you for now"
        description="Team workspaces list their members and roles (owner, admin, member) here, with invitations for new teammates."
        action={{ label: "Open workspace settings", to: "/settings" }}
      />
    </>
  );
}
