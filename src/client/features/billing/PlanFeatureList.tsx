import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import type { PlanFeature } from '../../../contract/plans';

/** A plan's features: included ones with their limit, the others struck through. */
export function PlanFeatureList({ features }: { features: readonly PlanFeature[] }) {
  return (
    <List dense disablePadding>
      {features.map((feature) => (
        <ListItem key={feature.name} disableGutters sx={{ opacity: feature.included ? 1 : 0.5 }}>
          <ListItemIcon sx={{ minWidth: 28 }}>
            {feature.included ? (
              <CheckIcon fontSize="small" color="success" titleAccess="Included" />
            ) : (
              <CloseIcon fontSize="small" titleAccess="Not included" />
            )}
          </ListItemIcon>
          <ListItemText
            primary={feature.limit ? `${feature.name}: ${feature.limit}` : feature.name}
            sx={{ textDecoration: feature.included ? 'none' : 'line-through' }}
          />
        </ListItem>
      ))}
    </List>
  );
}
