import { Suspense, useState } from 'react';
import { AppShell, Avatar, Box, Burger, Group, Menu, NavLink, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { Info, LogOut, UserRound } from 'lucide-react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';
import { ROUTES } from '@studybuddy/shared/routes';
import type { OwnProfile } from '@studybuddy/shared/session';
import { toast } from '../ui/toast.ts';
import { api } from '../lib/api.ts';
import { LoadingScreen } from '../ui/loading-screen.tsx';
import { FriendsUnreadBadge } from '../features/conversations/index.ts';
import { NotificationBadge } from '../features/social/index.ts';
import { FlashcardsDueBadge } from '../features/flashcards/index.ts';
import { forgetDevice } from '../features/push/index.ts';
import { SESSION_KEY } from '../features/auth/index.ts';
import { SearchLauncher } from '../features/search/index.ts';
import { isNavLinkActive, NAV_LINKS } from './nav-links.ts';
import { RealtimeProvider } from './realtime-provider.tsx';
import { forgetStudentData, lastUser } from '../lib/student-data.ts';
import { PwaRuntime } from './pwa/pwa-runtime.tsx';
import { ColorSchemeItems } from './color-scheme-items.tsx';
import { AboutDialog } from './about-dialog.tsx';

export { GuardedPage } from './guarded-pages.tsx';

// Mobile layout at 768 px and below (requirements §9); Mantine's breakpoint is the first desktop width.
const BREAKPOINT = `${(LIMITS.mobileBreakpointPx + 1) / 16}em`;

export function Shell({ profile }: { profile: OwnProfile }) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const [aboutOpened, about] = useDisclosure(false);
  const isMobile = useMediaQuery(`(max-width: ${LIMITS.mobileBreakpointPx}px)`, false, {
    getInitialValueInEffect: false,
  });
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Another student signed in on this browser: the last one's outbox and cached conversations go before anything
  // of the new student's loads (once, before the shell's pages mount; the session query stays).
  useState(() => {
    const previous = lastUser();
    if (previous && previous !== profile.uid) forgetStudentData(queryClient, (key) => key[0] === SESSION_KEY[0]);
  });

  const logout = async () => {
    try {
      await api('/api/auth/logout', { method: 'POST', body: {} });
      // The server dropped this browser's push subscription with the session; the browser forgets it too, and the
      // student's outbox, loaded conversations and last-user marker go (a shared computer keeps nothing of theirs).
      forgetStudentData(queryClient);
      await forgetDevice();
      await navigate(ROUTES.login);
    } catch {
      toast.error(MSG.shell.logoutFailed);
    }
  };

  return (
    <RealtimeProvider me={profile.uid}>
      <PwaRuntime me={profile.uid} />
      <AppShell
        header={{ height: 56, collapsed: !isMobile }}
        navbar={{ width: LIMITS.sidebarWidthPx, breakpoint: BREAKPOINT, collapsed: { mobile: !opened } }}
        padding="md"
      >
        <AppShell.Header px="md" hidden={!isMobile}>
          <Group h="100%" gap="sm">
            <Burger opened={opened} onClick={toggle} size="sm" aria-label="Toggle navigation" />
            <Text fw={700}>StudyBuddy</Text>
            {isMobile && (
              <Box ml="auto">
                <SearchLauncher compact />
              </Box>
            )}
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="sm" aria-label="Main navigation" inert={isMobile && !opened}>
          <AppShell.Section>
            {!isMobile && (
              <>
                <Text fw={800} size="xl" c="indigo" px="sm" py="xs">
                  StudyBuddy
                </Text>
                <SearchLauncher compact={false} />
              </>
            )}
          </AppShell.Section>
          <AppShell.Section grow mt="sm">
            <Stack gap={4}>
              {NAV_LINKS.map((link) => {
                const { label, to, icon: Icon } = link;
                const active = isNavLinkActive(link, location.pathname);
                return (
                  <NavLink
                    key={to}
                    component={Link}
                    to={to}
                    label={label}
                    leftSection={<Icon size={18} aria-hidden />}
                    active={active}
                    aria-current={active ? 'page' : undefined}
                    rightSection={
                      to === ROUTES.notifications ? (
                        <NotificationBadge />
                      ) : to === ROUTES.friends ? (
                        <FriendsUnreadBadge />
                      ) : to === ROUTES.flashcards ? (
                        <FlashcardsDueBadge />
                      ) : undefined
                    }
                    onClick={close}
                  />
                );
              })}
            </Stack>
          </AppShell.Section>
          <AppShell.Section>
            {/* No focus placeholder: a role=menu may hold only items (axe); a click leaves the focus on the menu. */}
            <Menu position="top-start" width={220} withInitialFocusPlaceholder={false}>
              <Menu.Target>
                <UnstyledButton w="100%" p="xs" aria-label="Account menu">
                  <Group gap="sm" wrap="nowrap">
                    <Avatar src={profile.profilePicture} alt="" radius="xl" />
                    <div style={{ minWidth: 0 }}>
                      <Text size="sm" fw={600} truncate>
                        {profile.name || profile.email}
                      </Text>
                      <Text size="xs" c="dimmed" truncate>
                        {profile.college}
                      </Text>
                    </div>
                  </Group>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item component={Link} to={ROUTES.profile} leftSection={<UserRound size={16} />} onClick={close}>
                  {MSG.shell.viewProfile}
                </Menu.Item>
                <Menu.Item
                  leftSection={<Info size={16} />}
                  onClick={() => {
                    close();
                    about.open();
                  }}
                >
                  {MSG.about.menuItem}
                </Menu.Item>
                <Menu.Divider />
                <ColorSchemeItems />
                <Menu.Divider />
                <Menu.Item leftSection={<LogOut size={16} />} onClick={() => void logout()}>
                  {MSG.shell.logout}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </AppShell.Section>
        </AppShell.Navbar>
        <AppShell.Main>
          <Suspense fallback={<LoadingScreen message={MSG.loading.loading} />}>
            <Outlet />
          </Suspense>
        </AppShell.Main>
      </AppShell>
      <AboutDialog opened={aboutOpened} onClose={about.close} />
    </RealtimeProvider>
  );
}
