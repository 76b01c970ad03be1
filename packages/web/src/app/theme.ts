import { createTheme, type CSSVariablesResolver, type MantineTheme, type NavLinkProps } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 8 keeps white text on filled buttons above WCAG AA contrast.
  primaryShade: { light: 8, dark: 5 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
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

/** Mantine's default dimmed grey and error red are below AA contrast on white; use darker ones. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-8)',
  },
  dark: {},
});
