import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { ServerDto } from '../../../contract/servers';

interface ServerFilterSelectProps {
  servers: ServerDto[];
  /** The chosen server's id; '' for all servers. */
  value: string;
  onChange: (serverId: string) => void;
}

/** The "Server" filter of the list pages: All servers, then one entry per server. */
export function ServerFilterSelect({ servers, value, onChange }: ServerFilterSelectProps) {
  return (
    <TextField select size="small" label="Server" value={value} onChange={(e) => onChange(e.target.value)}>
      <MenuItem value="">All servers</MenuItem>
      {servers.map((server) => (
        <MenuItem key={server.id} value={server.id}>
          {server.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
