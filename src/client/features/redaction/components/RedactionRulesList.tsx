import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { RedactionCategory, RedactionRuleDto } from '../../../../contract/redaction';
import type { RedactionDraft } from '../redactionDraft';

const CATEGORY_TITLES: Record<RedactionCategory, string> = {
  secret: 'Secrets (on by default)',
  personal: 'Personal data (off by default)',
};

interface Props {
  rules: RedactionRuleDto[];
  draft: RedactionDraft['rules'];
  onChange: (rules: RedactionDraft['rules']) => void;
  disabled: boolean;
}

/** The built-in rules by category: each on or off, and whether its placeholder carries a keyed hash. */
export function RedactionRulesList({ rules, draft, onChange, disabled }: Props) {
  const state = new Map(draft.map((rule) => [rule.id, rule]));
  const set = (id: string, change: { enabled?: boolean; hash?: boolean }) =>
    onChange(draft.map((rule) => (rule.id === id ? { ...rule, ...change } : rule)));
  return (
    <Stack spacing={2}>
      {(['secret', 'personal'] as const).map((category) => (
        <Box key={category} component="section" aria-label={CATEGORY_TITLES[category]}>
          <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
            {CATEGORY_TITLES[category]}
          </Typography>
          {rules
            .filter((rule) => rule.category === category)
            .map((rule) => (
              <Box key={rule.id} sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 2 }}>
                <FormControlLabel
                  sx={{ minWidth: 320, mr: 0 }}
                  label={rule.title}
                  control={
                    <Switch
                      checked={state.get(rule.id)?.enabled ?? rule.enabled}
                      disabled={disabled}
                      onChange={(e) => set(rule.id, { enabled: e.target.checked })}
                    />
                  }
                />
                <FormControlLabel
                  label="Keyed hash"
                  control={
                    <Checkbox
                      size="small"
                      checked={state.get(rule.id)?.hash ?? rule.hash}
                      disabled={disabled}
                      onChange={(e) => set(rule.id, { hash: e.target.checked })}
                      slotProps={{ input: { 'aria-label': `Keyed hash for ${rule.title}` } }}
                    />
                  }
                />
                <Typography variant="caption" color="text.secondary">
                  {rule.id} · {rule.source}
                </Typography>
              </Box>
            ))}
        </Box>
      ))}
    </Stack>
  );
}
