import {
  createTheme,
  DEFAULT_THEME,
  type CSSVariablesResolver,
  type MantineTheme,
  type NavLinkProps,
} from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 8 keeps white text on filled buttons above WCAG AA contrast, in both schemes.
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
  // A student who asked the system for less motion gets modals, menus and the navigation without their transitions.
  respectReducedMotion: true,
  components: {
    // Hovering the active link would darken its background below AA contrast for its text; keep it as it is.
    // A plain object, not NavLink.extend(): importing NavLink here would put it in every page's first load.
    NavLink: {
      vars: (_theme: MantineTheme, props: NavLinkProps) => ({
        root: props.active && !props.variant ? { '--nl-hover': 'var(--mantine-primary-color-light)' } : {},
        children: {},
      }),
    },
  },
});

/**
 * Colours that differ by scheme. Mantine's default dimmed grey and error red are below AA contrast on white (light:
 * darker ones) and on the dark body (dark: lighter ones). The `--sb-*` ones are the app's own, for the few surfaces
 * Mantine has no variable for: brand text, a muted panel, chat bubbles, a picked range, a selected row.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-8)',
    '--sb-color-brand': 'var(--mantine-color-indigo-8)',
    '--sb-surface-muted': 'var(--mantine-color-gray-0)',
    '--sb-bubble-mine': 'var(--mantine-color-indigo-0)',
    '--sb-bubble-theirs': 'var(--mantine-color-gray-1)',
    '--sb-range': 'var(--mantine-color-indigo-0)',
    '--sb-selected': 'var(--mantine-color-indigo-0)',
    '--sb-disabled-text': 'var(--mantine-color-gray-6)',
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
    '--mantine-color-anchor': 'var(--mantine-color-indigo-3)',
    '--sb-color-brand': 'var(--mantine-color-indigo-3)',
    '--sb-surface-muted': 'var(--mantine-color-dark-8)',
    '--sb-bubble-mine': 'rgba(76, 110, 245, 0.22)',
    '--sb-bubble-theirs': 'var(--mantine-color-dark-5)',
    '--sb-range': 'rgba(76, 110, 245, 0.22)',
    '--sb-selected': 'rgba(76, 110, 245, 0.22)',
    '--sb-disabled-text': 'var(--mantine-color-dark-2)',
  },
});

/** The browser's title bar and the installed app's: the brand colour in light, the page's own body in dark. */
export const THEME_COLORS = {
  light: DEFAULT_THEME.colors.indigo[8],
  dark: DEFAULT_THEME.colors.dark[7],
} as const;
