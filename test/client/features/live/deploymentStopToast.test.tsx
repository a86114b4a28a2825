import { act, configure, screen, waitFor, within } from '@testing-library/react';
import { fromCallback } from 'xstate';
import type { LiveMessage } from '../../../../src/contract/live';
import { LiveStream } from '../../../../src/client/features/live/LiveStream';
import type { ConnectionEvent, ConnectionInput } from '../../../../src/client/features/live/liveStreamMachine';
import ServersPage from '../../../../src/client/features/servers/pages/ServersPage';
import { renderShellApp, testServer } from '../../helpers/renderShellApp';

configure({ asyncUtilTimeout: 5_000 });
jest.setTimeout(30_000);

// Issue 38: stopping a deployment on purpose raised a red "Server Offline" toast.
const connections: { sendBack: (event: ConnectionEvent) => void }[] = [];
const fakeConnection = fromCallback<ConnectionEvent, ConnectionInput>(({ sendBack }) => {
  connections.push({ sendBack });
  return () => undefined;
});
const send = (message: LiveMessage) =>
  act(() => {
    connections[0].sendBack({ type: 'MESSAGE', message });
    return Promise.resolve();
  });

it("raises no 'Server Offline' for a deployment stopped on purpose", async () => {
  const { api } = renderShellApp(
    <>
      <LiveStream connection={fakeConnection} />
      <ServersPage />
    </>,
    { signedIn: true, path: '/servers', servers: [testServer()] },
  );
  await screen.findByRole('article', { name: 'Everything' });
  await waitFor(() => expect(connections).toHaveLength(1));
  act(() => connections[0].sendBack({ type: 'OPENED' }));
  const now = new Date().toISOString();
  await send({
    type: 'deployment_updated',
    data: {
      id: 'dep-1',
      configId: 'cfg-1',
      workspaceId: 'ws-1',
      serverId: 'srv-1',
      status: 'stopped',
      pid: null,
      startedAt: now,
      stoppedAt: now,
      restarts: 0,
      exitCode: 0,
      signal: null,
      memoryBytes: null,
      lastError: null,
      lastStderr: [],
      sessionProcesses: 0,
      createdAt: now,
      updatedAt: now,
    },
  });
  await send({
    type: 'server_updated',
    data: testServer({ status: 'offline', lastHealthStatus: false, lastChecked: now, kind: 'deployment' }),
  });
  const card = screen.getByRole('article', { name: 'Everything' });
  await waitFor(() => expect(within(card).getByTestId('server-status')).toHaveTextContent('Offline'));
  expect(screen.queryByText('Server Offline')).not.toBeInTheDocument();
  api.restore();
});
