import type { GuildPermission } from '../../../lib/guild-access/api/guilds';
import { type Answers, demoConfig, loggedInAs } from '../../../testing/renderApp';
import type { ImageSlot } from '../api/imageSlots';
import type { WorldImage } from '../api/serverImages';
import type { AtlasMetadata } from '../api/worldAtlas';

export const GUILD_ID = '1300000000000000001';
export const WORLD_ID = '3f2b1c4d-0000-4000-8000-000000000001';
export const PAGE_PATH = `/server-settings/${GUILD_ID}/worlds/images/${WORLD_ID}`;
export const IMAGES = `/api/world_images/${GUILD_ID}/images`;
export const SLOTS = `/api/world_images/${GUILD_ID}/${WORLD_ID}/slots`;
export const GUILD = `/api/guilds/${GUILD_ID}`;
export const METADATA = `/api/world_images/atlas/${WORLD_ID}/metadata`;
export const GENERATE = `/api/world_images/atlas/${GUILD_ID}/${WORLD_ID}/generate`;
export const slotPath = (slotId: number) => `/api/world_images/${GUILD_ID}/${WORLD_ID}/${slotId}/slots`;
export const imagePath = (imageId: string) => `/api/world_images/${GUILD_ID}/image/${imageId}`;

export const ALL: GuildPermission[] = ['ViewGuild', 'ViewWorlds', 'ViewImages', 'ManageImages'];

export const image = (n: number, overrides: Partial<WorldImage> = {}): WorldImage => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  name: `poster-${n}.png`,
  width: 800 + n,
  height: 600,
  imageHash: `hash${n}`,
  ...overrides,
});

export const slot = (slotId: number, overrides: Partial<ImageSlot> = {}): ImageSlot => ({
  id: `11111111-0000-4000-8000-00000000000${slotId}`,
  slotId,
  worldId: WORLD_ID,
  name: '',
  imageId: null,
  imageName: null,
  imageHash: null,
  maxDimension: 512,
  width: null,
  height: null,
  order: slotId,
  ...overrides,
});

/** Slot 0 'Entrance' shows poster 1 at 512 x 384; slot 1 is empty and unnamed. */
export const slotsFixture = (): ImageSlot[] => [
  slot(0, {
    name: 'Entrance',
    imageId: image(1).id,
    imageName: image(1).name,
    imageHash: image(1).imageHash,
    width: 512,
    height: 384,
  }),
  slot(1),
];

export const atlasFixture = (overrides: Partial<AtlasMetadata> = {}): AtlasMetadata => ({
  metadata: [],
  variation: null,
  status: 'idle',
  progress: 0,
  error: null,
  lastGeneration: null,
  outOfDate: false,
  ...overrides,
});

/** The editor of a server with a contact e-mail, two images and two slots. */
export function editorAnswers(permissions: GuildPermission[] = ALL, extra: Answers = {}): Answers {
  return {
    ...loggedInAs('User'),
    'GET /api/config': { body: demoConfig },
    'GET /api/guilds': { body: [{ id: GUILD_ID, name: 'VRChat Hangout', icon: null, permissions }] },
    [`GET ${GUILD}`]: {
      body: {
        id: GUILD_ID,
        name: 'VRChat Hangout',
        icon: null,
        members: 3,
        linkedMembers: 1,
        roles: [],
        autoAssignRoles: { ageVerifiedRoleId: null, ageVerifiedPlus18RoleId: null, linkedRoleId: null },
        contactEmail: 'owner@hangout.example',
      },
    },
    [`GET /api/guilds/${GUILD_ID}/worlds/${WORLD_ID}`]: { body: { id: WORLD_ID, name: 'Hangout Lobby' } },
    [`GET ${IMAGES}`]: { body: { images: [image(1), image(2)] } },
    [`GET ${SLOTS}`]: { body: { imageSlots: slotsFixture() } },
    [`GET ${METADATA}`]: { body: atlasFixture() },
    ...extra,
  };
}
