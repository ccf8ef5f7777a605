-- Encoded world data bodies as bytes: an LZW body holds U+0000, which a text column refuses. Bodies already
-- stored are kept (their UTF-8 bytes).
ALTER TABLE "world_data_cache" ALTER COLUMN "body" SET DATA TYPE bytea USING convert_to("body", 'UTF8');
