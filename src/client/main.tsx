import './zodConfig';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { env } from './env';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
// Which build this tab runs (support can tell an old tab from a current one).
if (env.buildId) document.documentElement.dataset.build = env.buildId;

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
