import { useCallback, useState } from 'react';

const STORAGE_KEY = 'toolscope.sidebar_collapsed';

function readCollapsed(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'true';
  } catch {
    return false;
  }
}

/** Whether the desktop sidebar is collapsed to icons; remembered across visits. */
export function useSidebarCollapsed(): [boolean, (collapsed: boolean) => void] {
  const [collapsed, setCollapsedState] = useState(readCollapsed);
  const setCollapsed = useCallback((next: boolean) => {
    setCollapsedState(next);
    try {
      localStorage.setItem(STORAGE_KEY, String(next));
    } catch {
      // Storage can be unavailable (private mode); the choice then lasts for this page only.
    }
  }, []);
  return [collapsed, setCollapsed];
}
