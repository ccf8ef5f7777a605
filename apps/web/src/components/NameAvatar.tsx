import { Avatar, type AvatarProps } from '@mantine/core';

/** The first letter or digit of a name, upper-cased ("?" when there is none): what an avatar without a picture shows. */
export function initialOf(name: string): string {
  const first = name.match(/[\p{L}\p{N}]/u)?.[0];
  return first ? first.toLocaleUpperCase() : '?';
}

/**
 * A person's, server's or group's picture, round, or the initial of its name when there is none (or it fails
 * to load). Decorative by default, for an avatar beside its name: the name is said once, by the text. With
 * `labelled`, it is an image named by the name (for an avatar shown without it).
 */
export function NameAvatar({
  name,
  src,
  labelled = false,
  ...props
}: { name: string; src: string | null | undefined; labelled?: boolean } & Omit<
  AvatarProps,
  'src' | 'alt' | 'radius' | 'children'
>) {
  const a11y = labelled ? { role: 'img', 'aria-label': name } : { 'aria-hidden': true };
  return (
    <Avatar src={src ?? null} alt="" radius="xl" color="violet" {...a11y} {...props}>
      {initialOf(name)}
    </Avatar>
  );
}
