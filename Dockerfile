# VRCLink container image, built with the same release script as everything else (docs/deploy.md, "Packaging").
# This repository's CI has no Docker engine, so the image itself is not built there; CI builds and starts the same
# release (`npm run build`, then the runtime packages only, `npm run start:prod`) in apps/server/test/start-bundle.test.ts.
#   docker build -t vrclink .
# Stage 1: everything needed to build (dev tools included), then the release in /release.
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY apps/simulator/package.json apps/simulator/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build -- --force --out /release

# Stage 2: the release and its runtime packages only; no sources, no build tools.
FROM node:24-bookworm-slim
ENV NODE_ENV=production LOG_FORMAT=json DATA_DIR=/data HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=build /release ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force \
  && mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000 9464
# Liveness on the API port; a process without the api role sets HEALTH_PORT and is probed there instead.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.HEALTH_PORT||process.env.PORT)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["npm", "run", "--silent", "start:prod"]
