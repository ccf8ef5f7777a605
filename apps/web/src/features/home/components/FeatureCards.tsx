import { Card, SimpleGrid, Text, ThemeIcon, Title } from '@mantine/core';
import { IconApi, IconRobot, IconUsersGroup, IconWorld } from '@tabler/icons-react';
import { HomeSection } from './HomeSection';
import classes from './home.module.css';

const features = [
  {
    title: 'World Management',
    icon: IconWorld,
    text: 'Encode Discord roles into your VRChat worlds for supporter boards, locked areas and VIP tags, kept fresh automatically.',
  },
  {
    title: 'Group Synchronization',
    icon: IconUsersGroup,
    text: 'Keep Discord roles and VRChat group roles in step both ways, with permanent and temporary roles and auto-invites.',
  },
  {
    title: 'Automation & Verification',
    icon: IconRobot,
    text: 'Assign roles the moment members link, verify account ownership and age, and let the bot do the busywork.',
  },
  {
    title: 'Advanced API Access',
    icon: IconApi,
    text: 'Query linked user data filtered by roles and VRChat names to power your own tools and worlds.',
  },
];

export function FeatureCards() {
  return (
    <HomeSection id="features-title" title="Everything your community needs">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg">
        {features.map(({ title, icon: Icon, text }) => (
          <Card key={title} withBorder padding="lg" className={classes.card}>
            <ThemeIcon size={44} radius="md" variant="gradient" mb="md">
              <Icon size={24} />
            </ThemeIcon>
            <Title order={3} fz="lg" mb="xs">
              {title}
            </Title>
            <Text size="sm" c="dimmed">
              {text}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </HomeSection>
  );
}
