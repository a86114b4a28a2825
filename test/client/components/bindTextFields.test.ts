import { bindTextFields } from '../../../src/client/components/bindTextFields';

// A form dialog's text field shows the error at it in place of its help, also when the server
// names the field otherwise ('limits.memoryMb' for the Memory field).
const values = { name: 'Files', memoryMb: '', cwd: '' };

it('binds a field to its value, the busy state and its change', () => {
  const changed: [string, string][] = [];
  const field = bindTextFields(values, {}, true, (name, text) => changed.push([name, text]));
  const name = field('name', { help: 'Shown in the list' });
  expect(name).toMatchObject({ name: 'name', value: 'Files', disabled: true, error: false });
  expect(name.helperText).toBe('Shown in the list');
  name.onChange({ target: { value: 'Repo' } } as Parameters<typeof name.onChange>[0]);
  expect(changed).toEqual([['name', 'Repo']]);
});

it('shows the error at the field, found under its own name or the one given', () => {
  const field = bindTextFields(values, { name: 'Taken', 'limits.memoryMb': 'At least 64' }, false, () => undefined);
  expect(field('name', { help: 'Shown in the list' })).toMatchObject({ error: true, helperText: 'Taken' });
  expect(field('memoryMb', { errorKey: 'limits.memoryMb' })).toMatchObject({ error: true, helperText: 'At least 64' });
  expect(field('memoryMb')).toMatchObject({ error: false, helperText: undefined });
  expect(field('cwd', { help: 'A folder' })).toMatchObject({ error: false, helperText: 'A folder' });
});
