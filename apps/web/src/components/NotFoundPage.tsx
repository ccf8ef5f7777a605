import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconHome } from '@tabler/icons-react';
import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <Center py={100}>
      <title>Page not found · VRCLink</title>
      <Stack align="center" gap="md" ta="center">
        <Text fz={72} fw={900} variant="gradient" lh={1}>
          404
        </Text>
        <Title order={1}>Page not found</Title>
        <Text c="dimmed" maw={420}>
          The page you are looking for does not exist or has moved.
        </Text>
        <Button component={Link} to="/" leftSection={<IconHome size={18} />}>
          Back to Home
        </Button>
      </Stack>
    </Center>
  );
}
