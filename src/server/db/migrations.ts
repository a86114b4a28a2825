import { m001_accounts } from './migrations/m001_accounts';
import { m002_tracing } from './migrations/m002_tracing';

// The ordered list of migrations. Append only: an id, once landed, never changes.
export interface Migration {
  id: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { id: '001_accounts', sql: m001_accounts },
  { id: '002_tracing', sql: m002_tracing },
];
