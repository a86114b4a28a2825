import { act, screen, waitFor } from '@testing-library/react';
import { Paths } from '../../../../src/contract/routes';
import { useFlag } from '../../../../src/client/features/flags/useFlag';
import { toastBridge } from '../../../../src/client/components/toast';
import { renderShellApp } from '../../helpers/renderShellApp';

afterEach(() => localStorage.clear());

function FlagProbe({ name }: { name: string }) {
  return <output aria-label={name}>{useFlag(name) ? 'on' : 'off'}</output>;
}

const flag = (name: string) => screen.getByRole('status', { name }).textContent;

describe('useFlag', () => {
  it('answers with the defaults of SPEC §2 until the config arrives', async () => {
    const { api } = renderShellApp(
      <>
        <FlagProbe name="show_marketplace" />
        <FlagProbe name="show_upgrade_pro" />
      </>,
      { configureApi: (fake) => fake.on('GET', Paths.config, () => new Promise(() => undefined)) },
    );
    expect(flag('show_marketplace')).toBe('on');
    expect(flag('show_upgrade_pro')).toBe('off');
    // Let the lazily loaded toast area finish mounting before the test ends.
    let toastAreaReady = false;
    void toastBridge.whenReady().then(() => (toastAreaReady = true));
    await waitFor(() => expect(toastAreaReady).toBe(true));
    api.restore();
  });

  it("follows the server's flags (TOOLSCOPE_FLAGS) once loaded", async () => {
    const { api } = renderShellApp(
      <>
        <FlagProbe name="show_upgrade_pro" />
        <FlagProbe name="show_marketplace" />
      </>,
      { flags: { show_upgrade_pro: true, show_marketplace: false } },
    );
    await waitFor(() => expect(flag('show_upgrade_pro')).toBe('on'));
    expect(flag('show_marketplace')).toBe('off');
    api.restore();
  });

  it('keeps unknown flags off, whatever the server sends', async () => {
    const { api } = renderShellApp(<FlagProbe name="show_everything" />, {
      configureApi: (fake) =>
        fake.on('GET', Paths.config, {
          body: {
            flags: { show_everything: true },
            plans: [],
            environment: 'production',
            version: 't',
            publicUrl: null,
          },
        }),
    });
    await waitFor(() => expect(api.calls).toContain(`GET ${Paths.config}`));
    await act(() => Promise.resolve());
    expect(flag('show_everything')).toBe('off');
    api.restore();
  });

  it('falls back to the defaults when the config cannot be loaded', async () => {
    const { api } = renderShellApp(<FlagProbe name="show_performance" />, {
      configureApi: (fake) =>
        fake.on('GET', Paths.config, {
          status: 503,
          body: { message: 'Service unavailable', code: 'service_unavailable' },
        }),
    });
    await waitFor(() => expect(api.calls).toContain(`GET ${Paths.config}`));
    await act(() => Promise.resolve());
    expect(flag('show_performance')).toBe('on');
    api.restore();
  });
});
