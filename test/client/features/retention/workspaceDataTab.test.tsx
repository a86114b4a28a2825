import { Route, Routes } from 'react-router-dom';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Paths } from '../../../../src/contract/routes';
import type { WorkspaceRetention } from '../../../../src/contract/retention';
import WorkspaceSettingsPage from '../../../../src/client/features/workspaces/pages/WorkspaceSettingsPage';
import { ExportProgressReader } from '../../../../src/client/features/retention/exportProgress';
import { RetentionNotice } from '../../../../src/client/components/RetentionNotice';
import { renderShellApp, TEST_WORKSPACES } from '../../helpers/renderShellApp';
import type { FakeApi } from '../../helpers/fakeApi';

configure({ asyncUtilTimeout: 5_000 });
jest.setTimeout(120_000);

// Issue 33: Workspace Settings → Data shows what is kept and for how long, lets a manager keep
// raw data shorter, and exports JSON Lines with progress; screens say when a range is past retention.

let api: FakeApi | undefined;
afterEach(() => api?.restore());

const TEAM = { ...TEST_WORKSPACES[1], id: 'ws-2', name: 'Platform Team', role: 'owner' as const };
const RETENTION: WorkspaceRetention = {
  rawDays: 30,
  planDays: 30,
  chosenDays: null,
  operatorCapDays: null,
  minuteRollupDays: 35,
  hourRollupDays: 400,
  dayRollupDays: 1095,
  rawKeptSince: new Date(Date.now() - 30 * 86_400_000).toISOString(),
};

describe('Workspace Settings → Data', () => {
  it('shows how long each kind of data is kept and saves a shorter raw window', async () => {
    const saved: unknown[] = [];
    const context = renderShellApp(
      <Routes>
        <Route path="/workspace/:workspaceId/settings" element={<WorkspaceSettingsPage />} />
      </Routes>,
      {
        signedIn: true,
        path: '/workspace/ws-2/settings?tab=data',
        workspaces: [TEST_WORKSPACES[0], TEAM],
        configureApi: (fake) => {
          fake.on('GET', Paths.workspace('ws-2'), { body: TEAM });
          fake.on('GET', Paths.workspaceRetention('ws-2'), { body: RETENTION });
          fake.on('PUT', Paths.workspaceRetention('ws-2'), ({ body }) => {
            saved.push(body);
            return { body: { ...RETENTION, rawDays: 7, chosenDays: 7 } };
          });
        },
      },
    );
    api = context.api;
    expect(await screen.findByText('Sessions, messages, tool calls and payloads')).toBeInTheDocument();
    expect(screen.getByText('35 days')).toBeInTheDocument();
    expect(screen.getByText('1,095 days')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('combobox', { name: 'Keep raw data' }));
    await userEvent.click(await screen.findByRole('option', { name: '7 days' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toEqual([{ rawDays: 7 }]));
  });

  it('exports JSON Lines and reports what arrived', async () => {
    const created: Blob[] = [];
    URL.createObjectURL = jest.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:export';
    });
    URL.revokeObjectURL = jest.fn();
    const lines = [
      { type: 'export', version: 1, sessions: 1 },
      { type: 'session', session: { id: 's-1' } },
      { type: 'message', sessionId: 's-1', message: { seq: 1 } },
      { type: 'end', sessions: 1, messages: 1, toolCalls: 0, auditEvents: 0 },
    ];
    const asked: string[] = [];
    let schedule = { enabled: false, available: true, exportedThrough: null };
    const context = renderShellApp(
      <Routes>
        <Route path="/workspace/:workspaceId/settings" element={<WorkspaceSettingsPage />} />
      </Routes>,
      {
        signedIn: true,
        path: '/workspace/ws-2/settings?tab=data',
        workspaces: [TEST_WORKSPACES[0], TEAM],
        configureApi: (fake) => {
          fake.on('GET', Paths.workspace('ws-2'), { body: TEAM });
          fake.on('GET', Paths.workspaceRetention('ws-2'), { body: RETENTION });
          fake.on('GET', Paths.exportSchedule('ws-2'), () => ({ body: schedule }));
          fake.on('PUT', Paths.exportSchedule('ws-2'), ({ body }) => {
            schedule = { ...schedule, ...(body as object) };
            return { body: schedule };
          });
          fake.on('GET', Paths.workspaceExport('ws-2'), ({ url }) => {
            asked.push(String(url));
            return { text: lines.map((l) => JSON.stringify(l)).join('\n') + '\n', contentType: 'application/x-ndjson' };
          });
        },
      },
    );
    api = context.api;
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Audit log' }));
    await userEvent.click(screen.getByRole('button', { name: 'Export JSON Lines' }));
    expect(await screen.findByText('Export saved')).toBeInTheDocument();
    expect(asked[0]).toContain('include=sessions');
    expect(asked[0]).not.toContain('audit');
    expect(created).toHaveLength(1);

    // The owner schedules the daily export.
    const daily = screen.getByRole('switch', { name: 'Export every day' });
    expect(daily).not.toBeChecked();
    await userEvent.click(daily);
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Export every day' })).toBeChecked());
  });
});

describe('export progress', () => {
  it('counts sessions against the header across pieces cut mid-line', () => {
    const text = [
      '{"type":"export","version":1,"sessions":2}',
      '{"type":"session","session":{}}',
      '{"type":"message","sessionId":"a","message":{}}',
      '{"type":"session","session":{}}',
      '{"type":"end","sessions":2}',
      '',
    ].join('\n');
    const reader = new ExportProgressReader();
    const seen = [];
    for (let i = 0; i < text.length; i += 7) seen.push(reader.read(text.slice(i, i + 7)));
    expect(seen.find((p) => p.sessionsTotal !== null)?.sessionsDone).toBe(0);
    expect(reader.current).toMatchObject({ sessionsTotal: 2, sessionsDone: 2, lines: 5, complete: true });
    expect(reader.current.received).toBe(text.length);
  });
});

describe('retention notices', () => {
  const kept = { rawKeptSince: '2026-11-22T00:00:00.000Z', rollupsKeptSince: '2023-11-29T00:00:00.000Z' };
  it('says a range reaches past the rollups, never silently', () => {
    render(
      <RetentionNotice subject="analytics" retention={{ ...kept, reachesPastRaw: true, reachesPastRollups: true }} />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('This range reaches past what Toolscope keeps');
  });
  it('says a chosen sessions range reaches past raw retention', () => {
    render(
      <RetentionNotice subject="sessions" retention={{ ...kept, reachesPastRaw: true, reachesPastRollups: false }} />,
    );
    expect(within(screen.getByRole('status')).getByText(/sessions from before/)).toBeInTheDocument();
  });
  it('shows nothing for analytics inside what is kept', () => {
    const { container } = render(
      <RetentionNotice subject="analytics" retention={{ ...kept, reachesPastRaw: false, reachesPastRollups: false }} />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});
