import { Container, Stack } from '@mantine/core';
import { LoginErrorAlert } from '../../../lib/auth';
import { Benefits } from './Benefits';
import { FeatureCards } from './FeatureCards';
import { Hero } from './Hero';

export function HomePage() {
  return (
    <>
      <title>VRCLink · Seamless Linking and Syncing for VRChat</title>
      <LoginErrorAlert />
      <Hero />
      <Container size="lg" py={48}>
        <Stack gap={56}>
          <FeatureCards />
          <Benefits />
        </Stack>
      </Container>
    </>
  );
}
