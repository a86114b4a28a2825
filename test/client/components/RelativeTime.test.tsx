import { act, render, screen } from '@testing-library/react';
import { formatRelativeTime, RelativeTime } from '../../../src/client/components/RelativeTime';

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

it('says a time that rounds to a whole larger unit in that unit ("in 1 hour", not "in 60 minutes")', () => {
  const now = Date.parse('2026-11-20T10:00:00.000Z');
  expect(formatRelativeTime(now + 3_600_000 - 20_000, now)).toBe('in 1 hour');
  expect(formatRelativeTime(now - 59_600, now)).toBe('1 minute ago');
  expect(formatRelativeTime(now + 24 * 3_600_000 - 600_000, now)).toBe('tomorrow');
  expect(formatRelativeTime(now + 45 * 60_000, now)).toBe('in 45 minutes');
  expect(formatRelativeTime(now - 100 * 60_000, now)).toBe('2 hours ago');
});
