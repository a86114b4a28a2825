import { useState, type MouseEvent, type ReactNode } from 'react';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem, { type MenuItemProps } from '@mui/material/MenuItem';

/** Open/close state of a header dropdown, and the props its trigger button needs. */
export function useHeaderMenu() {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return {
    anchor,
    close: () => setAnchor(null),
    triggerProps: {
      'aria-haspopup': 'menu' as const,
      'aria-expanded': anchor ? ('true' as const) : undefined,
      onClick: (event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget),
    },
  };
}

/** A dropdown menu hanging from the right edge of its header button. */
export function HeaderMenu({
  anchor,
  onClose,
  minWidth,
  children,
}: {
  anchor: HTMLElement | null;
  onClose: () => void;
  minWidth: number;
  children: ReactNode;
}) {
  return (
    <Menu
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{ paper: { sx: { minWidth, mt: 1 } } }}
    >
      {children}
    </Menu>
  );
}

/**
 * A header menu entry: a small icon, then its label. The other props are passed on because the
 * menu list clones its items with autoFocus and tabIndex for keyboard navigation.
 */
export function HeaderMenuItem({ icon, children, ...props }: MenuItemProps & { icon: ReactNode }) {
  return (
    <MenuItem {...props}>
      <ListItemIcon>{icon}</ListItemIcon>
      {children}
    </MenuItem>
  );
}
