import { useId, useState } from 'react';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ShuffleIcon from '@mui/icons-material/Shuffle';
import { describeAvatar, drawAvatarChoices, type AvatarChoice } from '../avatarChoices';

export interface AvatarPickerProps {
  /** Saves the chosen avatar; resolves when done (the picker shows it as busy meanwhile). */
  onSave: (choice: AvatarChoice) => Promise<void>;
  /** Injectable for tests; Math.random otherwise. */
  random?: () => number;
}

/**
 * SPEC §9 avatar picker: six options as a radio group (arrow keys move, each option says its
 * style and colour), shuffle for six new ones, and Save to make the chosen one the profile's.
 */
export function AvatarPicker({ onSave, random }: AvatarPickerProps) {
  const labelId = useId();
  const [choices, setChoices] = useState<AvatarChoice[]>(() => drawAvatarChoices(random));
  const [selectedId, setSelectedId] = useState<string>('');
  const [busy, setBusy] = useState(false);
  const selected = choices.find((c) => c.id === selectedId);

  const shuffle = () => {
    setChoices(drawAvatarChoices(random));
    setSelectedId('');
  };
  const save = async () => {
    if (!selected) return;
    setBusy(true);
    try {
      await onSave(selected);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box>
      <Typography id={labelId} variant="subtitle2" sx={{ mb: 1 }}>
        Choose an avatar
      </Typography>
      <RadioGroup
        row
        aria-labelledby={labelId}
        name="avatar"
        value={selectedId}
        onChange={(_, value) => setSelectedId(value)}
        sx={{ gap: 1, mb: 2 }}
      >
        {choices.map((choice) => {
          const checked = choice.id === selectedId;
          return (
            <Box
              key={choice.id}
              component="label"
              sx={{
                position: 'relative',
                display: 'grid',
                placeItems: 'center',
                p: 0.75,
                borderRadius: 2,
                border: 2,
                borderColor: checked ? 'primary.main' : 'divider',
                cursor: 'pointer',
                '&:focus-within': {
                  outline: 2,
                  outlineColor: 'primary.light',
                  outlineStyle: 'solid',
                  outlineOffset: 2,
                },
              }}
            >
              <Radio
                value={choice.id}
                checked={checked}
                slotProps={{ input: { 'aria-label': describeAvatar(choice) } }}
                sx={{ position: 'absolute', inset: 0, zIndex: 1, opacity: 0, width: 1, height: 1, p: 0, m: 0 }}
              />
              <Avatar src={choice.url} alt="" sx={{ width: 56, height: 56, pointerEvents: 'none' }} />
            </Box>
          );
        })}
      </RadioGroup>
      <Stack direction="row" spacing={1.5}>
        <Button variant="outlined" startIcon={<ShuffleIcon />} onClick={shuffle} disabled={busy}>
          Shuffle
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={!selected || busy}>
          {busy ? 'Saving…' : 'Save avatar'}
        </Button>
      </Stack>
    </Box>
  );
}
