import { act, configure, screen, waitFor } from '@testing-library/react';
import { fromCallback } from 'xstate';
import { Paths } from '../../../../src/contract/routes';
import type { PlatformKeyListResult } from '../../../../src/contract/keys';
import { LiveStream } from '../../../../src/client/features/live/LiveStream';
import type { ConnectionEvent, ConnectionInput } from '../../../../src/client/features/live/liveStreamMachine';
import { PlatformKeysSection } from '../../../../src/client/features/keys/components/PlatformKeysSection';
import { renderShellApp } from '../../helpers/renderShellApp';
import { toolCall } from '../sessions/sessionFixtures';

configure({ asyncUtilTimeout: 10_000 });
jest.setTimeout(30_000);

// Issue 38: a platform key's "Last used" lagged behind its calls: the keys list now refetches with
// the rest of the traffic figures when the live stream reports calls.
const connections: { sendBack: (event: ConnectionEvent) => void }[] = [];
const fakeConnection = fromCallback<ConnectionEvent, ConnectionInput>(({ sendBack }) => {
  connections.push({ sendBack });
  return () => undefined;
});

it('refetches the platform keys when calls are recorded', async () => {
  const list: PlatformKeyListResult = { keys: [], unknownKeyRefusals: [] };
  const keysPath = `${Paths.workspace('ws-1')}/platform/keys`;
  const { api } = renderShellApp(
    <>
      <LiveStream connection={fakeConnection} />
      <PlatformKeysSection workspaceId="ws-1" canManage servers={[]} />
    </>,
    { signedIn: true, configureApi: (fake) => fake.on('GET', keysPath, { body: list }) },
  );
  expect(await screen.findByRole('heading', { name: 'Platform keys' })).toBeInTheDocument();
  await waitFor(() => expect(connections).toHaveLength(1));
  act(() => connections[0].sendBack({ type: 'OPENED' }));
  const fetches = () => api.calls.filter((call) => call === `GET ${keysPath}`).length;
  const before = fetches();
  act(() => connections[0].sendBack({ type: 'MESSAGE', message: { type: 'tool_call', data: toolCall(1) } }));
  await waitFor(() => expect(fetches()).toBe(before + 1));
  api.restore();
});
