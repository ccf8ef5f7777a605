import { Overlay, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';

const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;

/**
 * Files dropped anywhere on the page are uploaded; while files are dragged over it the page says
 * 'Drop your file here!'. Images dragged between cards carry no files and are left alone. Without `onFiles`
 * (no ManageImages) a dropped file is only kept from replacing the page.
 */
export function FileDropOverlay({ onFiles }: { onFiles?: (files: File[]) => void }) {
  const [shown, setShown] = useState(false);
  // dragenter/dragleave fire for every child crossed: count them so the overlay stays until the page is left.
  const depth = useRef(0);
  const latest = useRef(onFiles);
  latest.current = onFiles;

  useEffect(() => {
    const enter = (event: DragEvent) => {
      if (!carriesFiles(event) || !latest.current) return;
      depth.current += 1;
      setShown(true);
    };
    const leave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setShown(false);
    };
    const over = (event: DragEvent) => {
      if (carriesFiles(event)) event.preventDefault();
    };
    const drop = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth.current = 0;
      setShown(false);
      const files = [...(event.dataTransfer?.files ?? [])];
      if (files.length > 0) latest.current?.(files);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, []);

  if (!shown) return null;
  return (
    <Overlay fixed zIndex={300} backgroundOpacity={0.7} center data-testid="file-drop-overlay">
      <Stack align="center" gap="xs" style={{ pointerEvents: 'none' }}>
        <IconUpload size={56} aria-hidden />
        <Text size="xl" fw={700} c="white">
          Drop your file here!
        </Text>
      </Stack>
    </Overlay>
  );
}
