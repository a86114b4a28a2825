import { useState } from 'react';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { CopyButton } from '../../../components/CopyButton';
import { clientConfigs } from '../clientConfigs';

/** Tabs of ready-to-paste client configuration for one server's proxy URL. */
export function ClientConfigTabs({ serverName, proxyUrl }: { serverName: string; proxyUrl: string }) {
  const configs = clientConfigs(serverName, proxyUrl);
  const [selected, setSelected] = useState(configs[0].id);
  const config = configs.find((c) => c.id === selected) ?? configs[0];
  return (
    <Box>
      <Tabs
        value={config.id}
        onChange={(_event, value: typeof selected) => setSelected(value)}
        variant="scrollable"
        scrollButtons="auto"
        aria-label="Client configuration"
        sx={{ minHeight: 36, '& .MuiTab-root': { minHeight: 36, textTransform: 'none', fontSize: 13, px: 1.5 } }}
      >
        {configs.map((c) => (
          <Tab key={c.id} value={c.id} label={c.label} />
        ))}
      </Tabs>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1, mb: 0.5 }}>
        {config.where}
      </Typography>
      <Box sx={{ position: 'relative', border: '1px solid', borderColor: 'divider', borderRadius: 2, bgcolor: '#0d131b' }}>
        <Box sx={{ position: 'absolute', top: 4, right: 4 }}>
          <CopyButton text={config.snippet} label={`Copy ${config.label} configuration`} />
        </Box>
        <Box
          component="pre"
          aria-label={`${config.label} configuration`}
          sx={{ m: 0, p: 1.5, pr: 6, whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 12.5, lineHeight: 1.55 }}
        >
          {config.snippet}
        </Box>
      </Box>
    </Box>
  );
}
