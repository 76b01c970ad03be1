import { useEffect } from 'react';
import { useComputedColorScheme } from '@mantine/core';
import { THEME_COLORS } from './theme.ts';

/**
 * The browser's title bar (and the installed app's window) in the scheme the page shows: index.html's
 * `theme-color` meta starts light (the manifest's colour); this follows the system or the student's choice.
 */
export function ThemeColorMeta() {
  const scheme = useComputedColorScheme('light', { getInitialValueInEffect: false });
  useEffect(() => {
    let meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'theme-color';
      document.head.append(meta);
    }
    meta.content = THEME_COLORS[scheme];
  }, [scheme]);
  return null;
}
