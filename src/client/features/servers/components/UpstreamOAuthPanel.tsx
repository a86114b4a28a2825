import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import KeyOutlinedIcon from '@mui/icons-material/KeyOutlined';
import type { UpstreamOAuthConnectionDto } from '../../../../contract/upstreamOAuth';
import { errorMessage } from '../../../api/apiError';
import { formatRelativeTime } from '../../../components/RelativeTime';
import { useToast } from '../../../components/toast';
import { useConnectUpstreamOAuthMutation, useDisconnectUpstreamOAuthMutation } from '../upstreamOAuthApi';
import { OAuthClientDialog } from './OAuthClientDialog';

/** The server's answer when its authorization server registers no clients (the admin enters one). */
const NEEDS_CLIENT = /enter the client ID/;

interface UpstreamOAuthPanelProps {
  workspaceId: string;
  serverId: string;
  serverName: string;
  connection: UpstreamOAuthConnectionDto;
}

const LABELS = {
  required: { label: 'OAuth: not connected', color: 'warning' },
  connected: { label: 'OAuth: connected', color: 'success' },
  needs_reconnect: { label: 'OAuth: sign in again', color: 'error' },
} as const;

function detailOf(connection: UpstreamOAuthConnectionDto): string {
  if (connection.status === 'required')
    return 'This server requires signing in with its authorization server before agents can use it.';
  if (connection.status === 'needs_reconnect')
    return connection.lastError ?? 'The connection ended: sign in again to give agents access.';
  const parts = [
    connection.connectedAs ? `As ${connection.connectedAs}` : 'Connected',
    connection.connectedBy ? `by ${connection.connectedBy}` : null,
    connection.expiresAt ? `token renews ${formatRelativeTime(connection.expiresAt)}` : null,
  ];
  return parts.filter(Boolean).join(' · ');
}

/**
 * A server that requires OAuth: its connection's state and the way to (re)connect. Connecting is
 * a browser trip to the server's authorization server; agents never see its tokens (the proxy adds
 * them upstream).
 */
export function UpstreamOAuthPanel({ workspaceId, serverId, serverName, connection }: UpstreamOAuthPanelProps) {
  const [connect, connecting] = useConnectUpstreamOAuthMutation();
  const [disconnect, disconnecting] = useDisconnectUpstreamOAuthMutation();
  const { toast } = useToast();
  const [askClient, setAskClient] = useState(false);
  const { label, color } = LABELS[connection.status];

  const start = async (client: { clientId?: string; clientSecret?: string } = {}) => {
    setAskClient(false);
    try {
      const { authorizationUrl } = await connect({ workspaceId, serverId, returnPath: '/servers', ...client }).unwrap();
      window.location.assign(authorizationUrl);
    } catch (caught) {
      const message = errorMessage(caught);
      if (NEEDS_CLIENT.test(message) && !client.clientId) setAskClient(true);
      else toast({ title: `Could not connect ${serverName}`, description: message, variant: 'destructive' });
    }
  };
  const stop = async () => {
    try {
      await disconnect({ workspaceId, serverId }).unwrap();
      toast({ title: 'Disconnected', description: `${serverName}'s tokens are forgotten.` });
    } catch (caught) {
      toast({ title: `Could not disconnect ${serverName}`, description: errorMessage(caught), variant: 'destructive' });
    }
  };

  return (
    <Box
      role="group"
      aria-label={`OAuth connection of ${serverName}`}
      sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}
    >
      <Chip icon={<KeyOutlinedIcon />} label={label} color={color} size="small" variant="outlined" />
      <Typography variant="body2" color="text.secondary" sx={{ flex: 1, minWidth: 200, overflowWrap: 'anywhere' }}>
        {detailOf(connection)}
      </Typography>
      <Button
        size="small"
        variant={connection.status === 'connected' ? 'text' : 'contained'}
        onClick={() => void start()}
        disabled={connecting.isLoading}
      >
        {connection.status === 'required' ? 'Connect' : 'Reconnect'}
      </Button>
      {askClient && (
        <OAuthClientDialog
          serverName={serverName}
          onCancel={() => setAskClient(false)}
          onSubmit={(client) => void start(client)}
        />
      )}
      {connection.status === 'connected' && (
        <Button size="small" color="inherit" onClick={() => void stop()} disabled={disconnecting.isLoading}>
          Disconnect
        </Button>
      )}
    </Box>
  );
}
