import { m001_accounts } from './migrations/m001_accounts';
import { m002_tracing } from './migrations/m002_tracing';
import { m003_outbox_delivery } from './migrations/m003_outbox_delivery';
import { m005_sessions_indexes } from './migrations/m005_sessions_indexes';
import { m006_notifications } from './migrations/m006_notifications';
import { m007_calls_hold_payloads } from './migrations/m007_calls_hold_payloads';
import { m008_recorder_batches } from './migrations/m008_recorder_batches';
import { m009_credential_expiry } from './migrations/m009_credential_expiry';
import { m011_traffic_analytics } from './migrations/m011_traffic_analytics';
import { m012_tenant_safety } from './migrations/m012_tenant_safety';
import { m013_agent_access } from './migrations/m013_agent_access';
import { m014_server_timeouts } from './migrations/m014_server_timeouts';
import { m016_account_settings } from './migrations/m016_account_settings';
import { m017_deployments } from './migrations/m017_deployments';
import { m018_integrations } from './migrations/m018_integrations';
import { m019_telemetry_exporters } from './migrations/m019_telemetry_exporters';
import { m020_session_search_prompts } from './migrations/m020_session_search_prompts';
import { m021_latency_sketches } from './migrations/m021_latency_sketches';
import { m022_rollup_sums } from './migrations/m022_rollup_sums';
import { m023_workspace_sketches } from './migrations/m023_workspace_sketches';
import { m024_session_count_shares } from './migrations/m024_session_count_shares';
import { m025_redaction_settings } from './migrations/m025_redaction_settings';
import { m026_sign_in_protection } from './migrations/m026_sign_in_protection';
import { m027_workspace_key_hosts } from './migrations/m027_workspace_key_hosts';
import { m028_server_allowed_origins } from './migrations/m028_server_allowed_origins';
import { m036_oidc_identities } from './migrations/m036_oidc_identities';
import { m037_upstream_oauth } from './migrations/m037_upstream_oauth';
import { m038_task_calls } from './migrations/m038_task_calls';
import { m040_input_round_calls } from './migrations/m040_input_round_calls';
import { m041_input_round_retries } from './migrations/m041_input_round_retries';
import { m042_redundant_session_index } from './migrations/m042_redundant_session_index';
import { m029_tool_risk } from './migrations/m029_tool_risk';
import { m030_alert_rules } from './migrations/m030_alert_rules';
import { m031_data_retention } from './migrations/m031_data_retention';
import { m032_deleted_workspaces } from './migrations/m032_deleted_workspaces';
import { m033_daily_export } from './migrations/m033_daily_export';
import { m034_raw_time_partitions } from './migrations/m034_raw_time_partitions';

// The ordered list of migrations. Append only: an id, once landed, never changes.
export interface Migration {
  id: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { id: '001_accounts', sql: m001_accounts },
  { id: '002_tracing', sql: m002_tracing },
  { id: '003_outbox_delivery', sql: m003_outbox_delivery },
  { id: '005_sessions_indexes', sql: m005_sessions_indexes },
  { id: '006_notifications', sql: m006_notifications },
  { id: '007_calls_hold_payloads', sql: m007_calls_hold_payloads },
  { id: '008_recorder_batches', sql: m008_recorder_batches },
  { id: '009_credential_expiry', sql: m009_credential_expiry },
  { id: '011_traffic_analytics', sql: m011_traffic_analytics },
  { id: '012_tenant_safety', sql: m012_tenant_safety },
  { id: '013_agent_access', sql: m013_agent_access },
  { id: '014_server_timeouts', sql: m014_server_timeouts },
  { id: '016_account_settings', sql: m016_account_settings },
  { id: '017_deployments', sql: m017_deployments },
  { id: '018_integrations', sql: m018_integrations },
  { id: '019_telemetry_exporters', sql: m019_telemetry_exporters },
  { id: '020_session_search_prompts', sql: m020_session_search_prompts },
  { id: '021_latency_sketches', sql: m021_latency_sketches },
  { id: '022_rollup_sums', sql: m022_rollup_sums },
  { id: '023_workspace_sketches', sql: m023_workspace_sketches },
  { id: '024_session_count_shares', sql: m024_session_count_shares },
  { id: '025_redaction_settings', sql: m025_redaction_settings },
  { id: '026_sign_in_protection', sql: m026_sign_in_protection },
  { id: '027_workspace_key_hosts', sql: m027_workspace_key_hosts },
  { id: '028_server_allowed_origins', sql: m028_server_allowed_origins },
  { id: '029_tool_risk', sql: m029_tool_risk },
  { id: '030_alert_rules', sql: m030_alert_rules },
  { id: '031_data_retention', sql: m031_data_retention },
  { id: '032_deleted_workspaces', sql: m032_deleted_workspaces },
  { id: '033_daily_export', sql: m033_daily_export },
  { id: '034_raw_time_partitions', sql: m034_raw_time_partitions },
  { id: '036_oidc_identities', sql: m036_oidc_identities },
  { id: '037_upstream_oauth', sql: m037_upstream_oauth },
  { id: '038_task_calls', sql: m038_task_calls },
  { id: '040_input_round_calls', sql: m040_input_round_calls },
  { id: '041_input_round_retries', sql: m041_input_round_retries },
  { id: '042_redundant_session_index', sql: m042_redundant_session_index },
  // Landed after 018/019: appended, so databases that have those run it next.
];
