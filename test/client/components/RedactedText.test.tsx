import { render } from '@testing-library/react';
import { JsonView } from '../../../src/client/components/JsonView';

// A value the recorder redacted before storage reads as such on every payload screen: its
// placeholder is marked, the text around it is left as it was, and nothing else is marked.
describe('redacted placeholders in payloads', () => {
  it('marks each placeholder, with or without its keyed hash, and only those', () => {
    const payload = {
      token: '[REDACTED:github-pat:3f9c01ab44d2]',
      note: 'key [REDACTED:aws-access-token] then [REDACTED] and [not redacted]',
    };
    const { container } = render(<JsonView value={payload} />);
    const marks = [...container.querySelectorAll('mark[data-redacted="true"]')].map((mark) => mark.textContent);
    expect(marks).toEqual(['[REDACTED:github-pat:3f9c01ab44d2]', '[REDACTED:aws-access-token]']);
    expect(container.querySelector('pre')?.textContent).toBe(JSON.stringify(payload, null, 2));
  });
});
