import { Alert, Center, Container, Loader, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorMessage } from '../../../api/errors';
import { useVpmListing } from '../api/vpmListing';
import { latestPackages } from '../latestPackages';
import { PackageCard } from './PackageCard';
import { RepositoryAddress } from './RepositoryAddress';

export const LISTING_FAILED_MESSAGE = 'Failed to load the package listing.';

/** /vpm-listing: the server's VCC repository address and the packages it offers. */
export function VpmListingPage() {
  const listing = useVpmListing();

  return (
    <Container size="md" py="xl">
      <title>VPM Listing · VRCLink</title>
      <Title order={1}>VPM Listing</Title>
      <Text c="dimmed" mt={4} mb="xl">
        Packages for your VRChat worlds, served as a VRChat Package Manager repository.
      </Text>
      {listing.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading the package listing" />
        </Center>
      )}
      {listing.isError && (
        <Alert color="red" icon={<IconAlertCircle />} title="Listing unavailable">
          {errorMessage(listing.error, LISTING_FAILED_MESSAGE)}
        </Alert>
      )}
      {listing.data && (
        <Stack gap="lg">
          <RepositoryAddress url={listing.data.url} />
          <Title order={2} fz="h4">
            Packages
          </Title>
          {latestPackages(listing.data).map((pkg) => (
            <PackageCard key={pkg.name} pkg={pkg} />
          ))}
        </Stack>
      )}
    </Container>
  );
}
