import type { ReactNode } from 'react';
import { EmptyState, type EmptyStateAction } from './EmptyState';
import { PageHeader } from './PageHeader';

export interface PlaceholderPageProps {
  /** Page heading and the line under it. */
  title: string;
  subtitle: string;
  /** The empty state: what will appear here and the next step(s) to get there. */
  icon: ReactNode;
  emptyTitle: string;
  description: ReactNode;
  action: EmptyStateAction;
  secondaryAction?: EmptyStateAction;
}

/** A page whose feature has no data yet: its header over an empty state. */
export function PlaceholderPage({ title, subtitle, icon, emptyTitle, description, action, secondaryAction }: PlaceholderPageProps) {
  return (
    <>
      <PageHeader title={title} subtitle={subtitle} />
      <EmptyState icon={icon} title={emptyTitle} description={description} action={action} secondaryAction={secondaryAction} />
    </>
  );
}
