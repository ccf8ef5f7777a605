import { Button, FileButton } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';

/** Choosing files with the keyboard or a click, for those who cannot drop them on the page. */
export function UploadButton({ onFiles }: { onFiles: (files: File[]) => void }) {
  return (
    <FileButton onChange={onFiles} accept="image/png,image/jpeg,image/webp,image/gif" multiple>
      {(props) => (
        <Button {...props} variant="default" leftSection={<IconUpload size={16} />}>
          Upload
        </Button>
      )}
    </FileButton>
  );
}
