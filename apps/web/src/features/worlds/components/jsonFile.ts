/** A file name for the world's data: its name (without characters file systems refuse) plus .json. */
export function jsonFileName(worldName: string): string {
  const base = worldName.replace(/[\\/:*?"<>|]+/g, '_').trim();
  return `${base || 'world'}.json`;
}

/** Saves text as a .json download. */
export function downloadJson(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the address is freed.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
