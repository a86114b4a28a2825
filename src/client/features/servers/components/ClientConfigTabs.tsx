import { useState } from 'react';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { CodeFrame, MONOSPACE_FONT } from '../../../components/CodeFrame';
import { clientConfigs, KEY_PLACEHOLDER } from '../clientConfigs';

/** Tabs of ready-to-paste client configuration for one server's proxy URL. */
export function ClientConfigTabs({
  serverName,
  proxyUrl,
  requireKey = false,
}: {
  serverName: string;
  proxyUrl: string;
  requireKey?: boolean;
}) {
  const configs = clientConfigs(serverName, proxyUrl, requireKey);
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
        {requireKey &&
          ` · This workspace requires a platform key: replace ${KEY_PLACEHOLDER} with one from Workspace Settings → Security.`}
      </Typography>
      <CodeFrame copyText={config.snippet} copyLabel={`Copy ${config.label} configuration`}>
        <Box
          component="pre"
          aria-label={`${config.label} configuration`}
          sx={{
            m: 0,
            p: 1.5,
            pr: 6,
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-all',
            fontFamily: MONOSPACE_FONT,
            fontSize: 12.5,
            lineHeight: 1.55,
          }}
        >
          {config.snippet}
        </Box>
      </CodeFrame>
    </Box>
  );
}
