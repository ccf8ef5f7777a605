import type { DragEvent } from 'react';

/** The type an image card puts on a native drag, so a slot can take it (files carry 'Files' instead). */
export const IMAGE_DRAG_TYPE = 'application/x-vrclink-world-image';

export const startImageDrag = (event: DragEvent, imageId: string) => {
  event.dataTransfer.setData(IMAGE_DRAG_TYPE, imageId);
  event.dataTransfer.effectAllowed = 'link';
};

export const carriesImage = (event: DragEvent) => event.dataTransfer.types.includes(IMAGE_DRAG_TYPE);

/** The dropped image's id, or null when something else was dropped. */
export const droppedImageId = (event: DragEvent) => event.dataTransfer.getData(IMAGE_DRAG_TYPE) || null;
