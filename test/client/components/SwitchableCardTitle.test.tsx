import { fireEvent, render, screen } from '@testing-library/react';
import { SwitchableCardTitle } from '../../../src/client/components/SwitchableCardTitle';

// The title line of an integration's or an exporter's card: a screen reader hears what the switch
// will do, a click says so to the card, and someone who may not manage the workspace cannot flip it.
describe('a switchable card title', () => {
  it('names the switch for what it does now and reports the new state', () => {
    const onToggle = jest.fn();
    const { rerender } = render(
      <SwitchableCardTitle name="Ops pager" component="h2" enabled canManage onToggle={onToggle} />,
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Ops pager' })).toBeTruthy();
    fireEvent.click(screen.getByRole('switch', { name: 'Disable Ops pager' }));
    expect(onToggle).toHaveBeenCalledWith(false);

    rerender(<SwitchableCardTitle name="Ops pager" component="h2" enabled={false} canManage onToggle={onToggle} />);
    fireEvent.click(screen.getByRole('switch', { name: 'Enable Ops pager' }));
    expect(onToggle).toHaveBeenLastCalledWith(true);
  });

  it('cannot be switched by someone who may not manage it', () => {
    render(
      <SwitchableCardTitle
        name="Collector"
        component="h3"
        enabled
        canManage={false}
        onToggle={() => undefined}
        leading={<span>OTLP</span>}
      />,
    );
    expect(screen.getByText('OTLP')).toBeTruthy();
    const toggle = screen.getByRole('switch', { name: 'Disable Collector' });
    expect((toggle as HTMLInputElement).disabled).toBe(true);
  });
});
