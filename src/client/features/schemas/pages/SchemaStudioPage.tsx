import DataObjectOutlinedIcon from '@mui/icons-material/DataObjectOutlined';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';

/** Schema Studio: the empty state shown until this feature's data exists. */
export default function SchemaStudioPage() {
  return (
    <>
      <PageHeader title="Schema Studio" subtitle="The tool schemas of your servers, their versions and patches" />
      <EmptyState
        icon={<DataObjectOutlinedIcon />}
        title="No schemas discovered"
        description="Toolscope discovers the tools each server offers. Their JSON schemas, the versions seen over time and the patches between them will be inspected and rolled back here."
        action={{ label: "Connect a tool server", to: "/servers" }}
      />
    </>
  );
}
