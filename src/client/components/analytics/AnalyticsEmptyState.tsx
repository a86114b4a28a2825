import type { ReactNode } from 'react';
import { EmptyState } from '../EmptyState';

/** No traffic in the range: what will appear here, and the way to get traffic (/servers). */
export function AnalyticsEmptyState({
  icon,
  title,
  description,
}: {
  icon: ReactNode;
  title: string;
  description: string;
}) {
  return (
    <EmptyState
      icon={icon}
      title={title}
      description={description}
      action={{ label: 'Connect a tool server', to: '/servers' }}
    />
  );
}
