import { act, render, screen } from '@testing-library/react';
import { RelativeTime } from '../../../src/client/components/RelativeTime';

// A relative time stays true while it is on screen ("checked 42 seconds ago" must not freeze).
beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-25T12:00:00Z') }));
afterEach(() => jest.useRealTimers());

it('ticks every second while under a minute old, and moves on to minutes', () => {
  render(<RelativeTime value="2026-11-25T11:59:18Z" />);
  expect(screen.getByText('42 seconds ago')).toBeInTheDocument();
  act(() => jest.advanceTimersByTime(6_000));
  expect(screen.getByText('48 seconds ago')).toBeInTheDocument();
  act(() => jest.advanceTimersByTime(30_000));
  expect(screen.getByText('1 minute ago')).toBeInTheDocument();
});

it('follows a new value (a live update) at once, and reads a time a little ahead of this clock as now', () => {
  const { rerender } = render(<RelativeTime value="2026-11-25T11:55:00Z" />);
  expect(screen.getByText('5 minutes ago')).toBeInTheDocument();
  rerender(<RelativeTime value="2026-11-25T12:00:01Z" />);
  expect(screen.getByText('now')).toBeInTheDocument();
});
