import type { ReactNode } from 'react';
import ToggleOffOutlinedIcon from '@mui/icons-material/ToggleOffOutlined';
import type { FlagName } from '../../../contract/flags';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { PageSkeleton } from '../../components/PageSkeleton';
import { useGetConfigQuery } from './configApi';
import { useFlag } from './useFlag';

/**
 * A screen behind a flag, reached by its URL (issue 38: one behaviour for every flagged route).
 * With the flag off it says so in place of the screen; while the server's flags load, a skeleton
 * (a flag's default may be off: no flash of "not enabled" before the answer).
 */
export function FlaggedPage({
  flag,
  title,
  description,
  children,
}: {
  flag: FlagName;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  const enabled = useFlag(flag);
  const { isLoading } = useGetConfigQuery();
  if (isLoading) return <PageSkeleton />;
  if (enabled) return children;
  return (
    <>
      <PageHeader title={title} />
      <EmptyState
        icon={<ToggleOffOutlinedIcon />}
        title={`${title} is not enabled`}
        description={description ?? `${title} is turned off on this Toolscope (the ${flag} flag).`}
        action={{ label: 'Back to the overview', to: '/dashboard' }}
      />
    </>
  );
}
