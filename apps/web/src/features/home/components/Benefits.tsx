import { List, ThemeIcon } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { HomeSection } from './HomeSection';

const benefits = [
  'One-click linking of Discord and VRChat accounts.',
  'Automatic role management based on linked accounts.',
  'Age verification, so 18+ spaces stay 18+.',
  'Role encoding for worlds: supporter boards, locked areas and VIP tags. Updates arrive every 1 minute from the website and every 10-15 minutes from a static-pages host.',
  'Two-way sync of Discord roles and VRChat group roles, including permanent and temporary roles and auto-invites.',
  'Search your community members to see their link and verification status.',
  'An advanced API for querying user data filtered by roles and VRChat names.',
];

export function Benefits() {
  return (
    <HomeSection id="benefits-title" title="Why communities use VRCLink">
      <List
        spacing="sm"
        size="md"
        icon={
          <ThemeIcon size={22} radius="xl" variant="light" color="teal">
            <IconCheck size={14} stroke={3} />
          </ThemeIcon>
        }
      >
        {benefits.map((benefit) => (
          <List.Item key={benefit}>{benefit}</List.Item>
        ))}
      </List>
    </HomeSection>
  );
}
