import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  ServerFormDialog,
  type ServerFormValues,
} from '../../../../src/client/features/servers/components/ServerFormDialog';

jest.setTimeout(90_000);

/** Pasting: typing character by character is slow on a loaded machine and tests nothing more here. */
async function typeInto(field: HTMLElement, text: string) {
  await userEvent.click(field);
  await userEvent.paste(text);
}

// The add / edit dialogs carry what real remote servers need: a bearer token (write-only) and the transport.
const renderDialog = (initial?: Parameters<typeof ServerFormDialog>[0]['initial']) => {
  const sent: ServerFormValues[] = [];
  render(
    <ServerFormDialog
      title="Server"
      submitLabel="Save"
      busyLabel="Saving..."
      initial={initial}
      onSubmit={(values) => {
        sent.push(values);
        return Promise.resolve(null);
      }}
      onClose={() => undefined}
    />,
  );
  return { sent, dialog: screen.getByRole('dialog', { name: 'Server' }) };
};

it('adds a legacy SSE server with a bearer token header', async () => {
  const { sent, dialog } = renderDialog();
  await typeInto(within(dialog).getByLabelText(/Server URL/), 'https://linear.example.com/sse');
  await typeInto(within(dialog).getByLabelText(/^Name/), 'Linear');
  await userEvent.click(within(dialog).getByRole('combobox', { name: 'Transport' }));
  await userEvent.click(screen.getByRole('option', { name: /HTTP\+SSE/ }));
  await userEvent.click(within(dialog).getByRole('button', { name: 'Add header' }));
  expect(within(dialog).getByLabelText('Header name')).toHaveValue('Authorization');
  const value = within(dialog).getByLabelText('Value');
  expect(value).toHaveAttribute('type', 'password');
  await typeInto(value, 'Bearer lin_123');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
  expect(sent).toEqual([
    {
      url: 'https://linear.example.com/sse',
      name: 'Linear',
      description: '',
      transport: 'sse',
      allowedOrigins: [],
      headers: { Authorization: 'Bearer lin_123' },
    },
  ]);
});

it('refuses a header the proxy owns before sending anything', async () => {
  const { sent, dialog } = renderDialog();
  await typeInto(within(dialog).getByLabelText(/Server URL/), 'https://x.example.com/mcp');
  await typeInto(within(dialog).getByLabelText(/^Name/), 'X');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Add header' }));
  const name = within(dialog).getByLabelText('Header name');
  await userEvent.clear(name);
  await typeInto(name, 'Host');
  await typeInto(within(dialog).getByLabelText('Value'), 'evil.example.com');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
  expect(within(dialog).getByRole('alert')).toHaveTextContent('This header is set by the proxy');
  expect(sent).toEqual([]);
});

it('shows stored headers as set, never their values; keeps, replaces or removes them', async () => {
  const initial = {
    url: 'https://gh.example.com/mcp',
    name: 'GitHub',
    description: '',
    transport: 'streamable-http' as const,
    hasCredentials: true,
    allowedOrigins: [],
  };
  const first = renderDialog(initial);
  expect(within(first.dialog).getByRole('status')).toHaveTextContent('Headers are set (values hidden).');
  expect(within(first.dialog).queryByLabelText('Value')).not.toBeInTheDocument();
  await userEvent.click(within(first.dialog).getByRole('button', { name: 'Save' }));
  expect(first.sent[0]).not.toHaveProperty('headers');

  await userEvent.click(within(first.dialog).getByRole('button', { name: 'Remove' }));
  expect(within(first.dialog).getByRole('status')).toHaveTextContent(
    'The stored headers will be removed when you save.',
  );
  await userEvent.click(within(first.dialog).getByRole('button', { name: 'Save' }));
  expect(first.sent[1].headers).toEqual({});

  await userEvent.click(within(first.dialog).getByRole('button', { name: 'Replace' }));
  await userEvent.click(within(first.dialog).getByRole('button', { name: 'Add header' }));
  await typeInto(within(first.dialog).getByLabelText('Value'), 'Bearer ghp_new');
  await userEvent.click(within(first.dialog).getByRole('button', { name: 'Save' }));
  expect(first.sent[2].headers).toEqual({ Authorization: 'Bearer ghp_new' });
});

it('edits the browser origins allowed at the proxy URL, one per line, and shows the server’s refusal at the field', async () => {
  const initial = {
    url: 'https://gh.example.com/mcp',
    name: 'GitHub',
    description: '',
    transport: 'streamable-http' as const,
    hasCredentials: false,
    allowedOrigins: ['http://localhost:6274'],
  };
  const sent: ServerFormValues[] = [];
  let answer: { message: string; fields: Record<string, string> } | null = {
    message: 'allowedOrigins.1: Must be an origin such as https://app.example.com (scheme, host and port only)',
    fields: { 'allowedOrigins.1': 'Must be an origin such as https://app.example.com (scheme, host and port only)' },
  };
  render(
    <ServerFormDialog
      title="Server"
      submitLabel="Save"
      busyLabel="Saving..."
      initial={initial}
      onSubmit={(values) => {
        sent.push(values);
        return Promise.resolve(answer);
      }}
      onClose={() => undefined}
    />,
  );
  const dialog = screen.getByRole('dialog', { name: 'Server' });
  const origins = within(dialog).getByLabelText('Allowed browser origins');
  expect(origins).toHaveValue('http://localhost:6274');
  await userEvent.click(origins);
  await userEvent.keyboard('{End}{Enter}');
  await userEvent.paste('https://app.example.com/path');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
  expect(sent[0].allowedOrigins).toEqual(['http://localhost:6274', 'https://app.example.com/path']);
  expect(await within(dialog).findByText(/Must be an origin such as/, { selector: 'p' })).toBeInTheDocument();
  expect(origins).toHaveAttribute('aria-invalid', 'true');

  answer = null;
  await userEvent.clear(origins);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
  expect(sent[1].allowedOrigins).toEqual([]);
});
