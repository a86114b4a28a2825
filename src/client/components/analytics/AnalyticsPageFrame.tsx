import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import { ErrorText } from '../../../contract/errors';
import { errorMessage } from '../../api/apiError';
import { PageHeader } from '../PageHeader';
import { AnalyticsEmptyState } from './AnalyticsEmptyState';
import { AnalyticsToolbar } from './AnalyticsToolbar';
import { useAnalyticsRange } from './useAnalyticsRange';

/** What an analytics screen shows in place of its charts when its range holds no traffic. */
export interface AnalyticsEmptyContent {
  /** The range holds nothing (known only once the data is in). */
  when: boolean;
  icon: ReactNode;
  title: string;
  description: string;
}

interface AnalyticsPageFrameProps {
  title: string;
  subtitle: string;
  /** A server's name for the server filter's chip. */
  serverName: (id: string) => string;
  workspaceId: string | null;
  /** The query the screen stands on: when it fails, its error stands in place of the screen. */
  query: { isError: boolean; error?: unknown };
  /** Above the content and the empty state alike (e.g. the retention notice). */
  notice?: ReactNode;
  /** Shown instead of the content when the range is empty and no filter narrows it. */
  empty?: AnalyticsEmptyContent;
  /** The screen itself, once there is a workspace and its query has not failed (a function: given the workspace). */
  children: ReactNode | ((workspaceId: string) => ReactNode);
}

/**
 * The frame every analytics screen shares: the header with the range picker and filter chips, and
 * in its place of content the missing workspace, the query's error, the empty range, or the screen.
 */
export function AnalyticsPageFrame({
  title,
  subtitle,
  serverName,
  workspaceId,
  query,
  notice,
  empty,
  children,
}: AnalyticsPageFrameProps) {
  // The range and filters live in the URL: the screen reads the same ones for its queries.
  const { range, filters, setRange, setFilters } = useAnalyticsRange();
  const header = (
    <PageHeader
      title={title}
      subtitle={subtitle}
      actions={
        <AnalyticsToolbar
          range={range}
          onRange={setRange}
          filters={filters}
          onFilters={setFilters}
          serverName={serverName}
        />
      }
    />
  );
  let content: ReactNode;
  if (!workspaceId) content = <Alert severity="info">{ErrorText.noWorkspace}</Alert>;
  else if (query.isError) content = <Alert severity="error">{errorMessage(query.error)}</Alert>;
  else if (empty?.when && Object.keys(filters).length === 0)
    content = (
      <>
        {notice}
        <AnalyticsEmptyState icon={empty.icon} title={empty.title} description={empty.description} />
      </>
    );
  else
    content = (
      <>
        {notice}
        {typeof children === 'function' ? children(workspaceId) : children}
      </>
    );
  return (
    <>
      {header}
      {content}
    </>
  );
}
