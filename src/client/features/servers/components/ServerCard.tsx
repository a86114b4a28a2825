import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import CardContent from '@mui/material/CardContent';
import Collapse from '@mui/material/Collapse';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import MonitorHeartOutlinedIcon from '@mui/icons-material/MonitorHeartOutlined';
import type { ServerDto } from '../../../../contract/servers';
import { useFlag } from '../../flags/useFlag';
import { ClientConfigTabs } from './ClientConfigTabs';
import { useAppSelector } from '../../../app/hooks';
import { selectCurrentWorkspace } from '../../workspaces/workspaceSlice';
import { ProxyUrlField } from './ProxyUrlField';
import { ServerRiskFindings } from './ServerRiskFindings';
import { ServerStatusChip } from '../../../components/servers/ServerStatusChip';
import { UpstreamOAuthPanel } from './UpstreamOAuthPanel';
import { useGetUpstreamOAuthQuery } from '../upstreamOAuthApi';

interface ServerCardProps {
  server: ServerDto;
  checking: boolean;
  /** Opened from a link naming this server (e.g. a status notification): scrolled to and marked. */
  highlighted?: boolean;
  onCheckHealth: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** One registered server: status, schemas, proxy URL and how to connect a client to it. */
export function ServerCard({
  server,
  checking,
  highlighted = false,
  onCheckHealth,
  onEdit,
  onDelete,
}: ServerCardProps) {
  const cardRef = useRef<HTMLElement>(null);
  // Snippets carry a key header when the server's workspace requires one.
  const requireKey = useAppSelector(selectCurrentWorkspace)?.requirePlatformKey === true;
  useEffect(() => {
    if (highlighted) cardRef.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [highlighted]);
  const [showConfig, setShowConfig] = useState(false);
  const schemaStudio = useFlag('show_schema_studio');
  const schemaLabel = `${server.schemaCount} ${server.schemaCount === 1 ? 'schema' : 'schemas'}`;
  // One list per workspace (cached, shared by every card); polled so a server found to require
  // OAuth after registration offers "Connect" without a reload.
  const { oauth } = useGetUpstreamOAuthQuery(server.workspaceId, {
    pollingInterval: 15_000,
    selectFromResult: ({ data }) => ({ oauth: data?.find((c) => c.serverId === server.id) }),
  });
  return (
    <Card
      ref={cardRef}
      variant="outlined"
      component="article"
      aria-label={server.name}
      aria-current={highlighted ? 'true' : undefined}
      sx={{
        borderRadius: 3,
        borderColor: highlighted ? 'primary.main' : 'divider',
        boxShadow: highlighted ? '0 0 0 1px rgba(99, 155, 255, 0.6)' : 'none',
      }}
    >
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 2 }}>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="h6" component="h2" sx={{ lineHeight: 1.3, overflowWrap: 'anywhere' }}>
              {server.name}
            </Typography>
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{ fontFamily: 'ui-monospace, monospace', fontSize: 12.5, overflowWrap: 'anywhere' }}
            >
              {server.url}
            </Typography>
          </Box>
          <Tooltip title="Edit">
            <IconButton aria-label={`Edit ${server.name}`} onClick={onEdit} size="small">
              <EditOutlinedIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title="Delete">
            <IconButton aria-label={`Delete ${server.name}`} onClick={onDelete} size="small">
              <DeleteOutlinedIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </Box>
        {server.description && (
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {server.description}
          </Typography>
        )}
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
          <ServerStatusChip server={server} />
          {schemaStudio ? (
            <Button
              component={RouterLink}
              to={`/schema-studio?serverId=${encodeURIComponent(server.id)}`}
              size="small"
              sx={{ textTransform: 'none' }}
            >
              {schemaLabel}
            </Button>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {schemaLabel}
            </Typography>
          )}
          {server.riskFindingCount > 0 && (
            <Chip
              size="small"
              color="error"
              variant="outlined"
              label={`${server.riskFindingCount} risk ${server.riskFindingCount === 1 ? 'finding' : 'findings'}`}
              {...(schemaStudio
                ? {
                    component: RouterLink,
                    to: `/schema-studio?serverId=${encodeURIComponent(server.id)}`,
                    clickable: true,
                  }
                : {})}
            />
          )}
          <Box sx={{ flex: 1 }} />
          <Button
            size="small"
            variant="outlined"
            startIcon={<MonitorHeartOutlinedIcon />}
            onClick={onCheckHealth}
            disabled={checking}
          >
            {checking ? 'Checking...' : 'Check health now'}
          </Button>
        </Box>
        {oauth && (
          <UpstreamOAuthPanel
            workspaceId={server.workspaceId}
            serverId={server.id}
            serverName={server.name}
            connection={oauth}
          />
        )}
        <ServerRiskFindings server={server} />
        <ProxyUrlField proxyUrl={server.proxyUrl} />
        <Divider />
        <Button
          onClick={() => setShowConfig((open) => !open)}
          aria-expanded={showConfig}
          endIcon={
            <ExpandMoreIcon sx={{ transform: showConfig ? 'rotate(180deg)' : 'none', transition: 'transform 150ms' }} />
          }
          sx={{ alignSelf: 'flex-start', textTransform: 'none' }}
          size="small"
        >
          Connect a client
        </Button>
        <Collapse in={showConfig} unmountOnExit>
          <ClientConfigTabs serverName={server.name} proxyUrl={server.proxyUrl} requireKey={requireKey} />
        </Collapse>
      </CardContent>
    </Card>
  );
}
