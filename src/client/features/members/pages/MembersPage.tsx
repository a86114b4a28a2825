import GroupOutlinedIcon from '@mui/icons-material/GroupOutlined';
import { PlaceholderPage } from '../../../components/PlaceholderPage';

/** Members: the empty state shown until this feature's data exists. */
export default function MembersPage() {
  return (
    <PlaceholderPage
      title="Members"
      subtitle="The people who share this workspace"
      icon={<GroupOutlinedIcon />}
      emptyTitle="Just you for now"
      description="Team workspaces list their members and roles (owner, admin, member) here, with invitations for new teammates."
      action={{ label: "Open workspace settings", to: "/settings" }}
    />
  );
}
