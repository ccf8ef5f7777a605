import { Anchor, Container, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import classes from './layout.module.css';

export function Footer() {
  return (
    <footer className={classes.footer}>
      <Container size="lg" py="lg">
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed">
            © {new Date().getFullYear()} VRCLink. Not affiliated with VRChat Inc. or Discord Inc.
          </Text>
          <Group gap="lg">
            <Anchor component={Link} to="/privacy-policy" size="sm" c="dimmed">
              Privacy Policy
            </Anchor>
            <Anchor component={Link} to="/tos" size="sm" c="dimmed">
              Terms of Service
            </Anchor>
          </Group>
        </Group>
      </Container>
    </footer>
  );
}
