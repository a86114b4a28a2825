import MenuItem from '@mui/material/MenuItem';

/** The options of a select TextField, each value under its label. */
export function menuOptions<Value extends string>(values: readonly Value[], label: (value: Value) => string) {
  return values.map((value) => (
    <MenuItem key={value} value={value}>
      {label(value)}
    </MenuItem>
  ));
}
