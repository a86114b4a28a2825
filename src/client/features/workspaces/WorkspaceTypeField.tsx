import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { WORKSPACE_TYPES, type WorkspaceType } from '../../../contract/workspaces';
import { CreateWorkspaceText } from './createWorkspaceText';

const TYPE_LABELS: Record<WorkspaceType, { label: string; hint: string }> = {
  // Every plan may invite members (the plan cards' "Invite members"); the team type is for plans with "Team workspaces".
  personal: {
    label: CreateWorkspaceText.personal,
    hint: 'Your own servers and sessions; you can still invite people.',
  },
  team: {
    label: CreateWorkspaceText.team,
    hint: 'Made to share with the members you invite (plans with Team workspaces).',
  },
};

interface WorkspaceTypeFieldProps {
  value: WorkspaceType;
  disabled: boolean;
  onChange: (workspaceType: WorkspaceType) => void;
}

/** Personal (the default) or team. */
export function WorkspaceTypeField({ value, disabled, onChange }: WorkspaceTypeFieldProps) {
  return (
    <FormControl disabled={disabled}>
      <FormLabel id="workspace-type-label">{CreateWorkspaceText.typeLabel}</FormLabel>
      <RadioGroup
        aria-labelledby="workspace-type-label"
        value={value}
        onChange={(event) => onChange(event.target.value as WorkspaceType)}
      >
        {WORKSPACE_TYPES.map((type) => (
          <FormControlLabel
            key={type}
            value={type}
            control={<Radio />}
            label={
              <>
                {TYPE_LABELS[type].label}
                <Typography component="span" variant="body2" sx={{ color: 'text.secondary', ml: 1 }}>
                  {TYPE_LABELS[type].hint}
                </Typography>
              </>
            }
          />
        ))}
      </RadioGroup>
    </FormControl>
  );
}
