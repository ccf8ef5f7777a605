import { AppShell, Box, Burger, Container, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLink } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { Footer } from './Footer';
import classes from './layout.module.css';
import { NavLinks } from './NavLinks';
import { PhoneLoginButton, UserSection } from './UserSection';
import { useDialogFocusReturn } from './useDialogFocusReturn';

const PhoneMenu = lazy(async () => ({ default: (await import('./PhoneMenu')).PhoneMenu }));

export function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  // The phone menu's code is fetched on the first tap, then stays mounted (so it can animate closed).
  const [menuUsed, setMenuUsed] = useState(false);
  const { pathname } = useLocation();

  // Also close the menu on redirects, not only on link clicks.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path change is the trigger
  useEffect(() => close(), [pathname, close]);
  useDialogFocusReturn();

  return (
    <AppShell header={{ height: 60 }}>
      {/* The first stop for Tab: past the header's links straight to the page. */}
      <a href="#main-content" className={classes.skipLink}>
        Skip to main content
      </a>
      <AppShell.Header className={classes.header}>
        <Container size="lg" h="100%">
          <Group h="100%" gap="md" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={() => {
                setMenuUsed(true);
                toggle();
              }}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
            />
            <Link to="/" className={classes.brand} aria-label="VRCLink home">
              <IconLink size={22} color="var(--mantine-color-violet-4)" aria-hidden />
              VRCLink
            </Link>
            <Group component="nav" aria-label="Main" gap={4} visibleFrom="sm" ml="md" wrap="nowrap">
              <NavLinks />
            </Group>
            <Box ml="auto" visibleFrom="sm">
              <UserSection />
            </Box>
            <Box ml="auto" hiddenFrom="sm">
              <PhoneLoginButton />
            </Box>
          </Group>
        </Container>
      </AppShell.Header>

      {menuUsed && (
        <Suspense fallback={null}>
          <PhoneMenu opened={opened} onClose={close} />
        </Suspense>
      )}

      <AppShell.Main id="main-content" tabIndex={-1} className={classes.main}>
        <div className={classes.content}>
          <Outlet />
        </div>
        <Footer />
      </AppShell.Main>
    </AppShell>
  );
}
